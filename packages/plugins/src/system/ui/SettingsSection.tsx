/**
 * The run-time settings: each with its description, the value in force and
 * where it comes from (a stored override, the environment, the default), an
 * input for its kind, Save (a stored override) and Reset to default (the
 * override cleared: `null`). A secret shows only whether it is set, with a
 * password input to set it and Clear. A refused value's message is shown
 * under its input (the 400's `details[].path` names the setting).
 */
import { useState } from "react"
import { Loaded, type Resource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import type { SettingView, SystemConfig } from "../contract/Api.js"
import { ApiError } from "@dashboard/api/client.js"
import { patchConfig } from "./client.js"

type SettingValue = NonNullable<SettingView["value"]>

const SOURCES: Readonly<Record<SettingView["source"], string>> = {
  stored: "stored override",
  environment: "environment variable",
  default: "default"
}

const shown = (setting: SettingView, value: SettingView["value"]): string =>
  value === null || value === undefined ? "—" : setting.kind === "boolean" ? (value === true ? "on" : "off") : String(value)

/** What each kind of input accepts, shown under it. */
const HINTS: Readonly<Partial<Record<SettingView["kind"], string>>> = {
  duration: 'A duration, written like "500 millis", "5 seconds" or "2 minutes".',
  integer: "A whole number."
}

/** The draft as the API takes it: a whole number for an integer when it reads as one (else the text, which the API refuses in words). */
const payloadOf = (setting: SettingView, draft: string | boolean): string | number | boolean =>
  typeof draft === "boolean" ? draft : setting.kind === "integer" && /^-?\d+$/.test(draft.trim()) ? Number(draft.trim()) : draft.trim()

interface FieldProps {
  readonly setting: SettingView
  /** The server's message for this setting's last refused change. */
  readonly problem: string | undefined
  /** Sends `{KEY: value}` (`null` to clear); resolves once the page shows the answer: whether it was taken. */
  readonly save: (value: unknown, done: string) => Promise<boolean>
}

const Problem = ({ id, problem }: { readonly id: string; readonly problem: string | undefined }) =>
  problem === undefined ? null : (
    <p id={id} className="notice error" role="alert">
      {problem}
    </p>
  )

const ValueInput = ({
  setting,
  draft,
  setDraft,
  describedBy,
  invalid
}: {
  readonly setting: SettingView
  readonly draft: string | boolean
  readonly setDraft: (value: string | boolean) => void
  readonly describedBy: string | undefined
  readonly invalid: boolean
}) => {
  const common = { "aria-describedby": describedBy, "aria-invalid": invalid } as const
  if (setting.kind === "boolean") {
    return (
      <label className="inline">
        <input type="checkbox" role="switch" checked={draft === true} onChange={(e) => setDraft(e.target.checked)} {...common} />
        On
      </label>
    )
  }
  if (setting.kind === "choice" && setting.choices !== undefined) {
    return (
      <label className="grow">
        Value
        <select value={String(draft)} onChange={(e) => setDraft(e.target.value)} {...common}>
          {setting.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </label>
    )
  }
  return (
    <label className="grow">
      Value
      <input
        value={String(draft)}
        onChange={(e) => setDraft(e.target.value)}
        inputMode={setting.kind === "integer" ? "numeric" : undefined}
        autoComplete="off"
        spellCheck={false}
        required
        {...common}
      />
    </label>
  )
}

const PlainSetting = ({ setting, problem, save }: FieldProps) => {
  const initial: string | boolean = setting.kind === "boolean" ? setting.value === true : setting.value === null || setting.value === undefined ? "" : String(setting.value as SettingValue)
  const [draft, setDraft] = useState<string | boolean>(initial)
  const id = `setting-${setting.key}`
  const hint = HINTS[setting.kind]
  const describedBy = [hint === undefined ? undefined : `${id}-hint`, problem === undefined ? undefined : `${id}-problem`].filter((x) => x !== undefined).join(" ") || undefined
  const { busy, submit } = useSubmit(() => save(payloadOf(setting, draft), `${setting.key} saved`))
  return (
    <form className="card stack" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} noValidate>
      <SettingHead setting={setting} id={id} />
      <dl className="kv">
        <dt>In force</dt>
        <dd className="mono">{shown(setting, setting.value)}</dd>
        <dt>From</dt>
        <dd>{SOURCES[setting.source]}</dd>
        {setting.source === "stored" && (
          <>
            <dt>Without the override</dt>
            <dd className="mono">{shown(setting, setting.fallback)}</dd>
          </>
        )}
      </dl>
      <div className="row">
        <ValueInput setting={setting} draft={draft} setDraft={setDraft} describedBy={describedBy} invalid={problem !== undefined} />
      </div>
      {hint !== undefined && (
        <p id={`${id}-hint`} className="muted">
          {hint}
        </p>
      )}
      <Problem id={`${id}-problem`} problem={problem} />
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving">
          Save
        </SubmitButton>
        <ActionButton
          run={() => save(null, `${setting.key} reset: ${setting.fallback === undefined || setting.fallback === null ? "its default" : shown(setting, setting.fallback)} in force`)}
          disabled={setting.source !== "stored"}
          title={setting.source === "stored" ? `Clears the stored value: ${shown(setting, setting.fallback)} is in force again` : "Nothing stored to clear"}
          ariaLabel={`Reset ${setting.key} to default`}
        >
          Reset to default
        </ActionButton>
      </div>
    </form>
  )
}

const SecretSetting = ({ setting, problem, save }: FieldProps) => {
  const [draft, setDraft] = useState("")
  const id = `setting-${setting.key}`
  const { busy, submit } = useSubmit(async () => {
    // Not kept in the page once taken.
    if (await save(draft.trim(), `${setting.key} set`)) setDraft("")
  })
  return (
    <form className="card stack" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} noValidate>
      <SettingHead setting={setting} id={id} />
      <dl className="kv">
        <dt>In force</dt>
        <dd>
          <span className={setting.set === true ? "badge status-running" : "badge"}>{setting.set === true ? "set" : "not set"}</span>
        </dd>
        <dt>From</dt>
        <dd>{setting.set === true || setting.source === "stored" ? SOURCES[setting.source] : "—"}</dd>
      </dl>
      <p className="muted">The value is never shown. Setting a new one replaces it.</p>
      <div className="row">
        <label className="grow">
          New value
          <input
            type="password"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoComplete="new-password"
            spellCheck={false}
            required
            aria-invalid={problem !== undefined}
            aria-describedby={problem === undefined ? undefined : `${id}-problem`}
          />
        </label>
      </div>
      <Problem id={`${id}-problem`} problem={problem} />
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving" disabled={draft.trim() === ""}>
          Set
        </SubmitButton>
        <ActionButton
          run={() => save(null, `${setting.key} cleared`)}
          disabled={setting.source !== "stored"}
          title={setting.source === "stored" ? "Clears the stored value" : setting.source === "environment" ? "Set by the environment: clear it there" : "Nothing stored to clear"}
          ariaLabel={`Clear ${setting.key}`}
          confirm={{
            title: `Clear ${setting.key}?`,
            body: "The stored value is deleted; the environment's, if any, is in force again.",
            confirmLabel: "Clear",
            danger: true
          }}
        >
          Clear
        </ActionButton>
      </div>
    </form>
  )
}

