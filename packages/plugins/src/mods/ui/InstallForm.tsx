/**
 * Install a workshop mod by its id, with an optional folder name and its
 * type. On a stopped server the install is a job (its progress shows in
 * Downloads); on a running one a mod can only go on through a rollout,
 * which warns the players, restarts the server and checks it, so that is
 * what the form starts there (it needs `server.restart` too).
 */
import { useState } from "react"
import { useFeedback, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { InstallInput, type ModJob, type ModType } from "../contract/Api.js"
import { RolloutInput, type RolloutStatus } from "../../rollout/contract/Api.js"
import { rolloutApi } from "../../rollout/ui/client.js"
import { modsApi } from "./client.js"
import { TYPE_WORDS } from "./words.js"

export const InstallForm = ({
  serverId,
  locked,
  canRollout,
  rolloutRunning,
  installing,
  rolloutStarted
}: {
  readonly serverId: string
  /** The server is not stopped: the mod goes on through a rollout. */
  readonly locked: boolean
  readonly canRollout: boolean
  readonly rolloutRunning: boolean
  readonly installing: (job: ModJob) => void
  readonly rolloutStarted: (status: RolloutStatus) => void
}) => {
  const feedback = useFeedback()
  const [workshopId, setWorkshopId] = useState("")
  const [name, setName] = useState("")
  const [type, setType] = useState<ModType>("client")
  const [now, setNow] = useState(false)

  const item = () => ({ workshopId: workshopId.trim(), type, ...(name.trim() === "" ? {} : { name: name.trim() }) })
  const { busy, submit } = useSubmit(async () => {
    if (!locked) {
      installing(await modsApi((c) => c.mods.install({ path: { id: serverId }, payload: new InstallInput(item()) })))
      feedback.ok(`Install of workshop item ${workshopId.trim()} started`)
    } else {
      const confirmed = await feedback.confirm({
        title: "Install through a rollout?",
        body: now
          ? "The mod is downloaded, then the server is locked, everyone is kicked, and it restarts with the mod on at once."
          : "The mod is downloaded while players play; they are warned at the rollout policy's times, then the server restarts with the mod on.",
        confirmLabel: "Start the rollout",
        danger: true
      })
      if (!confirmed) return
      rolloutStarted(await rolloutApi((c) => c.rollout.start({ path: { id: serverId }, payload: new RolloutInput({ install: [item()], now }) })))
      feedback.ok(`Rollout started: it installs workshop item ${workshopId.trim()}`)
    }
    setWorkshopId("")
    setName("")
  })

  const blocked = locked && (!canRollout || rolloutRunning)
  return (
    <section className="stack" aria-labelledby="mod-install-title">
      <h2 id="mod-install-title">Install a mod</h2>
      <form className="card stack" onSubmit={submit} aria-label="Install a mod">
        <div className="grid">
          <label>
            Workshop id
            <input
              value={workshopId}
              onChange={(e) => setWorkshopId(e.target.value)}
              required
              inputMode="numeric"
              pattern="\d{1,20}"
              title="The number at the end of the item's workshop address (…?id=1559212036)"
              autoComplete="off"
              className="mono"
            />
          </label>
          <label>
            Folder name (optional: the mod's own name otherwise)
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} autoComplete="off" />
          </label>
          <label>
            Type
            <select value={type} onChange={(e) => setType(e.target.value as ModType)}>
              <option value="client">{TYPE_WORDS.client}</option>
              <option value="server">{TYPE_WORDS.server}</option>
            </select>
          </label>
        </div>
        {locked && (
          <>
            <p className="notice warn">
              The server is not stopped, so the mod goes on through a safe rollout: downloaded first while players play, then the server restarts with it and is
              checked, and is put back as it was if it does not run.
              {!canRollout && " That restarts the server, which needs the server.restart permission here: stop the server first, or ask someone who has it."}
              {canRollout && rolloutRunning && " A rollout is running now: wait until it ends."}
            </p>
            <label className="inline">
              <input type="checkbox" checked={now} onChange={(e) => setNow(e.target.checked)} disabled={blocked} /> Skip the warnings: restart as soon as the
              download is done
            </label>
          </>
        )}
        <div className="row">
          <SubmitButton busy={busy} busyLabel="Starting the install" disabled={blocked}>
            {locked ? "Install with a rollout" : "Install"}
          </SubmitButton>
        </div>
      </form>
    </section>
  )
}
