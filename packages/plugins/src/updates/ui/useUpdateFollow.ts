/**
 * A server's update status, kept current: read with `GET .../update/status`
 * (again every 10 s while nothing runs, since a rollout, a schedule or
 * another admin may start one), and followed live through
 * `.../update/events` while an update runs. The stream ends with the
 * update, so it is opened only while the status says `running`. SteamCMD's
 * lines are gathered into a log as they arrive; a progress line replaces
 * the progress line before it, as SteamCMD's own terminal shows them.
 */
import { useEffect, useRef, useState } from "react"
import { useResource } from "@dashboard/ui/data.js"
import { type StreamState, useEventStream } from "../../gamelog/ui/useEventStream.js"
import { updateEventsUrl, updatesApi, type UpdateStatusView } from "./client.js"

const IDLE_POLL_MS = 10_000
/** Lines kept in the page (the oldest go first). */
const MAX_LOG_LINES = 200
const PROGRESS_LINE = /^Update state \(0x[0-9a-f]+\)/i

export interface UpdateFollow {
  readonly status: UpdateStatusView | undefined
  /** Why the status could not be read (shown by the page). */
  readonly error: unknown
  /** SteamCMD's lines of the current (or last followed) run, oldest first. */
  readonly log: ReadonlyArray<string>
  /** The live stream's state while an update runs; undefined when nothing is followed. */
  readonly stream: StreamState | undefined
  /** A status the page got from an answer (the 202 of update or rebuild, the cancel's). */
  readonly accept: (status: UpdateStatusView) => void
}

const withLine = (log: ReadonlyArray<string>, line: string): ReadonlyArray<string> => {
  if (line === "" || log.at(-1) === line) return log
  const last = log.at(-1)
  const kept = last !== undefined && PROGRESS_LINE.test(last) && PROGRESS_LINE.test(line) ? log.slice(0, -1) : log
  return [...kept, line].slice(-MAX_LOG_LINES)
}

export const useUpdateFollow = (serverId: string): UpdateFollow => {
  // While an update runs the stream keeps the status current: the poll answers what it holds.
  const held = useRef<UpdateStatusView | undefined>(undefined)
  const resource = useResource(
    async (): Promise<UpdateStatusView> => {
      const last = held.current
      if (last !== undefined && last.serverId === serverId && last.state === "running") return last
      return await updatesApi((c) => c.serverUpdates.status({ path: { id: serverId } }))
    },
    [serverId],
    { pollMs: IDLE_POLL_MS }
  )
  const status = resource.data
  held.current = status

  const [log, setLog] = useState<ReadonlyArray<string>>([])
  const run = useRef<string | undefined>(undefined)
  /** Adds the status's line to the log (each one, even when several arrive before the page renders); a new run starts a new log. */
  const note = (next: UpdateStatusView) => {
    const thisRun = `${next.serverId}|${next.startedAt ?? ""}`
    if (run.current !== thisRun) {
      run.current = thisRun
      setLog(next.lastLine === "" ? [] : [next.lastLine])
    } else {
      setLog((lines) => withLine(lines, next.lastLine))
    }
  }
  useEffect(() => {
    if (status !== undefined) note(status)
  }, [status])

  const accept = (next: UpdateStatusView) => {
    note(next)
    resource.set(() => next)
  }
  const running = status?.state === "running"
  const stream = useEventStream<UpdateStatusView>(running ? updateEventsUrl(serverId) : undefined, "status", (next) => {
    if (next.serverId === serverId) accept(next)
  })

  return { status, error: resource.error, log, stream: running ? stream : undefined, accept }
}
