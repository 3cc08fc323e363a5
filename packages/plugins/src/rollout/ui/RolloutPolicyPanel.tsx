/**
 * The server's rollout policy: when players are warned and with which
 * words, the kick message, the lock, and how long the new version must run
 * to count as healthy. Shown to whoever sees the tab; changed by
 * `mods.install`. A refused value is named under its field (checked here
 * against the contract's own schema, and by the API).
 */
import { type ReactNode, useState } from "react"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ApiError } from "@dashboard/api/client.js"
import { Loaded, type Resource } from "@dashboard/ui/data.js"
import { Spinner, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { MAX_WARNING_MINUTES, MAX_WARNINGS, RolloutPolicy } from "../contract/Api.js"
import { rolloutApi } from "./client.js"
import { minutesList } from "./words.js"

const decodePolicy = Schema.decodeUnknownEither(RolloutPolicy)
type Field = "warnings" | "warningMessage" | "kickMessage" | "checkWindowSeconds"

/** Each refused field's first message, by the field (the first segment of the issue's path). */
const problemsOf = (issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>): Partial<Record<Field, string>> => {
  const found: Partial<Record<Field, string>> = {}
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "") as Field
    found[field] ??= issue.message
  }
  return found
}

const PolicyForm = ({ serverId, policy, saved, cancel }: { readonly serverId: string; readonly policy: RolloutPolicy; readonly saved: (p: RolloutPolicy) => void; readonly cancel: () => void }) => {
  const [warnings, setWarnings] = useState(policy.warnings.join(", "))
  const [warningMessage, setWarningMessage] = useState(policy.warningMessage)
  const [kickMessage, setKickMessage] = useState(policy.kickMessage)
  const [lock, setLock] = useState(policy.lock)
  const [checkWindow, setCheckWindow] = useState(String(policy.checkWindowSeconds))
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({})

  const { busy, submit } = useSubmit(async () => {
    const tokens = warnings.split(/[\s,]+/).filter((t) => t !== "")
    if (tokens.some((t) => !/^\d+$/.test(t))) {
      setProblems({ warnings: "whole minutes, separated by commas (15, 5, 1)" })
      return
    }
    const decoded = decodePolicy({ warnings: tokens.map(Number), warningMessage, kickMessage, lock, checkWindowSeconds: Number(checkWindow) })
    if (Either.isLeft(decoded)) {
      setProblems(problemsOf(ParseResult.ArrayFormatter.formatErrorSync(decoded.left)))
      return
    }
    setProblems({})
    try {
      saved(await rolloutApi((c) => c.rollout.setPolicy({ path: { id: serverId }, payload: decoded.right })))
    } catch (error) {
      // A field the API refused goes under it; anything else is the toast.
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setProblems(problemsOf(Object.entries(error.fields).map(([path, message]) => ({ path: path.split("."), message }))))
      }
      throw error
    }
  }, "Rollout policy saved")

  /** The input's hint and problem, outside its label (so they describe it rather than name it). */
  const field = (name: Field, label: string, input: (a11y: { "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode, hint?: ReactNode) => {
    const ids = [hint === undefined ? undefined : `policy-${name}-hint`, problems[name] === undefined ? undefined : `policy-${name}-problem`].filter((id) => id !== undefined)
    return (
      <div className="stack policy-field">
        <label>
          {label}
          {input({ "aria-invalid": problems[name] !== undefined, ...(ids.length === 0 ? {} : { "aria-describedby": ids.join(" ") }) })}
        </label>
        {hint !== undefined && (
          <span id={`policy-${name}-hint`} className="muted">
            {hint}
          </span>
        )}
        {problems[name] !== undefined && (
          <span id={`policy-${name}-problem`} className="field-problem" role="alert">
            {problems[name]}
          </span>
        )}
      </div>
    )
  }
  return (
    <form className="card stack" onSubmit={submit} aria-label="Change the rollout policy" noValidate>
      {field(
        "warnings",
        "Warn players at (minutes before the restart, comma-separated; empty: no warnings)",
        (a11y) => <input value={warnings} onChange={(e) => setWarnings(e.target.value)} inputMode="numeric" autoComplete="off" {...a11y} />,
        `At most ${MAX_WARNINGS}, each 1 to ${MAX_WARNING_MINUTES} minutes.`
      )}
      {field(
        "warningMessage",
        "Warning message",
        (a11y) => <input value={warningMessage} onChange={(e) => setWarningMessage(e.target.value)} maxLength={400} {...a11y} />,
        "{minutes} is replaced by the minutes left."
      )}
      {field("kickMessage", "Kick message", (a11y) => <input value={kickMessage} onChange={(e) => setKickMessage(e.target.value)} maxLength={400} {...a11y} />)}
      <label className="inline">
        <input type="checkbox" checked={lock} onChange={(e) => setLock(e.target.checked)} /> Lock the server to new players before kicking
      </label>
      {field("checkWindowSeconds", "Check window in seconds (how long the new version must run and answer, 10 to 3600)", (a11y) => (
        <input type="number" inputMode="numeric" min={10} max={3600} step={1} value={checkWindow} onChange={(e) => setCheckWindow(e.target.value)} {...a11y} />
      ))}
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving">
          Save rollout policy
        </SubmitButton>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export const RolloutPolicyPanel = ({ serverId, policy, canEdit }: { readonly serverId: string; readonly policy: Resource<RolloutPolicy>; readonly canEdit: boolean }) => {
  const [editing, setEditing] = useState(false)
  return (
    <section className="stack" aria-labelledby="rollout-policy-title">
      <h3 id="rollout-policy-title">Rollout policy</h3>
      {/* The mods list has the page's `.loading` block: a quieter spinner here. */}
      {policy.data === undefined && policy.error === undefined ? (
        <p className="muted">
          <Spinner label="Loading the rollout policy" /> Loading…
        </p>
      ) : (
        <Loaded resource={policy}>
          {(p) =>
            editing ? (
              <PolicyForm
                serverId={serverId}
                policy={p}
                saved={(next) => {
                  policy.set(() => next)
                  setEditing(false)
                }}
                cancel={() => setEditing(false)}
              />
            ) : (
              <>
                <dl className="kv card">
                  <dt>Warnings</dt>
                  <dd>{p.warnings.length === 0 ? "none" : `${minutesList([...p.warnings].sort((a, b) => b - a))} before the restart`}</dd>
                  <dt>Warning message</dt>
                  <dd>{p.warningMessage}</dd>
                  <dt>Kick message</dt>
                  <dd>{p.kickMessage}</dd>
                  <dt>Lock first</dt>
                  <dd>{p.lock ? "yes: no one new joins while it restarts" : "no"}</dd>
                  <dt>Check window</dt>
                  <dd>{p.checkWindowSeconds} seconds</dd>
                </dl>
                {canEdit && (
                  <div>
                    <button type="button" onClick={() => setEditing(true)}>
                      Change the rollout policy
                    </button>
                  </div>
                )}
              </>
            )
          }
        </Loaded>
      )}
    </section>
  )
}
