/**
 * One text file open in the code editor: read with its version (`etag`),
 * saved with that version so a file changed since is refused (412) rather
 * than overwritten. On that refusal the user's text stays in the editor and
 * the panel explains it, offering to overwrite the newer version or load it
 * (each after a confirmation). A file the API will not open (binary, too
 * large, a link) is explained in its words.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { formatBytes, formatTime } from "@dashboard/ui/data.js"
import { messageOf, Spinner, useFeedback } from "@dashboard/ui/feedback.js"
import { type FileContent, WriteInput } from "../contract/Api.js"
import { baseName, filesApi, languageOf } from "./client.js"

const CodeEditor = lazy(() => import("@dashboard/ui/CodeEditor.js"))

/** What was read last (or written): the text as the server has it, and its version. */
interface Opened {
  readonly content: string
  readonly etag: string
  readonly size: number
  readonly modified: string
  readonly masked: ReadonlyArray<string>
}

const openedOf = (file: FileContent): Opened => ({ content: file.content, etag: file.etag, size: file.size, modified: file.modified, masked: file.masked })

export interface FileEditorPanelProps {
  readonly serverId: string
  readonly path: string
  readonly canWrite: boolean
  /** Told whether the editor holds text not saved yet. */
  readonly onDirty: (dirty: boolean) => void
}

export const FileEditorPanel = ({ serverId, path, canWrite, onDirty }: FileEditorPanelProps) => {
  const feedback = useFeedback()
  const [opened, setOpened] = useState<Opened | undefined>()
  const [refused, setRefused] = useState<unknown>()
  const [draft, setDraft] = useState("")
  const [conflict, setConflict] = useState(false)
  const [busy, setBusy] = useState<"saving" | "loading" | undefined>("loading")
  const dirty = opened !== undefined && draft !== opened.content
  const name = baseName(path)

  const read = () => filesApi((c) => c.files.read({ path: { id: serverId }, urlParams: { path } }))
  /** Shows the file as the server has it now: the editor's text is replaced. */
  const load = async () => {
    setBusy("loading")
    try {
      const file = openedOf(await read())
      setOpened(file)
      setDraft(file.content)
      setRefused(undefined)
      setConflict(false)
    } catch (error) {
      setRefused(error)
    } finally {
      setBusy(undefined)
    }
  }
  const generation = useRef(0)
  useEffect(() => {
    const mine = ++generation.current
    setOpened(undefined)
    setRefused(undefined)
    setConflict(false)
    setBusy("loading")
    read()
      .then((file) => {
        if (mine !== generation.current) return
        setOpened(openedOf(file))
        setDraft(file.content)
      })
      .catch((error: unknown) => mine === generation.current && setRefused(error))
      .finally(() => mine === generation.current && setBusy(undefined))
  }, [serverId, path])
  useEffect(() => {
    onDirty(dirty)
  }, [dirty])

  /** Writes the editor's text over the version `etag`; a 412 (changed since) opens the conflict choice. */
  const save = async (etag: string) => {
    const content = draft
    setBusy("saving")
    try {
      const written = await filesApi((c) => c.files.write({ path: { id: serverId }, payload: new WriteInput({ path, content, etag }) }))
      setOpened((before) => ({ content, etag: written.etag, size: written.size, modified: written.modified, masked: before?.masked ?? [] }))
      setConflict(false)
      feedback.ok(`${name} saved`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) setConflict(true)
      else feedback.error(error)
    } finally {
      setBusy(undefined)
    }
  }
  /** Overwrites whatever the server has now (its version read first, so a change after this one is still refused). */
  const overwrite = async () => {
    const ok = await feedback.confirm({
      title: `Overwrite ${name}?`,
      body: "The changes saved on the server since you opened the file are replaced by your text.",
      confirmLabel: "Overwrite",
      danger: true
    })
    if (!ok) return
    try {
      await save((await read()).etag)
    } catch (error) {
      feedback.error(error)
    }
  }
  const reload = async () => {
    const ok =
      !dirty ||
      (await feedback.confirm({ title: `Load the server's ${name}?`, body: "Your changes that are not saved are lost.", confirmLabel: "Load the server's version", danger: true }))
    if (ok) await load()
  }

  if (refused !== undefined) {
    return (
      <section className="card stack" aria-labelledby="file-editor-title">
        <h2 id="file-editor-title" className="break-anywhere">
          {path}
        </h2>
        <div className="notice error" role="alert">
          <p>{refusalText(refused)}</p>
          <p className="break-anywhere">The controller says: {messageOf(refused)}</p>
        </div>
      </section>
    )
  }

  return (
    <section className="card stack" aria-labelledby="file-editor-title">
      <div className="row">
        <h2 id="file-editor-title" className="break-anywhere grow">
          {path}
        </h2>
        {dirty && <span className="badge status-starting">Unsaved changes</span>}
      </div>
      {opened === undefined ? (
        <p className="muted">
          <Spinner label={`Opening ${name}`} /> Opening…
        </p>
      ) : (
        <>
          <p className="muted">
            {formatBytes(opened.size)}, changed {formatTime(opened.modified)}. Ctrl-F searches the text.
          </p>
          {opened.masked.length > 0 && (
            <p className="notice">
              Secrets show as ******** ({opened.masked.join(", ")}). Leave the stars as they are to keep each value; type a new value to change it.
            </p>
          )}
          {conflict && (
            <div className="notice warn stack" role="alert">
              <p>
                <strong>{name} was changed on the server after you opened it</strong> (someone else saved it, or the game wrote it). Your text is not saved yet
                and is still in the editor.
              </p>
              <div className="row">
                <button type="button" className="danger" disabled={busy !== undefined} onClick={() => void overwrite()}>
                  Overwrite with my text
                </button>
                <button type="button" disabled={busy !== undefined} onClick={() => void reload()}>
                  Load the server's version
                </button>
              </div>
            </div>
          )}
          <Suspense
            fallback={
              <p className="muted">
                <Spinner label="Loading the editor" /> Loading the editor…
              </p>
            }
          >
            <CodeEditor value={draft} onChange={setDraft} language={languageOf(path)} readOnly={!canWrite} label={`Contents of ${name}`} />
          </Suspense>
          <div className="row" role="toolbar" aria-label="File controls">
            {canWrite && (
              <button type="button" className="primary" disabled={!dirty || busy !== undefined} onClick={() => void save(opened.etag)}>
                {busy === "saving" && <Spinner label="Saving" />}
                Save
              </button>
            )}
            <button type="button" disabled={busy !== undefined} onClick={() => void reload()}>
              {busy === "loading" && <Spinner label="Loading" />}
              {dirty ? "Discard changes" : "Read again"}
            </button>
            {!canWrite && <span className="muted">You may read this file, not change it.</span>}
          </div>
        </>
      )}
    </section>
  )
}

/** The lead sentence above the API's own message for a file that cannot be opened. */
const refusalText = (error: unknown): string => {
  if (!(error instanceof ApiError)) return "This file could not be opened."
  if (error.status === 409 && /binary/i.test(error.message)) return "This file is not text (binary data): the editor opens text files only."
  if (error.status === 400 && /larger|too large|more than/i.test(error.message)) return "This file is too large to open in the editor (at most 2 MB)."
  if (error.status === 404) return "This file is not there any more."
  return "This file cannot be opened in the editor."
}
