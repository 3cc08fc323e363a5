/** A server's scheduled jobs: list with next run and last result, create, edit, toggle, delete. */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { JOB_KINDS, JobInput, type JobKind, type ScheduledJob, SCHEDULE_PERMISSION, WARNING_KINDS } from "../contract/Api.js"

const JobForm = ({ serverId, job, saved, cancel }: { readonly serverId: string; readonly job?: ScheduledJob; readonly saved: () => Promise<void>; readonly cancel?: () => void }) => {
  const [kind, setKind] = useState<JobKind>(job?.kind ?? "restart")
  const [cron, setCron] = useState(job?.cron ?? "0 4 * * *")
  const [timeZone, setTimeZone] = useState(job?.timeZone ?? "UTC")
  const [warnings, setWarnings] = useState(job?.warnings.join(", ") ?? "15, 5, 1")
  const [text, setText] = useState(job?.message ?? job?.command ?? "")
  const [reason, setReason] = useState(job?.reason ?? "")
  const [enabled, setEnabled] = useState(job?.enabled ?? true)
  const { busy, submit } = useSubmit(async () => {
    const input = new JobInput({
      kind,
      cron,
      timeZone,
      warnings: WARNING_KINDS.includes(kind)
        ? warnings
            .split(",")
            .map((w) => w.trim())
            .filter((w) => w !== "")
            .map(Number)
        : [],
      ...(kind === "rcon" ? { command: text } : text !== "" ? { message: text } : {}),
      ...(kind === "kick-all" && reason !== "" ? { reason } : {}),
      enabled
    })
    if (job === undefined) await api((c) => c.scheduler.create({ path: { id: serverId }, payload: input }))
    else await api((c) => c.scheduler.replace({ path: { id: serverId, jobId: job.id }, payload: input }))
    await saved()
  }, job === undefined ? "Job created" : "Job saved")
  return (
    <form className="card stack" onSubmit={submit} aria-label={job === undefined ? "New job" : `Edit job ${job.id}`}>
      <div className="grid">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as JobKind)}>
            {JOB_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          Cron expression (minute hour day month weekday)
          <input value={cron} onChange={(e) => setCron(e.target.value)} required className="mono" />
        </label>
        <label>
          Time zone
          <input value={timeZone} onChange={(e) => setTimeZone(e.target.value)} />
        </label>
        {WARNING_KINDS.includes(kind) && (
          <label>
            Warnings (minutes before, comma-separated)
            <input value={warnings} onChange={(e) => setWarnings(e.target.value)} />
          </label>
        )}
        <label>
          {kind === "rcon" ? "RCON command" : kind === "message" ? "Message" : "Warning text ({minutes} is replaced; empty: default)"}
          <input value={text} onChange={(e) => setText(e.target.value)} required={kind === "rcon" || kind === "message"} maxLength={400} />
        </label>
        {kind === "kick-all" && (
          <label>
            Kick reason
            <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={400} />
          </label>
        )}
      </div>
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving">{job === undefined ? "Create job" : "Save job"}</SubmitButton>
        {cancel !== undefined && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}

const SchedulerTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const canEdit = allowed(me, SCHEDULE_PERMISSION, serverId)
  const jobs = useResource(() => api((c) => c.scheduler.list({ path: { id: serverId }, urlParams: {} })), [serverId], { pollMs: 15000 })
  const [editing, setEditing] = useState<string | undefined>()
  const [adding, setAdding] = useState(false)
  return (
    <div className="stack">
      <Loaded resource={jobs}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="notice">No scheduled jobs.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Scheduled jobs</caption>
                <thead>
                  <tr>
                    <th scope="col">Job</th>
                    <th scope="col">Schedule</th>
                    <th scope="col">Next run</th>
                    <th scope="col" className="hide-narrow">Last run</th>
                    {canEdit && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((job) =>
                    editing === job.id ? (
                      <tr key={job.id}>
                        <td colSpan={5}>
                          <JobForm serverId={serverId} job={job} saved={async () => (setEditing(undefined), await jobs.reload())} cancel={() => setEditing(undefined)} />
                        </td>
                      </tr>
                    ) : (
                      <tr key={job.id}>
                        <td>
                          <strong>{job.kind}</strong> {!job.enabled && <span className="badge">disabled</span>}
                          <div className="muted">{job.command ?? job.message ?? ""}</div>
                        </td>
                        <td>
                          <code>{job.cron}</code> {job.timeZone}
                          {job.warnings.length > 0 && <div className="muted">warnings {job.warnings.join(", ")} min before</div>}
                        </td>
                        <td>{formatTime(job.nextRunAt)}</td>
                        <td className="hide-narrow">
                          {formatTime(job.lastRunAt)}
                          <div className="muted">{job.lastResult ?? ""}</div>
                        </td>
                        {canEdit && (
                          <td>
                            <div className="row">
                              <ActionButton run={() => api((c) => c.scheduler.toggle({ path: { id: serverId, jobId: job.id } })).then(() => jobs.reload())}>
                                {job.enabled ? "Disable" : "Enable"}
                              </ActionButton>
                              <button type="button" onClick={() => setEditing(job.id)}>
                                Edit
                              </button>
                              <ActionButton
                                className="danger"
                                run={() => api((c) => c.scheduler.remove({ path: { id: serverId, jobId: job.id } })).then(() => jobs.reload())}
                                confirm={{ title: `Delete this ${job.kind} job?`, confirmLabel: "Delete", danger: true }}
                                done="Job deleted"
                              >
                                Delete
                              </ActionButton>
                            </div>
                          </td>
                        )}
                      </tr>
                    )
                  )}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {canEdit &&
        (adding ? (
          <JobForm serverId={serverId} saved={async () => (setAdding(false), await jobs.reload())} cancel={() => setAdding(false)} />
        ) : (
          <div>
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              New job
            </button>
          </div>
        ))}
    </div>
  )
}

export default SchedulerTab