const SettingHead = ({ setting, id }: { readonly setting: SettingView; readonly id: string }) => (
  <>
    <h3 id={`${id}-title`} className="mono">
      {setting.key}
    </h3>
    <p>{setting.description}</p>
  </>
)

export const SettingsSection = ({ config }: { readonly config: Resource<SystemConfig> }) => {
  const feedback = useFeedback()
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})
  const save = (key: string) => async (value: unknown, done: string) => {
    try {
      const next = await patchConfig({ [key]: value })
      config.set(() => next)
      setProblems((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== key)))
      feedback.ok(done)
      return true
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setProblems(error.fields)
      else feedback.error(error)
      return false
    }
  }
  return (
    <section className="stack" aria-labelledby="system-settings-title">
      <h2 id="system-settings-title">Run-time settings</h2>
      <p className="muted">
        Changes take effect at once. A stored value wins over the environment variable of the same name, which wins over the default.
      </p>
      <Loaded resource={config}>
        {(c) => (
          <div className="stack">
            {c.settings.map((setting) => {
              // A new answer (saved, reset) shows the value in force again.
              const key = `${setting.key}:${setting.source}:${String(setting.value)}:${String(setting.set)}`
              const props = { setting, problem: problems[setting.key], save: save(setting.key) }
              return setting.secret ? <SecretSetting key={key} {...props} /> : <PlainSetting key={key} {...props} />
            })}
          </div>
        )}
      </Loaded>
    </section>
  )
}
