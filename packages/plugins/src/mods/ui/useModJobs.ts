/**
 * One server's install and update jobs: read once from
 * `GET /api/mods/install-status`, then followed live over
 * `/api/mods/install-status/events` while one of them runs (the stream
 * itself ends when none runs, so it is opened only then). `ended` is told
 * of every job this page saw running that has since ended, so the tab can
 * read the mods again and say how it went.
 *
 * Both routes answer the jobs of every server the caller holds `mods.view`
 * on (everywhere or scoped); `enabled` false (no `mods.view` on this server)
 * asks neither and tracks nothing.
 */
import { useCallback, useEffect, useRef, useState } from "react"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { useEventStream } from "../../gamelog/ui/useEventStream.js"
import { type ModJob, ModJobs } from "../contract/Api.js"
import { modsApi } from "./client.js"
import { ACTIVE_JOB_STATES } from "./words.js"

const EVENTS_URL = "/api/mods/install-status/events"
const decodeJobs = Schema.decodeUnknownEither(ModJobs)

export interface ModJobsView {
  /** The server's jobs, newest first: running ones and those that ended in the last hour. */
  readonly jobs: ReadonlyArray<ModJob>
  readonly running: boolean
  /** A job the page just started (the 202's body): shown at once, and followed. */
  readonly track: (started: ReadonlyArray<ModJob>) => void
}

export const useModJobs = (serverId: string, enabled: boolean, ended: (job: ModJob) => void): ModJobsView => {
  const [jobs, setJobs] = useState<ReadonlyArray<ModJob>>([])
  const current = useRef<ReadonlyArray<ModJob>>([])
  const active = useRef(new Set<string>())
  const endedRef = useRef(ended)
  endedRef.current = ended

  const take = useCallback(
    (all: ReadonlyArray<ModJob>) => {
      const mine = all.filter((job) => job.serverId === serverId)
      for (const job of mine) {
        if (ACTIVE_JOB_STATES.has(job.state)) active.current.add(job.id)
        else if (active.current.delete(job.id)) endedRef.current(job)
      }
      current.current = mine
      setJobs(mine)
    },
    [serverId]
  )

  useEffect(() => {
    active.current = new Set()
    current.current = []
    setJobs([])
    if (!enabled) return
    let stale = false
    // A failed first read leaves the panel empty: the stream (opened by a job the page starts) fills it.
    modsApi((c) => c.modJobs.installStatus()).then(
      (page) => stale || take(page.items),
      () => undefined
    )
    return () => {
      stale = true
    }
  }, [serverId, enabled, take])

  const running = jobs.some((job) => ACTIVE_JOB_STATES.has(job.state))
  useEventStream<unknown>(running ? EVENTS_URL : undefined, "jobs", (data) => {
    const decoded = decodeJobs(data)
    if (Either.isRight(decoded)) take(decoded.right.items)
  })

  const track = useCallback(
    (started: ReadonlyArray<ModJob>) => {
      if (!enabled) return
      const ids = new Set(started.map((job) => job.id))
      // Followed from now on, so its end is reported even when the answer already says it ended.
      for (const id of ids) active.current.add(id)
      take([...started, ...current.current.filter((job) => !ids.has(job.id))])
    },
    [enabled, take]
  )

  return { jobs, running, track }
}
