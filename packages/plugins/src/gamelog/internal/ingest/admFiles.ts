/**
 * A server's admin logs in its profiles folder, oldest first, and reads of
 * whole lines from one of them. Everything goes through the folder's
 * `ServerFiles`, so a log that is a symlink or anything but a regular file
 * is never read.
 */
import * as Effect from "effect/Effect"
import { inLogFolder, type LogFolder } from "@garrison/runtime"
import { stampOfFileName } from "./lineClock.js"

export interface AdmFile {
  readonly name: string
  readonly size: number
  /** Its order: the time in its name, else its modification time. */
  readonly order: number
  readonly modifiedMs: number
}

export const isAdmName = (name: string) => name.toUpperCase().endsWith(".ADM")

/** The folder's `.ADM` files, oldest first. Fails when the folder cannot be listed. */
export const listAdmFiles = (logs: LogFolder) =>
  Effect.map(logs.files.list(logs.folder), (entries): ReadonlyArray<AdmFile> =>
    entries
      .filter((entry) => entry.kind === "file" && isAdmName(entry.name))
      .map((entry) => ({ name: entry.name, size: entry.size, order: stampOfFileName(entry.name) ?? entry.modified.getTime(), modifiedMs: entry.modified.getTime() }))
      .sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  )

export interface LineRead {
  /** Each whole line (no line end) with the byte offset where it starts. */
  readonly lines: ReadonlyArray<{ readonly text: string; readonly offset: number }>
  /** Where the next read starts: after the last line end read (or past a line too long to keep). */
  readonly next: number
  /** The file's size when opened. */
  readonly size: number
}

/** A "line" longer than this is not an admin-log line: it is skipped (counted unknown by the caller). */
export const MAX_LINE_BYTES = 64 * 1024

const NEWLINE = 0x0a

/**
 * Whole lines from `offset`, at most `maxBytes` of them. `final`: the file
 * is done (a newer log exists), so a last line without a line end counts.
 */
export const readLines = (logs: LogFolder, name: string, offset: number, maxBytes: number, final: boolean) =>
  Effect.scoped(
    Effect.gen(function* () {
      const file = yield* logs.files.open(inLogFolder(logs, name))
      const size = file.size
      if (size <= offset) return { lines: [], next: Math.min(offset, size), size } satisfies LineRead
      let bytes = Buffer.from(yield* file.read(offset, Math.min(size - offset, maxBytes)))
      let end = bytes.lastIndexOf(NEWLINE)
      // A read smaller than one line: read as far as the longest line may go.
      if (end < 0 && bytes.length < size - offset && bytes.length < MAX_LINE_BYTES) {
        bytes = Buffer.from(yield* file.read(offset, Math.min(size - offset, MAX_LINE_BYTES)))
        end = bytes.lastIndexOf(NEWLINE)
      }
      const atEnd = offset + bytes.length >= size
      let usable = end + 1
      if (end < 0 || (final && atEnd)) {
        // No line end at all: a last line of a finished file, or one too long to be a line (skipped whole).
        if (final && atEnd) usable = bytes.length
        else if (bytes.length >= MAX_LINE_BYTES) return { lines: [{ text: "\u0000", offset }], next: offset + bytes.length, size } satisfies LineRead
        else return { lines: [], next: offset, size } satisfies LineRead
      }
      const chunk = bytes.subarray(0, usable)
      const text = chunk.toString("utf8")
      const ascii = text.length === chunk.length
      const lines: Array<{ text: string; offset: number }> = []
      let start = 0
      let byteStart = offset
      while (start < text.length) {
        let stop = text.indexOf("\n", start)
        if (stop < 0) stop = text.length
        let line = text.slice(start, stop)
        if (line.endsWith("\r")) line = line.slice(0, -1)
        if (byteStart === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1)
        lines.push({ text: line, offset: byteStart })
        byteStart += ascii ? stop + 1 - start : Buffer.byteLength(text.slice(start, stop + 1))
        start = stop + 1
      }
      return { lines, next: offset + usable, size } satisfies LineRead
    })
  )
