/**
 * Before a save: the file's lines the change removes and adds (the change
 * applied to the text the page read, as the controller applies it), and
 * the Save button. After a refused save because the file changed meanwhile
 * (412): what happened, in words, with a reload that keeps the user's
 * changes (put on top of the new version, to be reviewed again) or drops
 * them after a confirmation.
 */
import { ActionButton } from "@dashboard/ui/feedback.js"
import type { ServerConfig } from "../contract/Api.js"
import { projectedText } from "./draft.js"
import { fieldOf } from "./fields.js"
import { LineDiff } from "./LineDiff.js"

/** What the file looked like when the page read it, and now (after a reload that kept the user's changes). */
export interface Meanwhile {
  readonly before: string
  readonly after: string
}

export const ReviewPanel = ({
  config,
  patch,
  meanwhile,
  save,
  back
}: {
  readonly config: ServerConfig
  readonly patch: Readonly<Record<string, unknown>>
  readonly meanwhile: Meanwhile | undefined
  readonly save: () => Promise<unknown>
  readonly back: () => void
}) => {
  const keys = Object.keys(patch)
  return (
    <section className="card stack" aria-labelledby="config-review-title">
      <h2 id="config-review-title" tabIndex={-1}>
        Review the changes
      </h2>
      {meanwhile !== undefined && (
        <div className="stack">
          <p>The file as it is on the server now, compared with the one you had opened:</p>
          <LineDiff before={meanwhile.before} after={meanwhile.after} label="Changed on the server meanwhile" />
          <p>Your changes, put on top of it:</p>
        </div>
      )}
      <p>
        {keys.length === 1 ? "One setting changes" : `${keys.length} settings change`}:{" "}
        {keys.map((key, i) => (
          <span key={key}>
            {i > 0 && ", "}
            {fieldOf(key)?.label ?? key} (<span className="mono">{key}</span>)
          </span>
        ))}
        .
      </p>
      <LineDiff before={config.text} after={projectedText(config, patch)} label={`Changes to ${config.file}`} />
      {config.restartNeeded && (
        <p className="notice warn">The server is running: it reads this file when it starts, so the change takes effect at its next restart.</p>
      )}
      <div className="row">
        <ActionButton className="primary" run={save}>
          Save to {config.file}
        </ActionButton>
        <button type="button" onClick={back}>
          Back to editing
        </button>
      </div>
    </section>
  )
}

export const ConflictNotice = ({
  file,
  reloadKeeping,
  reloadDropping
}: {
  readonly file: string
  readonly reloadKeeping: () => Promise<unknown>
  readonly reloadDropping: () => Promise<unknown>
}) => (
  <section className="notice error stack" role="alert" aria-labelledby="config-conflict-title">
    <h2 id="config-conflict-title">Not saved: someone else changed {file}</h2>
    <p>
      The file changed on the server after this page read it, so nothing was written: saving would have overwritten that change. Your changes are still in the
      form.
    </p>
    <p>Reload the file to put your changes on top of the new version; you review them again before saving.</p>
    <div className="row">
      <ActionButton className="primary" run={reloadKeeping}>
        Reload and keep my changes
      </ActionButton>
      <ActionButton
        run={reloadDropping}
        confirm={{ title: "Drop your changes?", body: "The form shows the file as it is on the server now; what you typed is lost.", confirmLabel: "Drop my changes", danger: true }}
      >
        Reload and drop my changes
      </ActionButton>
    </div>
  </section>
)
