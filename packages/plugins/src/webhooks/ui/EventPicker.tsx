/**
 * The event picker of the webhook form, built from `GET /api/webhooks/events`:
 * the published events grouped by their name's first word (`server`,
 * `player`, `backup`, ...), each with its description, the severities it can have and an
 * example payload to unfold. An event is chosen by name, a whole group as
 * `group.*`, or everything as `*`; a broader choice takes the narrower ones
 * it covers in. Each chosen subscription may keep only some severities.
 */
import { type ReactNode, useId, useState } from "react"
import { EVENT_SEVERITIES, type EventSubscription, type WebhookEventType } from "../contract/Api.js"

export type Severity = (typeof EVENT_SEVERITIES)[number]
export type Subscription = EventSubscription

/** The subscription's pattern takes the event name (the API's rule: the name, `*`, or a prefix ending in `.*`). */
export const patternTakes = (pattern: string, name: string): boolean =>
  pattern === "*" || pattern === name || (pattern.endsWith(".*") && name.startsWith(pattern.slice(0, -1)))

/** What the API accepts as a pattern: `*`, a dotted name, or leading words then `.*`. */
const PATTERN = /^(\*|[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*\.\*|[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+)$/

export const groupOf = (name: string): string => name.split(".")[0] ?? name

/** The events by their name's first word, in the order the API lists them. */
export const groupEvents = (events: ReadonlyArray<WebhookEventType>): ReadonlyArray<readonly [string, ReadonlyArray<WebhookEventType>]> => {
  const groups = new Map<string, Array<WebhookEventType>>()
  for (const event of events) {
    const group = groupOf(event.name)
    const list = groups.get(group)
    if (list === undefined) groups.set(group, [event])
    else list.push(event)
  }
  return [...groups.entries()]
}

/** The severity badge's colour: the servers' status classes (green, amber, red). */
export const SEVERITY_CLASSES: Record<Severity, string> = {
  info: "",
  success: "status-running",
  warning: "status-starting",
  error: "status-crashed"
}

/** What severities an event can have: one badge each, or "any severity" when it can have every one. */
export const SeverityBadges = ({ severities }: { readonly severities: ReadonlyArray<Severity> }) =>
  severities.length === EVENT_SEVERITIES.length ? (
    <span className="badge">any severity</span>
  ) : (
    <>
      {severities.map((severity, i) => (
        <span key={severity}>
          {i > 0 && " or "}
          <span className={`badge ${SEVERITY_CLASSES[severity]}`}>{severity}</span>
        </span>
      ))}
    </>
  )

/** `server.*, player.ban (warning, error)`. */
export const describeSubscriptions = (subscriptions: ReadonlyArray<Subscription>): string =>
  subscriptions
    .map((s) => (s.pattern === "*" ? "every event" : s.pattern) + (s.severities === null ? "" : ` (${s.severities.join(", ")})`))
    .join(", ")

/** A description, its `backticked` words as code. */
const Described = ({ text }: { readonly text: string }) => (
  <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>
)

export const EventPicker = ({
  events,
  value,
  onChange
}: {
  readonly events: ReadonlyArray<WebhookEventType>
  readonly value: ReadonlyArray<Subscription>
  readonly onChange: (next: ReadonlyArray<Subscription>) => void
}) => {
  const id = useId()
  const [other, setOther] = useState("")
  // Groups whose events were chosen one by one start unfolded (an edit); the others folded, to keep the form short.
  const [openAtFirst] = useState(() => new Set(value.filter((s) => !s.pattern.endsWith("*")).map((s) => groupOf(s.pattern))))
  const groups = groupEvents(events)
  const chosen = (pattern: string) => value.some((s) => s.pattern === pattern)
  /** The chosen pattern, broader than `pattern`, that already takes it. */
  const coveredBy = (pattern: string): string | undefined =>
    value.find((s) => s.pattern !== pattern && s.pattern.endsWith("*") && (patternTakes(s.pattern, pattern) || (pattern.endsWith(".*") && patternTakes(s.pattern, pattern.slice(0, -2)))))
      ?.pattern

  const choose = (pattern: string, on: boolean) => {
    if (!on) return onChange(value.filter((s) => s.pattern !== pattern))
    if (chosen(pattern)) return
    // A broader pattern takes in the narrower ones chosen before.
    const kept = pattern.endsWith("*")
      ? value.filter((s) => !(patternTakes(pattern, s.pattern) || (s.pattern.endsWith(".*") && patternTakes(pattern, s.pattern.slice(0, -2)))))
      : value
    onChange([...kept, { pattern, severities: null }])
  }
  const setSeverity = (pattern: string, severity: Severity, on: boolean) =>
    onChange(
      value.map((s) => {
        if (s.pattern !== pattern) return s
        const current = new Set(s.severities ?? [])
        if (on) current.add(severity)
        else current.delete(severity)
        const severities = EVENT_SEVERITIES.filter((x) => current.has(x))
        return { pattern, severities: severities.length === 0 ? null : severities }
      })
    )
  const otherProblem = other === "" || PATTERN.test(other) ? undefined : "An event name (server.started), its first words and .* (server.*), or *"

  const checkbox = (pattern: string, label: ReactNode, extra?: string) => {
    const by = coveredBy(pattern)
    return (
      <label className="inline">
        <input
          type="checkbox"
          checked={by !== undefined || chosen(pattern)}
          disabled={by !== undefined}
          onChange={(e) => choose(pattern, e.target.checked)}
          aria-describedby={extra}
        />
        <span>
          {label}
          {by !== undefined && <span className="muted"> (in {by === "*" ? "every event" : by})</span>}
        </span>
      </label>
    )
  }

  return (
    <div className="stack">
      <fieldset className="stack">
        <legend>Events</legend>
        <p className="muted">
          Choose single events, a whole group (<code>server.*</code>), or every event (<code>*</code>, also those of plugins added later).
        </p>
        {checkbox("*", <strong>Every event (*)</strong>)}
        {groups.map(([group, list]) => {
          const picked = list.filter((event) => chosen(event.name)).length
          return (
            <fieldset key={group} className="stack">
              <legend>
                {group} <span className="muted">({list.length})</span>
              </legend>
              {checkbox(`${group}.*`, <strong>All {group} events ({group}.*)</strong>)}
              <details open={openAtFirst.has(group)}>
                <summary>
                  One by one{picked > 0 && ` (${picked} chosen)`}
                  <span className="sr-only">: {group} events</span>
                </summary>
                <div className="card">
                  <ul className="plain stack">
                    {list.map((event) => (
                      <li key={event.name}>
                        {checkbox(
                          event.name,
                          <>
                            <span className="mono">{event.name}</span> <SeverityBadges severities={event.severities} />
                          </>,
                          `${id}-${event.name}`
                        )}
                        <div className="muted" id={`${id}-${event.name}`}>
                          <Described text={event.description} />
                        </div>
                        <details>
                          <summary>
                            Example payload<span className="sr-only"> of {event.name}</span>
                          </summary>
                          <pre className="log-view">{JSON.stringify(event.example, null, 2)}</pre>
                        </details>
                      </li>
                    ))}
                  </ul>
                </div>
              </details>
            </fieldset>
          )
        })}
        <div className="row">
          <label className="grow">
            Another pattern (a prefix such as server.update.*)
            <input value={other} onChange={(e) => setOther(e.target.value.trim())} aria-invalid={otherProblem !== undefined} spellCheck={false} />
          </label>
          <button
            type="button"
            disabled={other === "" || otherProblem !== undefined}
            onClick={() => {
              choose(other, true)
              setOther("")
            }}
          >
            Add pattern
          </button>
        </div>
        {otherProblem !== undefined && <p className="muted">{otherProblem}</p>}
      </fieldset>
      <fieldset className="stack">
        <legend>Subscriptions ({value.length})</legend>
        {value.length === 0 ? (
          <p className="muted">Nothing chosen yet: pick at least one event or group above.</p>
        ) : (
          <>
            <p className="muted">Optionally keep only some severities of a subscription; none ticked: every severity.</p>
            <ul className="plain stack" aria-label="Chosen subscriptions">
              {value.map((s) => (
                <li key={s.pattern} className="row">
                  <span className="mono grow">{s.pattern === "*" ? "* (every event)" : s.pattern}</span>
                  {EVENT_SEVERITIES.map((severity) => (
                    <label key={severity} className="inline">
                      <input
                        type="checkbox"
                        checked={s.severities?.includes(severity) ?? false}
                        onChange={(e) => setSeverity(s.pattern, severity, e.target.checked)}
                        aria-label={`Only ${severity} of ${s.pattern}`}
                      />
                      {severity}
                    </label>
                  ))}
                  <button type="button" className="link" onClick={() => choose(s.pattern, false)}>
                    Remove<span className="sr-only"> {s.pattern}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>
    </div>
  )
}
