/**
 * Two versions of a file, line by line (jsdiff's `diffLines`): removed lines
 * marked `-` and added lines `+` (in words for screen readers, and in
 * colour), a few unchanged lines around each change, longer unchanged runs
 * folded into "N unchanged lines".
 */
import { diffLines } from "diff"

interface Row {
  readonly kind: "same" | "added" | "removed"
  readonly text: string
}

/** Unchanged lines kept on each side of a change. */
const CONTEXT = 2

const linesOf = (value: string): ReadonlyArray<string> => {
  const lines = value.split(/\r?\n/)
  if (lines[lines.length - 1] === "") lines.pop()
  return lines
}

const rowsOf = (before: string, after: string): ReadonlyArray<Row> =>
  diffLines(before, after).flatMap((part) =>
    linesOf(part.value).map((text): Row => ({ kind: part.added ? "added" : part.removed ? "removed" : "same", text }))
  )

type Shown = Row | { readonly kind: "skip"; readonly count: number }

/** The rows with the unchanged runs far from any change folded. */
const folded = (rows: ReadonlyArray<Row>): ReadonlyArray<Shown> => {
  const near = rows.map((_, i) => rows.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((row) => row.kind !== "same"))
  const out: Array<Shown> = []
  rows.forEach((row, i) => {
    if (near[i]) return void out.push(row)
    const last = out[out.length - 1]
    if (last?.kind === "skip") out[out.length - 1] = { kind: "skip", count: last.count + 1 }
    else out.push({ kind: "skip", count: 1 })
  })
  return out
}

/** How many lines `before` → `after` removes and adds. */
export const countChanges = (before: string, after: string): { readonly added: number; readonly removed: number } => {
  const rows = rowsOf(before, after)
  return { added: rows.filter((r) => r.kind === "added").length, removed: rows.filter((r) => r.kind === "removed").length }
}

export const LineDiff = ({ before, after, label }: { readonly before: string; readonly after: string; readonly label: string }) => {
  const rows = rowsOf(before, after)
  const { added, removed } = countChanges(before, after)
  if (added + removed === 0) return <p className="muted">No line of the file changes.</p>
  return (
    <figure className="config-diff-figure">
      <figcaption>
        {label}: {removed} {removed === 1 ? "line" : "lines"} removed (−), {added} added (+)
      </figcaption>
      {/* Focusable: it scrolls, and a keyboard must reach what is out of view. */}
      <pre className="config-diff" tabIndex={0} role="group" aria-label={label}>
        {folded(rows).map((row, i) =>
          row.kind === "skip" ? (
            <span key={i} className="diff-skip">
              ⋯ {row.count} unchanged {row.count === 1 ? "line" : "lines"}
            </span>
          ) : row.kind === "added" ? (
            <ins key={i}>
              <span aria-hidden="true">+ </span>
              <span className="sr-only">Added: </span>
              {row.text}
            </ins>
          ) : row.kind === "removed" ? (
            <del key={i}>
              <span aria-hidden="true">− </span>
              <span className="sr-only">Removed: </span>
              {row.text}
            </del>
          ) : (
            <span key={i}>
              <span aria-hidden="true">{"  "}</span>
              {row.text}
            </span>
          )
        )}
      </pre>
    </figure>
  )
}
