/**
 * Deploy (`server.deploy` everywhere): a new server downloaded through
 * SteamCMD into a new folder. The form takes what `POST /api/deploy` does
 * (name, folder, game port, branch); once it answers, the new entry's
 * download is followed live until it ends, then the page links to the
 * server. A refused field shows the API's message under it.
 */
import { useId, useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { type Branch, DEPLOY_PERMISSION, DeployInput, type DeployStarted } from "../contract/Api.js"
import { updatesApi } from "./client.js"
import { UpdateProgress } from "./UpdateProgress.js"
import { useUpdateFollow } from "./useUpdateFollow.js"

const Problem = ({ id, text }: { readonly id: string; readonly text: string | undefined }) =>
  text === undefined ? null : (
    <p id={id} className="notice error" role="alert">
      {text}
    </p>
  )

/** The new server's download, live, and where to go once it ended. */
const DeployFollow = ({ started, again }: { readonly started: DeployStarted; readonly again: () => void }) => {
  const { status, log, stream } = useUpdateFollow(started.serverId)
  const shown = status ?? started.update
  return (
    <div className="stack">
      <dl className="kv card">
        <dt>Server</dt>
        <dd>{started.name}</dd>
        <dt>Folder</dt>
        <dd className="mono break-anywhere">{started.installDir}</dd>
        <dt>Game port</dt>
        <dd>{started.gamePort}</dd>
      </dl>
      <UpdateProgress status={shown} log={log} stream={stream} />
      {shown.state === "done" && (
        <p className="notice" role="status">
          {started.name} is installed. <Link to={`/servers/${encodeURIComponent(started.serverId)}`}>Open {started.name}</Link>
        </p>
      )}
      {(shown.state === "failed" || shown.state === "cancelled") && (
        <p className="notice warn" role="status">
          The entry was made, but the game is not installed yet: run &quot;Update game files&quot; on its{" "}
          <Link to={`/servers/${encodeURIComponent(started.serverId)}/updates`}>Updates tab</Link> once the cause is fixed.
        </p>
      )}
      {shown.state !== "running" && (
        <div className="row">
          <button type="button" onClick={again}>
            Deploy another server
          </button>
        </div>
      )}
    </div>
  )
}

const DeployForm = ({ deployed }: { readonly deployed: (started: DeployStarted) => void }) => {
  const id = useId()
  const feedback = useFeedback()
  const [name, setName] = useState("")
  const [installDir, setInstallDir] = useState("")
  const [gamePort, setGamePort] = useState("")
  const [branch, setBranch] = useState<Branch>("stable")
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})
  const { busy, submit } = useSubmit(async () => {
    setProblems({})
    try {
      const port = gamePort.trim()
      const payload = new DeployInput({ name: name.trim(), installDir: installDir.trim(), branch, ...(port === "" ? {} : { gamePort: Number(port) }) })
      deployed(await updatesApi((c) => c.serverUpdates.deploy({ payload })))
      feedback.ok("Deploy started")
    } catch (error) {
      if (error instanceof ApiError) setProblems(error.fields)
      throw error
    }
  })
  const described = (field: string, hint?: string) =>
    [hint, problems[field] === undefined ? undefined : `${id}-${field}-problem`].filter((x) => x !== undefined).join(" ") || undefined
  return (
    <form className="card stack" aria-label="New server" onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          // Something besides spaces: the API trims the name.
          pattern=".*\S.*"
          maxLength={100}
          autoComplete="off"
          aria-invalid={problems["name"] !== undefined}
          aria-describedby={described("name")}
        />
      </label>
      <Problem id={`${id}-name-problem`} text={problems["name"]} />
      <label>
        Folder
        <input
          value={installDir}
          onChange={(e) => setInstallDir(e.target.value)}
          required
          maxLength={4096}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problems["installDir"] !== undefined}
          aria-describedby={described("installDir", `${id}-folder-hint`)}
        />
      </label>
      <p id={`${id}-folder-hint`} className="muted">
        A new or empty folder inside the controller&apos;s deploy folder: a name such as <span className="mono">chernarus-2</span>, or an absolute path under it.
      </p>
      <Problem id={`${id}-installDir-problem`} text={problems["installDir"]} />
      <label>
        Game port (optional)
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={65535}
          value={gamePort}
          onChange={(e) => setGamePort(e.target.value)}
          aria-invalid={problems["gamePort"] !== undefined}
          aria-describedby={described("gamePort", `${id}-port-hint`)}
        />
      </label>
      <p id={`${id}-port-hint`} className="muted">
        Leave it empty to take a free port.
      </p>
      <Problem id={`${id}-gamePort-problem`} text={problems["gamePort"]} />
      <fieldset>
        <legend>Branch</legend>
        <div className="row">
          <label className="inline">
            <input type="radio" name="branch" value="stable" checked={branch === "stable"} onChange={() => setBranch("stable")} />
            Stable
          </label>
          <label className="inline">
            <input type="radio" name="branch" value="experimental" checked={branch === "experimental"} onChange={() => setBranch("experimental")} />
            Experimental
          </label>
        </div>
      </fieldset>
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Deploying">
          Deploy
        </SubmitButton>
      </div>
    </form>
  )
}

const DeployPage = () => {
  const { me } = useSession()
  const [started, setStarted] = useState<DeployStarted | undefined>(undefined)
  return (
    <div className="stack">
      <h1>Deploy a server</h1>
      <p className="muted">
        Makes a new server entry and downloads the DayZ server into its folder through SteamCMD, with the Steam account set on the SteamCMD page. The RCON port
        and password come from the downloaded BattlEye config.
      </p>
      {!allowed(me, DEPLOY_PERMISSION) ? (
        <p className="notice">Deploying needs the {DEPLOY_PERMISSION} permission on every server: your role grants it on some servers only.</p>
      ) : started === undefined ? (
        <DeployForm deployed={setStarted} />
      ) : (
        <DeployFollow key={started.serverId} started={started} again={() => setStarted(undefined)} />
      )}
    </div>
  )
}

export default DeployPage
