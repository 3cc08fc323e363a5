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
  /** The whole lines read, decoded, line ends included (see `eachLine`). */
  readonly text: string
  /** The bytes `text` was decoded from. */
  readonly bytes: Buffer
  /** Where `text` starts in the file. */
  readonly offset: number
  /** Where the next read starts: after the last line end read (or past a line too long to keep). */
  readonly next: number
  /** The file's size when opened. */
  readonly size: number
}

/**
 * Each line of a read, without its line end (`\n` or `\r\n`) and the file's
 * byte-order mark, with the byte offset where it starts in the file. No
 * array of lines is made: a read holds a hundred thousand of them.
 */
export const eachLine = (read: LineRead, use: (line: string, offset: number) => void): void => {
  const { text, bytes } = read
  // Byte offsets follow the string's indexes while the text is ASCII; else the buffer's own line ends give them
  // (a UTF-8 sequence never holds the byte 0x0A).
  const ascii = text.length === bytes.length
  let start = 0
  let byteStart = 0
  while (start < text.length) {
    let stop = text.indexOf("\n", start)
    if (stop < 0) stop = text.length
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop
    const from = read.offset + byteStart === 0 && text.charCodeAt(start) === 0xfeff ? start + 1 : start
    use(text.slice(from, end), read.offset + byteStart)
    if (ascii) byteStart = stop + 1
    else {
      const byteStop = bytes.indexOf(NEWLINE, byteStart)
      byteStart = byteStop < 0 ? bytes.length : byteStop + 1
    }
    start = stop + 1
  }
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
      const nothing = (next: number, text = ""): LineRead => ({ text, bytes: EMPTY, offset, next, size })
      if (size <= offset) return nothing(Math.min(offset, size))
      let bytes = asBuffer(yield* file.read(offset, Math.min(size - offset, maxBytes)))
      let end = bytes.lastIndexOf(NEWLINE)
      // A read smaller than one line: read as far as the longest line may go.
      if (end < 0 && bytes.length < size - offset && bytes.length < MAX_LINE_BYTES) {
        bytes = asBuffer(yield* file.read(offset, Math.min(size - offset, MAX_LINE_BYTES)))
        end = bytes.lastIndexOf(NEWLINE)
      }
      const atEnd = offset + bytes.length >= size
      let usable = end + 1
      if (end < 0 || (final && atEnd)) {
        // No line end at all: a last line of a finished file, or one too long to be a line (skipped whole, as
        // one line the parser does not know).
        if (final && atEnd) usable = bytes.length
        else if (bytes.length >= MAX_LINE_BYTES) return { text: "\u0000", bytes: NUL, offset, next: offset + bytes.length, size }
        else return nothing(offset)
      }
      const chunk = bytes.subarray(0, usable)
      return { text: chunk.toString("utf8"), bytes: chunk, offset, next: offset + usable, size }
    })
  )

const EMPTY = Buffer.alloc(0)
const NUL = Buffer.from([0])
/** The bytes read, as a Buffer over the same memory (no copy of a read of megabytes). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
