/**
 * A code editor: CodeMirror 6 (`basicSetup`: line numbers, undo, bracket
 * matching, folding, Ctrl-F search with its panel, ...), coloured for XML,
 * JSON or DayZ's cfg syntax, light or dark with the app's theme.
 *
 * Heavy (CodeMirror is ~150 KB): pages load it lazily, never from the shell,
 * so it stays out of the first load:
 *
 * ```tsx
 * const CodeEditor = lazy(() => import("@dashboard/ui/CodeEditor.js"))
 * <Suspense fallback={<Spinner label="Loading the editor" />}>
 *   <CodeEditor value={text} onChange={setText} language="xml" label="Contents of types.xml" />
 * </Suspense>
 * ```
 *
 * Props:
 * - `value`: the text. The editor shows it when it first opens and whenever
 *   it differs from what the editor holds (a file read again); typing does
 *   not wait for it.
 * - `onChange(text)`: called on every change the user makes.
 * - `language`: "xml" | "json" | "cfg" (serverDZ.cfg's C-like syntax) | "text" (default).
 * - `readOnly`: shown, searchable and selectable, not editable.
 * - `label`: the accessible name of the editing area (screen readers, axe).
 * - `height`: the box's CSS height (default "60vh"); the text scrolls inside.
 *
 * The editor lives in a shadow root attached to its box: CodeMirror adds its
 * styles at run time, and there they go into an adopted style sheet, which
 * the controller's Content-Security-Policy (`style-src 'self'`, no inline
 * `<style>`) allows. The app's colour variables still reach it.
 */
import { basicSetup } from "codemirror"
import { Compartment, EditorState } from "@codemirror/state"
import { EditorView } from "@codemirror/view"
import { useEffect, useRef, useState } from "react"
import { systemTheme } from "../app/theme.js"
import { appearance, type CodeLanguage, languageExtension } from "./codeEditorSetup.js"

export type { CodeLanguage } from "./codeEditorSetup.js"

export interface CodeEditorProps {
  readonly value: string
  readonly onChange?: (value: string) => void
  readonly language?: CodeLanguage
  readonly readOnly?: boolean
  readonly label: string
  readonly height?: string
}

/** Whether the app shows its dark theme now: the toggle's choice (`data-theme`), else the system's. */
const appIsDark = (): boolean => (document.documentElement.dataset["theme"] ?? systemTheme()) === "dark"

/** The app's theme, followed as the toggle or the system changes it. */
const useAppDark = (): boolean => {
  const [dark, setDark] = useState(appIsDark)
  useEffect(() => {
    const update = () => setDark(appIsDark())
    const observer = new MutationObserver(update)
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] })
    const media = window.matchMedia("(prefers-color-scheme: dark)")
    media.addEventListener("change", update)
    return () => {
      observer.disconnect()
      media.removeEventListener("change", update)
    }
  }, [])
  return dark
}

/**
 * The editing area's name, and a tab stop (`tabindex` 0) even when read
 * only, so its text can be reached, selected and searched from the keyboard,
 * and its scrolling box counts as keyboard-reachable.
 */
const contentAttributes = (label: string) => EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" })

const editable = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]

const CodeEditor = ({ value, onChange, language = "text", readOnly = false, label, height = "60vh" }: CodeEditorProps) => {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | undefined>(undefined)
  const dark = useAppDark()
  // Each option can change without rebuilding the editor (and losing its undo history).
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment(), label: new Compartment(), dark: new Compartment(), look: new Compartment() })
  const latest = useRef({ onChange, value, language, readOnly, label, height, dark })
  latest.current = { onChange, value, language, readOnly, label, height, dark }

  useEffect(() => {
    const box = host.current
    if (box === null) return
    const shadow = box.shadowRoot ?? box.attachShadow({ mode: "open" })
    const parent = document.createElement("div")
    shadow.replaceChildren(parent)
    const c = compartments.current
    const now = latest.current
    const editor = new EditorView({
      parent,
      root: shadow,
      state: EditorState.create({
        doc: now.value,
        extensions: [
          basicSetup,
          c.language.of(languageExtension(now.language)),
          c.readOnly.of(editable(now.readOnly)),
          c.label.of(contentAttributes(now.label)),
          c.dark.of(EditorView.darkTheme.of(now.dark)),
          c.look.of(appearance(now.height)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange?.(update.state.doc.toString())
          })
        ]
      })
    })
    view.current = editor
    return () => {
      editor.destroy()
      view.current = undefined
      shadow.replaceChildren()
    }
  }, [])

  // A new value from outside (a file read again) replaces the text; the user's own typing already matches it.
  useEffect(() => {
    const editor = view.current
    if (editor === undefined || editor.state.doc.toString() === value) return
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  useEffect(() => {
    const c = compartments.current
    view.current?.dispatch({
      effects: [
        c.language.reconfigure(languageExtension(language)),
        c.readOnly.reconfigure(editable(readOnly)),
        c.label.reconfigure(contentAttributes(label)),
        c.dark.reconfigure(EditorView.darkTheme.of(dark)),
        c.look.reconfigure(appearance(height))
      ]
    })
  }, [language, readOnly, label, dark, height])

  return <div ref={host} className="code-editor" />
}

export default CodeEditor
