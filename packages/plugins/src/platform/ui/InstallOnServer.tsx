/**
 * "Install on server…" for one workshop item: the servers where the user
 * may install mods (`mods.install` there), client or server mod, then
 * `POST /api/servers/:id/mods/install` (the mods plugin). The install runs
 * as a job: with `mods.view` on that server its progress is followed from
 * `GET /api/mods/install-status` until it ends; otherwise the page says it
 * started and where to see it.
 */
import { useEffect, useId, useState } from "react"
import { Link } from "@dashboard/app/router.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { messageOf, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { InstallInput, MODS_VIEW, type ModJob, type ModType } from "../../mods/contract/Api.js"
import type { WorkshopItem } from "../contract/Api.js"
import { modsApi } from "./client.js"

export interface ServerChoice {
  readonly id: string
  readonly name: string
}

const JOB_POLL_MS = 1_500
const ENDED = new Set<ModJob["state"]>(["done", "failed", "interrupted"])

const JOB_WORDS: Readonly<Record<ModJob["state"], string>> = {
  queued: "waiting for the download before it",
  downloading: "downloading",
  installing: "copying onto the server",
  done: "installed",
  failed: "failed",
  interrupted: "interrupted by a controller restart"
}

/** The job's progress, read again until it ended. */
const JobProgress = ({ job, serverName }: { readonly job: ModJob; readonly serverName: string }) => {
  const [current, setCurrent] = useState(job)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const running = !ENDED.has(current.state)
  useEffect(() => {
    if (!running) return
    const timer = window.setInterval(async () => {
      try {
        const jobs = await modsApi((c) => c.modJobs.installStatus())
        const found = jobs.items.find((j) => j.id === job.id)
        if (found !== undefined) setCurrent(found)
        setProblem(undefined)
      } catch (error) {
        // Said once beside the job, not as a toast every poll.
        setProblem(messageOf(error))
      }
    }, JOB_POLL_MS)
    return () => window.clearInterval(timer)
  }, [job.id, running])
  return (
    <div className="stack" role="status">
      <p>
        On {serverName}: {JOB_WORDS[current.state]}
        {current.state === "downloading" && ` ${Math.round(current.percent)}%`}
        {current.state === "done" && current.mod !== null && (
          <>
            {" "}
            as <span className="mono">{current.mod.name}</span>
          </>
        )}
        {current.error !== null && `: ${current.error}`}
      </p>
      {problem !== undefined && <p className="notice warn">The progress cannot be read: {problem}</p>}
      {running && <progress value={current.percent} max={100} aria-label={`Install on ${serverName}`} />}
    </div>
  )
}

export const InstallOnServer = ({ item, servers }: { readonly item: WorkshopItem; readonly servers: ReadonlyArray<ServerChoice> }) => {
  const id = useId()
  const { me } = useSession()
  const [serverId, setServerId] = useState(servers.length === 1 ? servers[0]!.id : "")
  const [type, setType] = useState<ModType>(item.tags.some((t) => t.toLowerCase() === "server") ? "server" : "client")
  const [started, setStarted] = useState<{ readonly job: ModJob; readonly server: ServerChoice } | undefined>(undefined)
  const server = servers.find((s) => s.id === serverId)
  const { busy, submit } = useSubmit(async () => {
    if (server === undefined) throw new Error("Choose a server first")
    const job = await modsApi((c) => c.mods.install({ path: { id: server.id }, payload: new InstallInput({ workshopId: item.workshopId, type }) }))
    setStarted({ job, server })
  }, `Installing ${item.title}`)

  return (
    <div className="stack">
      <form className="row" aria-label={`Install ${item.title} on a server`} onSubmit={(e) => void submit(e)}>
        <label className="grow">
          Server
          <select value={serverId} onChange={(e) => setServerId(e.target.value)} required>
            <option value="">Choose a server…</option>
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Loaded as
          <select value={type} onChange={(e) => setType(e.target.value as ModType)} aria-describedby={`${id}-type-hint`}>
            <option value="client">client mod (-mod=)</option>
            <option value="server">server mod (-serverMod=)</option>
          </select>
        </label>
        <SubmitButton busy={busy} busyLabel="Installing" disabled={server === undefined}>
          Install
        </SubmitButton>
      </form>
      <p id={`${id}-type-hint`} className="muted">
        The server must be stopped. The mod is loaded at its next start.
      </p>
      {started !== undefined &&
        (allowed(me, MODS_VIEW, started.server.id) ? (
          <JobProgress key={started.job.id} job={started.job} serverName={started.server.name} />
        ) : (
          <p role="status">
            Install started on {started.server.name}. <Link to={`/servers/${encodeURIComponent(started.server.id)}`}>Open {started.server.name}</Link>
          </p>
        ))}
    </div>
  )
}
