/**
 * Start a rollout: the mods with a due update (all ticked: the API's
 * default), the game server's own update, and whether to skip the
 * warnings. A confirmation first says what happens to the players.
 */
import { useEffect, useState } from "react"
import { formatTime } from "@dashboard/ui/data.js"
import { SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import type { Mod } from "../../mods/contract/Api.js"
import { RolloutInput, type RolloutPolicy, type RolloutStatus } from "../contract/Api.js"
import { rolloutApi } from "./client.js"
import { minutesList } from "./words.js"

const whatHappens = (serverRunning: boolean, now: boolean, policy: RolloutPolicy | undefined): string => {
  if (!serverRunning) return "The server is stopped: the new versions are downloaded and put on, and it stays stopped."
  const warnings =
    now || policy === undefined || policy.warnings.length === 0
      ? "Once the downloads are done,"
      : `Players are warned ${minutesList([...policy.warnings].sort((a, b) => b - a))} before the restart; then`
  const lock = policy?.lock === false ? "" : " the server is locked,"
  return `${warnings}${lock} everyone is kicked, and the server restarts with the new versions. If it does not run and answer, the previous versions are put back.`
}

export const RolloutStartForm = ({
  serverId,
  due,
  serverRunning,
  policy,
  rolloutRunning,
  started
}: {
  readonly serverId: string
  /** Mods with an update a rollout applies now (pending, not pinned, not held back). */
  readonly due: ReadonlyArray<Mod>
  readonly serverRunning: boolean
  readonly policy: RolloutPolicy | undefined
  readonly rolloutRunning: boolean
  readonly started: (status: RolloutStatus) => void
}) => {
  const feedback = useFeedback()
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set())
  const [server, setServer] = useState(false)
  const [now, setNow] = useState(false)
  useEffect(() => setUnticked(new Set()), [serverId])

  const ticked = due.filter((mod) => !unticked.has(mod.workshopId))
  const { busy, submit } = useSubmit(async () => {
    const confirmed = await feedback.confirm({
      title: "Start the rollout?",
      body: whatHappens(serverRunning, now, policy),
      confirmLabel: "Start the rollout",
      danger: serverRunning
    })
    if (!confirmed) return
    // Every due mod ticked: leave `mods` out, which is the API's "every due update".
    const mods = ticked.length === due.length ? {} : { mods: ticked.map((mod) => mod.workshopId) }
    started(await rolloutApi((c) => c.rollout.start({ path: { id: serverId }, payload: new RolloutInput({ ...mods, server, now }) })))
    feedback.ok("Rollout started")
  })

  return (
    <form className="card stack" onSubmit={submit} aria-label="Start a rollout">
      <fieldset>
        <legend>Mods to update</legend>
        {due.length === 0 ? (
          <p className="muted">No mod has an update due. Check for updates first (pinned and held-back mods are left out).</p>
        ) : (
          <ul className="plain stack">
            {due.map((mod) => (
              <li key={mod.workshopId}>
                <label className="inline">
                  <input
                    type="checkbox"
                    checked={!unticked.has(mod.workshopId)}
                    onChange={(e) =>
                      setUnticked((all) => {
                        const next = new Set(all)
                        if (e.target.checked) next.delete(mod.workshopId)
                        else next.add(mod.workshopId)
                        return next
                      })
                    }
                  />
                  {mod.title || mod.name}
                  {mod.pendingUpdate !== null && <span className="muted"> (published {formatTime(mod.pendingUpdate.workshopUpdatedAt)})</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={server} onChange={(e) => setServer(e.target.checked)} /> Also update the game server itself (through SteamCMD)
      </label>
      {serverRunning && (
        <label className="inline">
          <input type="checkbox" checked={now} onChange={(e) => setNow(e.target.checked)} /> Skip the warnings: restart as soon as the downloads are done
        </label>
      )}
      <p className="muted">{whatHappens(serverRunning, now, policy)}</p>
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Starting the rollout" disabled={rolloutRunning}>
          Start rollout
        </SubmitButton>
        {rolloutRunning && <span className="muted">A rollout is running.</span>}
      </div>
    </form>
  )
}
