/**
 * `ban.txt` as Garrison writes it: the owner's lines are kept byte for byte;
 * Garrison owns only the marked block, which holds exactly the active bans,
 * one id per line. Pure functions: the block is rendered once per sync and
 * merged into each server's file.
 */
import { PlayerIds } from "@garrison/runtime"

export const BEGIN_MARKER = "// BEGIN GARRISON BANS (managed: do not edit inside this block)"
export const END_MARKER = "// END GARRISON BANS"

/** How an id is written: Steam64 (default) or the 44-character DayZ ID. */
export type BanFileIdForm = "steam64" | "dayz"

/** The block, markers included, lines ending in `\n`, no newline after the end marker. */
export const renderBlock = (steam64Ids: ReadonlyArray<string>, form: BanFileIdForm): string => {
  const ids = form === "steam64" ? steam64Ids : steam64Ids.map((id) => PlayerIds.toDayzId(id as PlayerIds.Steam64))
  return ids.length === 0 ? `${BEGIN_MARKER}\n${END_MARKER}` : `${BEGIN_MARKER}\n${ids.join("\n")}\n${END_MARKER}`
}

/** A rendered block, encoded once per sync and shared by every server's file. */
export interface EncodedBlock {
  readonly lf: Buffer
  /** The same block with CRLF line ends, for files that use them (encoded on first use). */
  readonly crlf: () => Buffer
}

export const encodeBlock = (block: string): EncodedBlock => {
  let crlf: Buffer | undefined
  return {
    lf: Buffer.from(block, "latin1"),
    crlf: () => (crlf ??= Buffer.from(block.replace(/\n/g, "\r\n"), "latin1"))
  }
}

const BEGIN_BYTES = Buffer.from(BEGIN_MARKER, "latin1")
const END_BYTES = Buffer.from(END_MARKER, "latin1")
const LF = Buffer.from("\n")
const CRLF = Buffer.from("\r\n")

/**
 * The file with its block replaced by `block` (or appended when it has
 * none), as bytes: every byte outside the block is kept. A file using CRLF
 * gets a CRLF block. A begin marker without an end marker: the block runs
 * to the end of the file.
 */
export const mergeBlockBytes = (existing: Buffer, block: EncodedBlock): Buffer => {
  const crlf = existing.includes(CRLF)
  const body = crlf ? block.crlf() : block.lf
  const newline = crlf ? CRLF : LF
  const begin = existing.indexOf(BEGIN_BYTES)
  if (begin >= 0) {
    const end = existing.indexOf(END_BYTES, begin)
    const after = end >= 0 ? existing.subarray(end + END_BYTES.length) : newline
    return Buffer.concat([existing.subarray(0, begin), body, after])
  }
  const separator = existing.length === 0 || existing[existing.length - 1] === 0x0a ? [] : [newline]
  return Buffer.concat([existing, ...separator, body, newline])
}

/** `mergeBlockBytes` on latin1 text. */
export const mergeBlock = (existing: string, block: string): string =>
  mergeBlockBytes(Buffer.from(existing, "latin1"), encodeBlock(block)).toString("latin1")

/** Ids inside the block of a file (for tests and diagnostics). */
export const blockIds = (text: string): ReadonlyArray<string> => {
  const begin = text.indexOf(BEGIN_MARKER)
  if (begin < 0) return []
  const end = text.indexOf(END_MARKER, begin)
  return text
    .slice(begin + BEGIN_MARKER.length, end >= 0 ? end : undefined)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
}
