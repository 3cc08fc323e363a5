/**
 * What `CodeEditor` gives CodeMirror: the languages, the look, and the
 * colours of the code. Imported only by `CodeEditor.tsx`, so it loads with
 * the editor's lazy chunk, never in the first load.
 *
 * Every colour is a CSS variable of `styles.css` (`--surface`, `--text`,
 * `--code-*`, ...): they cross into the editor's shadow root, so the editor
 * follows the app's light or dark theme by itself; `EditorView.darkTheme`
 * (set by `CodeEditor`) only tells CodeMirror's own defaults (selection,
 * cursor) which of their two looks to use.
 */
import { json } from "@codemirror/lang-json"
import { xml } from "@codemirror/lang-xml"
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from "@codemirror/language"
import { clike } from "@codemirror/legacy-modes/mode/clike"
import type { Extension } from "@codemirror/state"
import { EditorView } from "@codemirror/view"
import { tags } from "@lezer/highlight"

/** The languages the editor colours; "text" is plain. */
export type CodeLanguage = "xml" | "json" | "cfg" | "text"

/**
 * DayZ's config syntax (`serverDZ.cfg`, `init.c`-like files): C-like
 * assignments, `class X { ... };` blocks, `//` and `/* *\/` comments.
 */
const cfg = StreamLanguage.define(
  clike({
    name: "cfg",
    keywords: { class: true, delete: true, enum: true, void: true, return: true, if: true, else: true, for: true, while: true },
    blockKeywords: { class: true, if: true, else: true, for: true, while: true },
    atoms: { true: true, false: true, null: true, NULL: true }
  })
)

export const languageExtension = (language: CodeLanguage): Extension => {
  switch (language) {
    case "xml":
      return xml()
    case "json":
      return json()
    case "cfg":
      return cfg
    case "text":
      return []
  }
}

/** Code colours from `--code-*` (each readable on `--surface` in both themes). */
const codeColours = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string), tags.attributeValue, tags.regexp], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.atom, tags.null, tags.literal], color: "var(--code-number)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment, tags.meta, tags.processingInstruction], color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.tagName, tags.typeName, tags.className, tags.angleBracket], color: "var(--code-tag)" },
  { tag: [tags.attributeName, tags.propertyName, tags.definition(tags.propertyName), tags.definition(tags.variableName)], color: "var(--code-attribute)" },
  { tag: tags.invalid, color: "var(--danger)", textDecoration: "underline" }
])

/** Targets in the search panel at least 24 px (WCAG 2.2 target size), focus rings like the app's. */
const TARGET = { minHeight: "24px", minWidth: "24px" }

const look = (height: string) =>
  EditorView.theme({
    "&": { height, backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)", borderRadius: "var(--radius)" },
    "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
    ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', fontSize: "0.9rem", lineHeight: "1.5", overflow: "auto" },
    ".cm-content": { caretColor: "var(--text)" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
    ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
    ".cm-activeLine": { backgroundColor: "var(--code-active-line)" },
    ".cm-activeLineGutter": { backgroundColor: "var(--code-active-line)", color: "var(--text)" },
    ".cm-searchMatch": { backgroundColor: "var(--code-match)", outline: "1px solid var(--code-match-border)" },
    ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--code-match-selected)", outline: "2px solid var(--code-match-border)" },
    ".cm-selectionMatch": { backgroundColor: "var(--code-match)" },
    ".cm-panels": { backgroundColor: "var(--surface-2)", color: "var(--text)" },
    ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--border)" },
    ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
    ".cm-panel.cm-search": { display: "flex", flexWrap: "wrap", alignItems: "center", gap: "6px", padding: "6px 32px 6px 8px", fontSize: "0.85rem" },
    ".cm-panel.cm-search br": { display: "none" },
    ".cm-panel.cm-search label": { display: "inline-flex", alignItems: "center", gap: "4px", fontSize: "inherit", ...TARGET },
    ".cm-panel.cm-search input[type=checkbox]": { width: "18px", height: "18px", margin: "0" },
    ".cm-panel.cm-search [name=close]": { ...TARGET, top: "4px", right: "4px", fontSize: "20px", lineHeight: "1", color: "var(--text)", cursor: "pointer" },
    ".cm-textfield": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)", borderRadius: "4px", fontSize: "inherit", padding: "2px 6px", margin: "0", ...TARGET },
    ".cm-button": {
      backgroundImage: "none",
      backgroundColor: "var(--surface)",
      color: "var(--text)",
      border: "1px solid var(--border)",
      borderRadius: "4px",
      fontSize: "inherit",
      padding: "2px 8px",
      margin: "0",
      cursor: "pointer",
      ...TARGET
    },
    ".cm-button:active": { backgroundImage: "none", backgroundColor: "var(--surface-2)" },
    ".cm-textfield:focus-visible, .cm-button:focus-visible, .cm-panel input:focus-visible, .cm-panel button:focus-visible": {
      outline: "3px solid var(--focus)",
      outlineOffset: "1px"
    },
    ".cm-tooltip": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)" },
    ".cm-foldPlaceholder": { backgroundColor: "var(--surface-2)", color: "var(--text)", border: "1px solid var(--border)" }
  })

/** One look per height: each theme adds its rules to the page once and for good, so they are made once. */
const looks = new Map<string, Extension>()

/** The editor's look and code colours, the box `height` tall (CSS). */
export const appearance = (height: string): Extension => {
  let made = looks.get(height)
  if (made === undefined) {
    made = [look(height), syntaxHighlighting(codeColours)]
    looks.set(height, made)
  }
  return made
}
