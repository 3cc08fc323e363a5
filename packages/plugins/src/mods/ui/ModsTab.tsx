/**
 * A server's Mods tab: the installed mods in load order (type, order,
 * enabling, pinning, updates, uninstall), the downloads with their live
 * progress, the install form, and the safe rollout (its live status, the
 * form that starts one, its policy). Reading needs `mods.view` on the
 * server; every change `mods.install`; a rollout also `server.restart`.
 */
import { useMemo } from "react"
import { api } from "@dashboard/api/client.js"
import { useCan } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, useFeedback } from "@dashboard/ui/feedback.js"
import type { RolloutStatus } from "../../rollout/contract/Api.js"
import { RolloutSection } from "../../rollout/ui/RolloutSection.js"
import { useRollout } from "../../rollout/ui/useRollout.js"
import { sentence } from "../../rollout/ui/words.js"
import type { ModJob, ModList } from "../contract/Api.js"
import { modsApi } from "./client.js"
import { InstallForm } from "./InstallForm.js"
import { ModJobsPanel } from "./ModJobsPanel.js"
import { ModTable } from "./ModTable.js"
import { useModJobs } from "./useModJobs.js"
import { filesLocked, JOB_STATE_WORDS, jobLabel, modLabel, MODS_INSTALL, MODS_VIEW, SERVER_RESTART } from "./words.js"

/** The server's state decides whether files may change (stopped) or changes go through a rollout. */
const SERVER_POLL_MS = 5000

const LaunchLine = ({ list }: { readonly list: ModList }) => (
  <dl className="kv">
    <dt>Client mods (-mod=)</dt>
    <dd className="mono break-anywhere">{list.launch.mod === "" ? "none" : list.launch.mod}</dd>
    <dt>Server mods (-serverMod=)</dt>
    <dd className="mono break-anywhere">{list.launch.serverMod === "" ? "none" : list.launch.serverMod}</dd>
  </dl>
)

const rolloutEndedText = (status: RolloutStatus): string =>
  status.state === "done"
    ? `Rollout done. ${sentence(status.message)}`
    : status.state === "rolled-back"
      ? `Rollout rolled back. Why: ${sentence(status.error ?? status.message)}`
      : `Rollout ${status.state}. ${sentence(status.error ?? status.message)}`

const ModsTab = ({ serverId }: { readonly serverId: string }) => {
  const can = useCan()
  const feedback = useFeedback()
  const canInstall = can(MODS_INSTALL, serverId)
  const canRollout = canInstall && can(SERVER_RESTART, serverId)

  const list = useResource(() => modsApi((c) => c.mods.list({ path: { id: serverId } })), [serverId])
  const server = useResource(() => api((c) => c.servers.status({ path: { id: serverId } })), [serverId], { pollMs: SERVER_POLL_MS })
  const serverStatus = server.data?.status
  const locked = filesLocked(serverStatus)
  const titles = useMemo(() => new Map((list.data?.items ?? []).map((mod) => [mod.workshopId, modLabel(mod)])), [list.data])

  // The jobs' routes answer the jobs of the servers the caller holds `mods.view` on, scoped grants included.
  const jobs = useModJobs(serverId, can(MODS_VIEW, serverId), (job: ModJob) => {
    void list.reload()
    const label = jobLabel(job, titles)
    if (job.state === "done") feedback.ok(`${label} done`)
    else feedback.error(`${label} ${job.state}: ${job.error ?? JOB_STATE_WORDS[job.state]}`)
  })
  const rollout = useRollout(serverId, (status) => {
    void list.reload()
    if (status.state === "done") feedback.ok(rolloutEndedText(status))
    else feedback.error(rolloutEndedText(status))
  })
  /** Jobs just started: followed live. */
  const started = (startedJobs: ReadonlyArray<ModJob>) => jobs.track(startedJobs)

  const checkUpdates = async () => {
    const check = await modsApi((c) => c.mods.checkUpdates({ path: { id: serverId } }))
    await list.reload()
    const found = check.pending.length === 0 ? "all up to date" : `${check.pending.length} with a newer version: ${check.pending.map(modLabel).join(", ")}`
    const missing = check.missing.length === 0 ? "" : `; no longer on the workshop: ${check.missing.join(", ")}`
    feedback.ok(`Checked ${check.checked} mod(s): ${found}${missing}`)
  }
  const updateAll = async () => {
    const updates = await modsApi((c) => c.mods.updateAll({ path: { id: serverId } }))
    started(updates.jobs)
    feedback.ok(updates.jobs.length === 0 ? "Nothing to update (pinned and held-back mods are left)" : `Updating ${updates.jobs.length} mod(s)`)
  }
  const pending = (list.data?.items ?? []).filter((mod) => mod.pendingUpdate !== null && !mod.pinned).length

  return (
    <div className="stack">
      <section className="stack" aria-labelledby="mods-title">
        <div className="row">
          <h2 id="mods-title" className="grow">
            Installed mods
          </h2>
          {canInstall && (
            <div className="row" role="toolbar" aria-label="Mod updates">
              <ActionButton run={checkUpdates}>Check for updates</ActionButton>
              <ActionButton
                run={updateAll}
                disabled={locked || pending === 0}
                title={locked ? "The server is not stopped: roll the updates out below" : pending === 0 ? "No mod has an update waiting" : undefined}
              >
                Update all{pending > 0 && ` (${pending})`}
              </ActionButton>
            </div>
          )}
        </div>
        {canInstall && locked && (
          <p className="notice warn">
            The server is {serverStatus}: installs, updates and uninstalls wait until it is stopped, or go on through a safe rollout below. Order, types and
            enabling apply at its next start.
          </p>
        )}
        <Loaded resource={list}>
          {(mods) => (
            <>
              <ModTable
                list={mods}
                setList={(next) => list.set(() => next)}
                serverId={serverId}
                canInstall={canInstall}
                locked={locked}
                reload={list.reload}
                updating={(job) => started([job])}
              />
              <h3>Launch parameters (from the next start)</h3>
              <LaunchLine list={mods} />
            </>
          )}
        </Loaded>
      </section>
      <ModJobsPanel jobs={jobs.jobs} titles={titles} />
      {canInstall && (
        <InstallForm
          serverId={serverId}
          locked={locked}
          canRollout={canRollout}
          rolloutRunning={rollout.running}
          installing={(job) => started([job])}
          rolloutStarted={rollout.started}
        />
      )}
      <RolloutSection
        serverId={serverId}
        rollout={rollout}
        mods={list.data?.items}
        serverRunning={locked}
        canStart={canRollout}
        canEditPolicy={canInstall}
      />
    </div>
  )
}

export default ModsTab
