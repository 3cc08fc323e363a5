/** The server's downloads: each running install or update with its progress, and those that ended in the last hour. */
import { formatBytes, formatTime } from "@dashboard/ui/data.js"
import type { ModJob } from "../contract/Api.js"
import { ACTIVE_JOB_STATES, JOB_STATE_WORDS, jobLabel } from "./words.js"

/** Finished jobs shown below the running ones (the API keeps an hour of them). */
const RECENT_SHOWN = 5

const Running = ({ job, label }: { readonly job: ModJob; readonly label: string }) => (
  <li className="stack">
    <p>
      <strong>{label}</strong>: {JOB_STATE_WORDS[job.state]}, {Math.round(job.percent)}%
      {job.totalBytes !== null && job.totalBytes > 0 && ` (${formatBytes(job.bytes)} of ${formatBytes(job.totalBytes)})`}
    </p>
    <progress value={job.percent} max={100} aria-label={`${label} progress`} />
    {job.message !== "" && <p className="muted mono break-anywhere">{job.message}</p>}
  </li>
)

const Ended = ({ job, label }: { readonly job: ModJob; readonly label: string }) => (
  <li>
    <span className={job.state === "done" ? "badge status-running" : "badge status-crashed"}>{job.state === "done" ? "done" : job.state}</span> {label}{" "}
    <span className="muted">{formatTime(job.endedAt ?? job.startedAt)}</span>
    {job.state === "done" && job.mod !== null && <span className="mono"> as {job.mod.name}</span>}
    {job.state !== "done" && <span>: {job.error ?? JOB_STATE_WORDS[job.state]}</span>}
  </li>
)

export const ModJobsPanel = ({ jobs, titles }: { readonly jobs: ReadonlyArray<ModJob>; readonly titles: ReadonlyMap<string, string> }) => {
  if (jobs.length === 0) return null
  const running = jobs.filter((job) => ACTIVE_JOB_STATES.has(job.state))
  const recent = jobs.filter((job) => !ACTIVE_JOB_STATES.has(job.state)).slice(0, RECENT_SHOWN)
  return (
    <section className="stack" aria-labelledby="mod-jobs-title">
      <h2 id="mod-jobs-title">Downloads</h2>
      {running.length > 0 && (
        <div className="notice" role="status">
          <ul className="plain stack">
            {running.map((job) => (
              <Running key={job.id} job={job} label={jobLabel(job, titles)} />
            ))}
          </ul>
        </div>
      )}
      {recent.length > 0 && (
        <ul className="plain stack" aria-label="Downloads that ended in the last hour">
          {recent.map((job) => (
            <Ended key={job.id} job={job} label={jobLabel(job, titles)} />
          ))}
        </ul>
      )}
    </section>
  )
}
