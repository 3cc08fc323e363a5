/**
 * The server's last (or running) rollout in plain words: what it does now,
 * when the restart comes and which warnings went out, how it ended, and
 * for a rollback why it was rolled back and whether the server runs again.
 * Its step-by-step log folds out below. Only the running rollout is a live
 * region: how one ended is announced by the tab's toast, not again each
 * time the page is opened.
 */
import { formatTime } from "@dashboard/ui/data.js"
import { Spinner } from "@dashboard/ui/feedback.js"
import type { RolloutStatus } from "../contract/Api.js"
import { minutesList, phaseWords, sentence, STATE_WORDS } from "./words.js"

const Outcome = ({ status }: { readonly status: RolloutStatus }) => {
  const when = formatTime(status.endedAt)
  switch (status.state) {
    case "idle":
      return <p className="muted">No rollout has run on this server since the controller started.</p>
    case "running":
      return (
        <div className="notice" role="status">
          <p>
            <Spinner label="Rollout running" /> <strong>{phaseWords(status.phase)}</strong>
            {status.message !== "" && <>: {status.message}</>}
          </p>
          {status.restartAt !== null && <p>The server restarts at {formatTime(status.restartAt)}.</p>}
          {status.warningsSent.length > 0 && <p>Players were warned {minutesList(status.warningsSent)} before the restart.</p>}
        </div>
      )
    case "done":
      return (
        <p className="notice ok">
          Rollout done {when}. {sentence(status.message)}
        </p>
      )
    case "rolled-back":
      return (
        <div className="notice error">
          <p>
            <strong>Rolled back {when}.</strong> Why: {sentence(status.error ?? "the server was not healthy on the new versions")}
          </p>
          <p>{sentence(status.message)}</p>
          <p>The version that failed is held back: rollouts and Update all skip that mod until the workshop has a newer version.</p>
        </div>
      )
    case "failed":
      return (
        <p className="notice error">
          Rollout failed {when}. {sentence(status.error ?? status.message)}
        </p>
      )
    case "cancelled":
      return (
        <p className="notice warn">
          Rollout cancelled {when}. {sentence(status.error ?? "the server was stopped")}
        </p>
      )
  }
}

export const RolloutStatusView = ({ status }: { readonly status: RolloutStatus }) => (
  <div className="stack">
    <Outcome status={status} />
    {status.state !== "idle" && (
      <dl className="kv">
        <dt>State</dt>
        <dd>
          <span className={`badge rollout-${status.state}`}>{STATE_WORDS[status.state]}</span>
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(status.startedAt)}</dd>
        {status.endedAt !== null && (
          <>
            <dt>Ended</dt>
            <dd>{formatTime(status.endedAt)}</dd>
          </>
        )}
        <dt>What it puts on</dt>
        <dd>
          {status.mods.length === 0 && !status.server ? (
            "nothing"
          ) : (
            <ul className="plain">
              {status.mods.map((mod) => (
                <li key={mod.workshopId}>
                  {mod.install ? "installs" : "updates"} <span className="mono">{mod.name}</span>
                  {mod.version !== null && <span className="muted"> (published {formatTime(mod.version)})</span>}
                </li>
              ))}
              {status.server && <li>updates the game server</li>}
            </ul>
          )}
        </dd>
      </dl>
    )}
    {status.log.length > 0 && (
      <details>
        <summary>What happened, step by step (times in UTC)</summary>
        <ol className="plain mono rollout-log">
          {status.log.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ol>
      </details>
    )}
  </div>
)
