/**
 * A server's Config tab (`server.config` on that server): `serverDZ.cfg` as
 * a form of typed settings, checked as they are typed against the
 * contract's schema; "Review changes" shows the file's lines the change
 * removes and adds, and Save sends only the changed settings with the
 * version the page read (`If-Match`). When someone else changed the file
 * meanwhile the save is refused (412): the page says so, keeps what was
 * typed, and reloads with the changes kept on top of the new version. Below
 * the form: the file's text, its unknown settings, and the templates.
 */
import { useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { useCan } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { useFeedback } from "@dashboard/ui/feedback.js"
import { CONFIG_PERMISSION, type ServerConfig } from "../contract/Api.js"
import { readConfig, saveConfig } from "./client.js"
import { changedDrafts, type Draft, draftOf, type DraftValue, patchOf, problemsOf } from "./draft.js"
import { inputId } from "./fields.js"
import { RawFile } from "./RawFile.js"
import { ConflictNotice, type Meanwhile, ReviewPanel } from "./Review.js"
import { SettingsForm } from "./SettingsForm.js"
import { TemplatesSection } from "./TemplatesSection.js"

type Stage = { readonly kind: "editing" } | { readonly kind: "reviewing"; readonly meanwhile?: Meanwhile } | { readonly kind: "conflict" }

const ConfigEditor = ({ serverId, initial, canEdit }: { readonly serverId: string; readonly initial: ServerConfig; readonly canEdit: boolean }) => {
  const feedback = useFeedback()
  /** The file the form was read from: its text is what the diff starts from, its version what a save sends. */
  const [base, setBase] = useState(initial)
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial))
  /** The API's own messages of the last refused save, by setting, until that setting is edited. */
  const [refused, setRefused] = useState<Readonly<Record<string, string>>>({})
  const [stage, setStage] = useState<Stage>({ kind: "editing" })
  /** The contract's checks show once the user asked to review (not while typing the first character). */
  const [checked, setChecked] = useState(false)

  const patch = patchOf(base, draft)
  const changed = new Set(Object.keys(patch))
  const problems = { ...(checked ? problemsOf(patch) : {}), ...refused }

  const set = (key: string, value: DraftValue) => {
    setDraft((all) => ({ ...all, [key]: value }))
    setRefused(({ [key]: _, ...rest }) => rest)
    if (stage.kind === "reviewing") setStage({ kind: "editing" })
  }

  /** The file is now `next`: the form shows it, with nothing changed. */
  const showFile = (next: ServerConfig) => {
    setBase(next)
    setDraft(draftOf(next))
    setRefused({})
    setChecked(false)
    setStage({ kind: "editing" })
  }

  const review = () => {
    setChecked(true)
    const found = problemsOf(patch)
    const first = Object.keys(found)[0] ?? Object.keys(refused)[0]
    if (first !== undefined) return void document.getElementById(inputId(first))?.focus()
    setStage({ kind: "reviewing" })
    // The panel renders first; focus then moves to its title.
    window.setTimeout(() => document.getElementById("config-review-title")?.focus(), 0)
  }

  const save = async () => {
    try {
      const next = await saveConfig(serverId, patch, base.etag)
      showFile(next)
      feedback.ok(next.restartNeeded ? `${next.file} saved: the server reads it at its next restart` : `${next.file} saved`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) return void setStage({ kind: "conflict" })
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setRefused(error.fields)
        setStage({ kind: "editing" })
        return void document.getElementById(inputId(Object.keys(error.fields)[0]!))?.focus()
      }
      throw error
    }
  }

  /** The newer file, with the user's changes put back on top of it. */
  const reloadKeeping = async () => {
    const next = await readConfig(serverId)
    const merged = { ...draftOf(next), ...changedDrafts(base, draft) }
    setBase(next)
    setDraft(merged)
    // Their change may have been the same as the user's: then nothing is left to save.
    if (Object.keys(patchOf(next, merged)).length === 0) return void setStage({ kind: "editing" })
    setStage({ kind: "reviewing", meanwhile: { before: base.text, after: next.text } })
    window.setTimeout(() => document.getElementById("config-review-title")?.focus(), 0)
  }

  const noChanges = changed.size === 0
  const blocked = base.problems.length > 0
  return (
    <div className="stack">
      {blocked && (
        <div className="notice error">
          <p>DayZ would refuse this file, so Garrison does not change it until it is fixed:</p>
          <ul>
            {base.problems.map((problem) => (
              <li key={`${problem.line}:${problem.message}`}>
                Line {problem.line}: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {base.restartNeeded && <p className="notice warn">The server is running: changes take effect at its next restart.</p>}
      {!canEdit && <p className="notice">You may read this configuration but not change it.</p>}
      {stage.kind === "conflict" && (
        <ConflictNotice
          file={base.file}
          reloadKeeping={reloadKeeping}
          reloadDropping={async () => showFile(await readConfig(serverId))}
        />
      )}
      <SettingsForm config={base} draft={draft} problems={problems} changed={changed} canEdit={canEdit} set={set} onSubmit={review}>
        {canEdit && (
          <div className="row">
            <button type="submit" className="primary" disabled={noChanges || blocked || stage.kind !== "editing"}>
              Review changes
            </button>
            <button type="button" disabled={noChanges} onClick={() => showFile(base)}>
              Discard changes
            </button>
            <span className="muted" aria-live="polite">
              {noChanges ? "No changes." : `${changed.size} ${changed.size === 1 ? "setting" : "settings"} changed.`}
            </span>
          </div>
        )}
      </SettingsForm>
      {stage.kind === "reviewing" && !noChanges && (
        <ReviewPanel config={base} patch={patch} meanwhile={stage.meanwhile} save={save} back={() => setStage({ kind: "editing" })} />
      )}
      <RawFile config={base} serverId={serverId} />
      <TemplatesSection serverId={serverId} config={base} canEdit={canEdit} unsavedChanges={!noChanges} restored={showFile} />
    </div>
  )
}

const ConfigTab = ({ serverId }: { readonly serverId: string }) => {
  const can = useCan()
  const config = useResource(() => readConfig(serverId), [serverId])
  return (
    <Loaded resource={config}>
      {(initial) => <ConfigEditor key={serverId} serverId={serverId} initial={initial} canEdit={can(CONFIG_PERMISSION, serverId)} />}
    </Loaded>
  )
}

export default ConfigTab
