/**
 * The settings as a form, one input per setting the contract knows, grouped
 * in sections: switches for 0/1 settings, a list for whole numbers with a
 * few values, text for the rest (numbers too, so a wrong value can be typed
 * and is then named under its input), the messages one per line, and the
 * passwords as password inputs that start empty (the file's are never shown
 * back). A refused value's message is under its input, and listed above the
 * buttons with a link to each.
 */
import type { ReactNode } from "react"
import type { ServerConfig } from "../contract/Api.js"
import type { DraftValue, SecretDraft } from "./draft.js"
import { FIELDS, type FieldSpec, inputId, SECTIONS } from "./fields.js"

interface FieldProps {
  readonly field: FieldSpec
  readonly value: DraftValue
  /** The file's value (null: the file does not set it). */
  readonly stored: unknown
  readonly problem: string | undefined
  readonly changed: boolean
  readonly set: (value: DraftValue) => void
}

const describedBy = (key: string, problem: string | undefined) => `${inputId(key)}-hint${problem === undefined ? "" : ` ${inputId(key)}-problem`}`

/** The setting's key as the file spells it, what it takes, and its problem. */
const Notes = ({ field, problem, extra }: { readonly field: FieldSpec; readonly problem: string | undefined; readonly extra?: string }) => (
  <>
    <p id={`${inputId(field.key)}-hint`} className="field-hint">
      <span className="mono">{field.key}</span>
      {field.help !== "" && ` · ${field.help}`}
      {extra !== undefined && ` ${extra}`}
    </p>
    {problem !== undefined && (
      <p id={`${inputId(field.key)}-problem`} className="field-problem">
        {problem}
      </p>
    )}
  </>
)

const Changed = ({ changed }: { readonly changed: boolean }) => (changed ? <span className="badge status-starting">changed</span> : null)

const Labelled = ({ field, changed }: { readonly field: FieldSpec; readonly changed: boolean }) => (
  <div className="row field-label">
    <label htmlFor={inputId(field.key)}>{field.label}</label>
    <Changed changed={changed} />
  </div>
)

const SwitchField = ({ field, value, problem, changed, set }: FieldProps) => (
  <div className="config-field">
    <div className="row field-label">
      <label className="inline">
        <input
          id={inputId(field.key)}
          type="checkbox"
          checked={value === true}
          onChange={(e) => set(e.target.checked)}
          aria-describedby={describedBy(field.key, problem)}
          aria-invalid={problem !== undefined}
        />
        {field.label}
      </label>
      <Changed changed={changed} />
    </div>
    <Notes field={field} problem={problem} extra={value === null ? "Not in the file." : undefined} />
  </div>
)

const SecretField = ({ field, value, stored, problem, changed, set }: FieldProps) => {
  const secret = value as SecretDraft
  const isSet = typeof stored === "string" && stored !== ""
  return (
    <div className="config-field">
      <Labelled field={field} changed={changed} />
      <input
        id={inputId(field.key)}
        type="password"
        value={secret.next}
        onChange={(e) => set({ next: e.target.value, clear: false })}
        autoComplete="new-password"
        spellCheck={false}
        aria-describedby={describedBy(field.key, problem)}
        aria-invalid={problem !== undefined}
      />
      <Notes field={field} problem={problem} extra={isSet ? "Set (never shown). Leave empty to keep it, or type a new one." : "Not set. Type one to set it."} />
      {isSet && (
        <label className="inline">
          <input type="checkbox" checked={secret.clear} disabled={secret.next !== ""} onChange={(e) => set({ next: "", clear: e.target.checked })} />
          Remove the {field.label.toLowerCase()}
        </label>
      )}
    </div>
  )
}

const ChoiceField = ({ field, value, problem, changed, set }: FieldProps) => (
  <div className="config-field">
    <Labelled field={field} changed={changed} />
    <select
      id={inputId(field.key)}
      value={String(value ?? "")}
      onChange={(e) => set(e.target.value)}
      aria-describedby={describedBy(field.key, problem)}
      aria-invalid={problem !== undefined}
    >
      {value === "" && <option value="">Not in the file</option>}
      {Object.entries(field.choices ?? {}).map(([number, meaning]) => (
        <option key={number} value={number}>
          {meaning}
        </option>
      ))}
    </select>
    <Notes field={field} problem={problem} />
  </div>
)

const TextField = ({ field, value, stored, problem, changed, set }: FieldProps) => {
  const common = {
    id: inputId(field.key),
    value: String(value ?? ""),
    spellCheck: false,
    "aria-describedby": describedBy(field.key, problem),
    "aria-invalid": problem !== undefined
  } as const
  return (
    <div className={field.kind === "strings" ? "config-field wide" : "config-field"}>
      <Labelled field={field} changed={changed} />
      {field.kind === "strings" ? (
        <textarea {...common} rows={4} onChange={(e) => set(e.target.value)} />
      ) : (
        <input
          {...common}
          autoComplete="off"
          inputMode={field.kind === "int" ? "numeric" : field.kind === "number" ? "decimal" : undefined}
          onChange={(e) => set(e.target.value)}
        />
      )}
      <Notes field={field} problem={problem} extra={stored === null ? "Not in the file." : undefined} />
    </div>
  )
}

const Field = (props: FieldProps) => {
  const { field } = props
  if (field.kind === "bool") return <SwitchField {...props} />
  if (field.kind === "secret") return <SecretField {...props} />
  if (field.choices !== undefined) return <ChoiceField {...props} />
  return <TextField {...props} />
}

export interface SettingsFormProps {
  readonly config: ServerConfig
  readonly draft: Readonly<Record<string, DraftValue>>
  readonly problems: Readonly<Record<string, string>>
  readonly changed: ReadonlySet<string>
  readonly canEdit: boolean
  readonly set: (key: string, value: DraftValue) => void
  /** The buttons under the form (review, discard). */
  readonly children: ReactNode
  readonly onSubmit: () => void
}

export const SettingsForm = ({ config, draft, problems, changed, canEdit, set, children, onSubmit }: SettingsFormProps) => {
  const stored = config.fields as Readonly<Record<string, unknown>>
  const refused = FIELDS.filter((field) => problems[field.key] !== undefined)
  return (
    <form
      className="stack"
      aria-labelledby="config-settings-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <h2 id="config-settings-title">Settings</h2>
      <div className="stack">
        {SECTIONS.map((section) => {
          const fields = FIELDS.filter((field) => field.section === section.id)
          if (fields.length === 0) return null
          return (
            <fieldset key={section.id} disabled={!canEdit}>
              <legend>{section.title}</legend>
              <div className="config-fields">
                {fields.map((field) => (
                  <Field
                    key={field.key}
                    field={field}
                    value={draft[field.key] ?? null}
                    stored={stored[field.key] ?? null}
                    problem={problems[field.key]}
                    changed={changed.has(field.key)}
                    set={(value) => set(field.key, value)}
                  />
                ))}
              </div>
            </fieldset>
          )
        })}
      </div>
      {refused.length > 0 && (
        <div className="notice error" role="alert">
          <p>
            {refused.length === 1 ? "One setting needs" : `${refused.length} settings need`} another value before saving:
          </p>
          <ul>
            {refused.map((field) => (
              <li key={field.key}>
                <button type="button" className="link" onClick={() => document.getElementById(inputId(field.key))?.focus()}>
                  {field.label}
                </button>
                : {problems[field.key]}
              </li>
            ))}
          </ul>
        </div>
      )}
      {children}
    </form>
  )
}
