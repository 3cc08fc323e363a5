/**
 * The server's configuration templates: the list, "Save as template" (the
 * file as it is on the server now, under a name checked by the contract's
 * `TemplateInput`), and per template Restore and Delete, each after a
 * confirmation. A template's content is never answered (it holds the
 * passwords), so what a restore changed is shown after it: the file before
 * and after, line by line. A restore first saves the file as it was as a
 * template, named in the toast, so it can be undone.
 */
import { useState } from "react"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { decodeIssues } from "@garrison/runtime"
import { formatBytes, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { type ConfigTemplate, type ServerConfig, TemplateInput } from "../contract/Api.js"
import { configApi } from "./client.js"
import { LineDiff } from "./LineDiff.js"

const decodeTemplateInput = Schema.decodeUnknownEither(TemplateInput)

interface Restored {
  readonly name: string
  readonly before: string
  readonly after: string
}

export const TemplatesSection = ({
  serverId,
  config,
  canEdit,
  unsavedChanges,
  restored
}: {
  readonly serverId: string
  /** The file as the page shows it now (what a restore replaces). */
  readonly config: ServerConfig
  readonly canEdit: boolean
  readonly unsavedChanges: boolean
  /** Tells the page the file is now `next`. */
  readonly restored: (next: ServerConfig) => void
}) => {
  const feedback = useFeedback()
  const templates = useResource(() => configApi((c) => c.config.templates({ path: { id: serverId } })), [serverId])
  const [name, setName] = useState("")
  const [nameProblem, setNameProblem] = useState<string | undefined>()
  const [lastRestore, setLastRestore] = useState<Restored | undefined>()

  const { busy, submit } = useSubmit(async () => {
    const input = decodeTemplateInput({ name })
    if (Either.isLeft(input)) return void setNameProblem(decodeIssues(input.left.issue)[0]?.rule ?? "is not a name Garrison takes")
    setNameProblem(undefined)
    const saved = await configApi((c) => c.config.saveTemplate({ path: { id: serverId }, payload: input.right }))
    setName("")
    feedback.ok(`Template "${saved.name}" saved`)
    await templates.reload()
  })

  const restore = async (template: ConfigTemplate) => {
    const answer = await configApi((c) => c.config.restoreTemplate({ path: { id: serverId, templateId: template.id } }))
    setLastRestore({ name: template.name, before: config.text, after: answer.config.text })
    restored(answer.config)
    feedback.ok(`Template "${template.name}" restored. The file as it was is saved as "${answer.savedBefore.name}".`)
    await templates.reload()
  }

  const remove = async (template: ConfigTemplate) => {
    await configApi((c) => c.config.deleteTemplate({ path: { id: serverId, templateId: template.id } }))
    feedback.ok(`Template "${template.name}" deleted`)
    await templates.reload()
  }

  return (
    <section className="stack" aria-labelledby="config-templates-title">
      <h2 id="config-templates-title">Templates</h2>
      <p className="muted">A template is a copy of the whole file, passwords included, kept on the controller (never shown).</p>
      {canEdit && (
        <form className="row" aria-label="Save as template" noValidate onSubmit={(e) => void submit(e)}>
          <label className="grow">
            Template name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
              maxLength={100}
              aria-invalid={nameProblem !== undefined}
              aria-describedby={nameProblem === undefined ? "config-template-hint" : "config-template-hint config-template-problem"}
            />
          </label>
          <SubmitButton busy={busy} busyLabel="Saving">
            Save as template
          </SubmitButton>
          <p id="config-template-hint" className="field-hint config-template-hint">
            Saves {config.file} as it is on the server{unsavedChanges ? ", without your unsaved changes" : ""}.
          </p>
          {nameProblem !== undefined && (
            <p id="config-template-problem" className="field-problem config-template-hint">
              The name {nameProblem}.
            </p>
          )}
        </form>
      )}
      <Loaded resource={templates}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="notice">No templates yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Templates of this server, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Saved</th>
                    <th scope="col" className="hide-narrow">
                      By
                    </th>
                    <th scope="col" className="hide-narrow">
                      Size
                    </th>
                    {canEdit && (
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((template) => (
                    <tr key={template.id}>
                      <td className="break-anywhere">{template.name}</td>
                      <td>
                        <time dateTime={template.createdAt}>{formatTime(template.createdAt)}</time>
                      </td>
                      <td className="hide-narrow">{template.createdBy}</td>
                      <td className="hide-narrow">{formatBytes(template.sizeBytes)}</td>
                      {canEdit && (
                        <td>
                          <div className="row">
                            <ActionButton
                              run={() => restore(template)}
                              confirm={{
                                title: `Restore "${template.name}"?`,
                                body: (
                                  <>
                                    <p>{config.file} is replaced by this template's copy, passwords included.</p>
                                    <p>The file as it is now is saved as a template first, so this can be undone.</p>
                                    {unsavedChanges && <p>Your unsaved changes in the form are dropped.</p>}
                                  </>
                                ),
                                confirmLabel: "Restore",
                                danger: true
                              }}
                            >
                              Restore<span className="sr-only"> {template.name}</span>
                            </ActionButton>
                            <ActionButton
                              className="danger"
                              run={() => remove(template)}
                              confirm={{ title: `Delete "${template.name}"?`, body: "The template is removed from the controller.", confirmLabel: "Delete", danger: true }}
                            >
                              Delete<span className="sr-only"> {template.name}</span>
                            </ActionButton>
                          </div>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {lastRestore !== undefined && (
        <section className="card stack" aria-labelledby="config-restored-title">
          <div className="row">
            <h3 id="config-restored-title" className="grow">
              What restoring "{lastRestore.name}" changed
            </h3>
            <button type="button" onClick={() => setLastRestore(undefined)}>
              Close
            </button>
          </div>
          <LineDiff before={lastRestore.before} after={lastRestore.after} label={`${config.file} before and after the restore`} />
        </section>
      )}
    </section>
  )
}
