/**
 * One update's progress, or how it ended: SteamCMD's stage in words, the
 * percent as a labelled `<progress>` with the bytes, whether the live
 * stream is connected, and SteamCMD's lines as a log.
 */
import { useEffect, useId, useRef } from "react"
import { formatBytes, formatTime } from "@dashboard/ui/data.js"
import { Spinner } from "@dashboard/ui/feedback.js"
import type { StreamState } from "../../gamelog/ui/useEventStream.js"
import type { UpdateStatusView } from "./client.js"
import { endedLabel, kindLabel, phaseLabel } from "./words.js"

const STREAM_WORDS: Readonly<Record<StreamState, string>> = {
  connecting: "Connecting to the live progress…",
  live: "Live",
  reconnecting: "Connection lost, reconnecting…"
}

const Bytes = ({ status }: { readonly status: UpdateStatusView }) =>
  status.totalBytes === null || status.totalBytes === 0 ? null : (
    <span>
      {" "}
      ({formatBytes(status.bytes)} of {formatBytes(status.totalBytes)})
    </span>
  )

export const UpdateProgress = ({
  status,
  log,
  stream
}: {
  readonly status: UpdateStatusView
  readonly log: ReadonlyArray<string>
  readonly stream: StreamState | undefined
}) => {
  const id = useId()
  const label = kindLabel(status.kind)
  const running = status.state === "running"
  const percent = Math.round(status.percent)
  // The newest line in view, as in SteamCMD's own terminal.
  const logView = useRef<HTMLPreElement>(null)
  useEffect(() => {
    if (logView.current !== null) logView.current.scrollTop = logView.current.scrollHeight
  }, [log])
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <div className="row">
        <h2 id={`${id}-title`} className="grow">
          {label} {endedLabel(status.state)}
        </h2>
        {stream !== undefined && (
          <span className={stream === "live" ? "badge status-running" : "badge status-starting"}>
            {stream !== "live" && <Spinner label={STREAM_WORDS[stream]} />}
            {STREAM_WORDS[stream]}
          </span>
        )}
      </div>
      <div className="stack update-progress">
        <label htmlFor={`${id}-bar`}>
          <span>
            {phaseLabel(status.phase)}: {percent}%
            <Bytes status={status} />
          </span>
        </label>
        <progress id={`${id}-bar`} value={status.percent} max={100}>
          {percent}%
        </progress>
      </div>
      <p className="muted">
        Started {formatTime(status.startedAt)}
        {!running && status.endedAt !== null && <>, ended {formatTime(status.endedAt)}</>}
      </p>
      {status.error !== null && <p className="notice error">{status.error}</p>}
      {log.length > 0 && (
        <pre ref={logView} className="log-view update-log" role="log" aria-label="SteamCMD output" tabIndex={0}>
          {log.join("\n")}
        </pre>
      )}
    </section>
  )
}
