/**
 * One item of a types file in a form: its counts and times, category,
 * usage, value and tag lists and flags; saved (an existing item), added (a
 * new one) or removed after a confirmation. Mistakes show under their
 * field before anything is sent; the API's refusal shows above the buttons.
 *
 * The types API keeps no versions, so before a save the item is read again:
 * changed since the form opened, the form says which values changed and
 * offers to save over them or load them. The API's own conflicts get a
 * choice too: an item removed since (404) can be added back with the
 * form's values, a name the file already has (409) can be saved over.
 */
import { useEffect, useRef, useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { ActionButton, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import type { TypeItem } from "../contract/Api.js"
import { itemNow, typesApi } from "./client.js"
import { type Conflict, ConflictChoice } from "./ConflictChoice.js"
import { blankDraft, changedFields, type DraftField, draftOf, draftProblems, FLAGS, inputOf, type ItemDraft, NUMBER_FIELDS } from "./itemDraft.js"

export interface ItemFormProps {
  readonly serverId: string
  /** The types file, relative to the install folder. */
  readonly file: string
  /** The item as read; undefined: a new item. */
  readonly item: TypeItem | undefined
  readonly categories: ReadonlyArray<string>
  readonly canWrite: boolean
  /** After a save, an add or a removal: the item's name (the list is read again). */
  readonly done: (change: "saved" | "added" | "removed", name: string) => Promise<void>
  /** The list is out of date (the item changed or went away since it was read): read it again, leaving the form as it is. */
  readonly stale: () => void
  readonly close: () => void
}

export const ItemForm = ({ serverId, file, item, categories, canWrite, done, stale, close }: ItemFormProps) => {
  const feedback = useFeedback()
  const [original, setOriginal] = useState(item)
  const [draft, setDraft] = useState<ItemDraft>(() => (item === undefined ? blankDraft() : draftOf(item)))
  const [checked, setChecked] = useState(false)
  const [refusal, setRefusal] = useState<string | undefined>()
  const [conflict, setConflict] = useState<Conflict | undefined>()
  const title = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    title.current?.focus()
  }, [])

  const problems = checked ? draftProblems(draft) : {}
  const adding = original === undefined
  const name = adding ? draft.name.trim() : original.name

  /** Sends the draft; an API refusal shows in the form, its conflicts as a choice. */
  const send = async (how: "save" | "add") => {
    const input = inputOf(draft, original)
    setRefusal(undefined)
    setConflict(undefined)
    try {
      if (how === "save") await typesApi((c) => c.types.save({ path: { id: serverId }, payload: { file, items: [input] } }))
      else await typesApi((c) => c.types.add({ path: { id: serverId }, payload: { file, item: input } }))
      feedback.ok(`${input.name} ${how === "save" ? "saved" : "added"}; the file as it was is kept as a backup`)
      await done(how === "save" ? "saved" : "added", input.name)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && how === "save") {
        setConflict({ kind: "gone" })
        stale()
      } else if (error instanceof ApiError && error.status === 409 && how === "add" && /already/.test(error.message)) {
        setConflict({ kind: "exists" })
        stale()
      } else if (error instanceof ApiError && error.status === 400) {
        setRefusal(error.fields["items"] ?? error.fields["file"] ?? error.message)
      } else {
        feedback.error(error)
      }
    }
  }

  const { busy, submit } = useSubmit(async () => {
    setChecked(true)
    const found = draftProblems(draft)
    const first = Object.keys(found)[0]
    if (first !== undefined) {
      document.getElementById(`type-field-${first}`)?.focus()
      return
    }
    if (adding) return send("add")
    // No versions in the types API: compare with the item as the file has it now.
    const now = await itemNow(serverId, file, original.name)
    const fields = now === undefined ? [] : changedFields(original, now)
    if (now === undefined || fields.length > 0) {
      setConflict(now === undefined ? { kind: "gone" } : { kind: "changed", fields, now })
      stale()
      return
    }
    return send("save")
  })

  const set = (change: Partial<ItemDraft>) => setDraft((d) => ({ ...d, ...change }))
  const describedBy = (field: DraftField) => (problems[field] === undefined ? undefined : `type-problem-${field}`)

  return (
    <form className="card stack types-form" aria-labelledby="type-form-title" onSubmit={(e) => void submit(e)} noValidate>
      <div className="row">
        <h2 id="type-form-title" ref={title} tabIndex={-1} className="break-anywhere grow">
          {adding ? "Add an item" : original.name}
        </h2>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
      {adding && (
        <label>
          Class name
          <input
            id="type-field-name"
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            required
            aria-invalid={problems.name !== undefined}
            aria-describedby={describedBy("name")}
          />
          <FieldProblem field="name" problem={problems.name} />
        </label>
      )}
      <fieldset disabled={!canWrite}>
        <legend>Counts and times</legend>
        <div className="types-fields">
          {NUMBER_FIELDS.map(({ key, label, quantity }) => (
            <label key={key}>
              {label}
              <input
                id={`type-field-${key}`}
                type="number"
                inputMode="numeric"
                step={1}
                min={quantity ? -1 : 0}
                max={quantity ? 100 : undefined}
                value={draft.numbers[key]}
                onChange={(e) => set({ numbers: { ...draft.numbers, [key]: e.target.value } })}
                aria-invalid={problems[key] !== undefined}
                aria-describedby={describedBy(key)}
              />
              <FieldProblem field={key} problem={problems[key]} />
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset disabled={!canWrite}>
        <legend>Where it spawns</legend>
        <div className="types-fields">
          <label>
            Category
            <input list="types-categories" value={draft.category} onChange={(e) => set({ category: e.target.value })} autoComplete="off" spellCheck={false} />
          </label>
          <datalist id="types-categories">
            {categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
          <label>
            Usage (comma-separated)
            <input value={draft.usage} onChange={(e) => set({ usage: e.target.value })} autoComplete="off" spellCheck={false} />
          </label>
          <label>
            Value (tiers, comma-separated)
            <input value={draft.value} onChange={(e) => set({ value: e.target.value })} autoComplete="off" spellCheck={false} />
          </label>
          <label>
            Tag (comma-separated)
            <input value={draft.tag} onChange={(e) => set({ tag: e.target.value })} autoComplete="off" spellCheck={false} />
          </label>
        </div>
      </fieldset>
      <fieldset disabled={!canWrite}>
        <legend>Flags</legend>
        <div className="types-flags">
          {FLAGS.map((flag) => (
            <label key={flag} className="inline mono">
              <input type="checkbox" checked={draft.flags[flag] === true} onChange={(e) => set({ flags: { ...draft.flags, [flag]: e.target.checked } })} />
              {flag}
            </label>
          ))}
        </div>
      </fieldset>
      {refusal !== undefined && (
        <p className="notice error" role="alert">
          Not saved: {refusal}
        </p>
      )}
      {conflict !== undefined && (
        <ConflictChoice
          conflict={conflict}
          name={name}
          file={file}
          saveOver={() => send("save")}
          addBack={() => send("add")}
          loadTheirs={(now) => {
            setOriginal(now)
            setDraft(draftOf(now))
            setConflict(undefined)
          }}
        />
      )}
      {canWrite ? (
        <div className="row">
          <SubmitButton busy={busy} busyLabel="Saving">
            {adding ? "Add item" : "Save"}
          </SubmitButton>
          {!adding && (
            <ActionButton
              className="danger"
              run={async () => {
                await typesApi((c) => c.types.remove({ path: { id: serverId }, urlParams: { file, name: original.name } }))
                await done("removed", original.name)
              }}
              confirm={{
                title: `Remove ${original.name}?`,
                body: `The item is taken out of ${file}; the file as it was is kept as a backup.`,
                confirmLabel: "Remove",
                danger: true
              }}
              done={`${original.name} removed`}
            >
              Remove
            </ActionButton>
          )}
        </div>
      ) : (
        <p className="muted">You may read the items of this server, not change them.</p>
      )}
    </form>
  )
}

const FieldProblem = ({ field, problem }: { readonly field: DraftField; readonly problem: string | undefined }) =>
  problem === undefined ? null : (
    <span id={`type-problem-${field}`} className="field-problem">
      {problem}
    </span>
  )
