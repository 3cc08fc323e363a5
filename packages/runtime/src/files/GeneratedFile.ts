/**
 * A file Garrison generates into every server's install folder (`ban.txt`,
 * `priority.txt`, later whitelists and configs): what a plugin hands to
 * `ServerFileSync.register`. The plugin says how to render the content at a
 * given time, when it changed, and when it changes by itself (an expiry);
 * the sync decides when to write it and where.
 */
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** One rendering of a generated file, shared by every folder it is written into. */
export interface Rendered {
  /**
   * The bytes to write, given the bytes the file holds now (empty when it
   * does not exist). A file Garrison owns whole ignores them; one it shares
   * with the server's owner (ban.txt) merges into them.
   */
  readonly content: (existing: Uint8Array) => Uint8Array
  /**
   * True when `content` keeps bytes of the existing file: a file that
   * cannot be read then fails the write instead of being replaced. False:
   * Garrison owns the whole file and replaces whatever is there.
   */
  readonly keepsExisting: boolean
  /** How many entries (ids, lines) it holds, for reports. */
  readonly entries?: number
}

const encoder = new TextEncoder()

/** A file Garrison owns whole: these bytes (a string as UTF-8), whatever was there. */
export const whole = (content: Uint8Array | string, entries?: number): Rendered => {
  const bytes = typeof content === "string" ? encoder.encode(content) : content
  return { content: () => bytes, keepsExisting: false, ...(entries === undefined ? {} : { entries }) }
}

/** A file shared with its owner: `merge` turns what is there into what must be there. */
export const merged = (merge: (existing: Uint8Array) => Uint8Array, entries?: number): Rendered => ({
  content: merge,
  keepsExisting: true,
  ...(entries === undefined ? {} : { entries })
})

export interface GeneratedFile<E = never> {
  /** Where it goes, relative to each install folder (`ban.txt`). */
  readonly path: string
  /** The plugin that generates it, for messages (`bans`). */
  readonly owner: string
  /** The content at `now` (epoch ms, from the `Clock`). Rendered once per sync, for every folder. */
  readonly render: (now: number) => Effect.Effect<Rendered, E>
  /** Completes at the next change of what the file holds; called again after each. Absent: changes are only signalled through the handle. */
  readonly changed?: Effect.Effect<void>
  /** When the content next changes by itself (the next expiry) after `now`, if ever. */
  readonly nextChange?: (now: number) => Effect.Effect<Option.Option<number>, E>
  /** How long changes gather before one write. Default 200 ms. */
  readonly debounce?: Duration.DurationInput
  /** Largest existing file read (to merge, and to see whether anything changed). Default 64 MiB. */
  readonly maxBytes?: number
}

export interface FolderFailure {
  readonly installDir: string
  readonly message: string
}

/** What one sync of a generated file into every install folder did. */
export interface SyncReport {
  readonly path: string
  /** Install folders it went to (entries sharing one count once). */
  readonly folders: number
  readonly written: number
  /** Folders whose file already held exactly these bytes: not rewritten. */
  readonly unchanged: number
  /** Folders it could not be written into, with why; the others were written regardless. */
  readonly failed: ReadonlyArray<FolderFailure>
  /** `Rendered.entries` of the content written. */
  readonly entries: number | undefined
}

/** A generated file could not be written into an install folder (a start hook then refuses the start with it). */
export class ServerFileSyncError extends Schema.TaggedError<ServerFileSyncError>()("ServerFileSyncError", {
  /** The file (or files), relative to the install folder. */
  path: Schema.String,
  installDir: Schema.String,
  /** The plugin (or plugins) that generate it. */
  owner: Schema.String,
  message: Schema.String
}) {}

/** What a plugin keeps of its registration. */
export interface GeneratedFileHandle<E = never> {
  /** Renders now and writes into one install folder. */
  readonly writeFolder: (installDir: string) => Effect.Effect<void, E | ServerFileSyncError>
  /** Renders now and writes into every install folder; a folder that fails is reported (and logged), never stops the others. */
  readonly syncAll: Effect.Effect<SyncReport, E>
  /** Writes an already rendered content into these folders (no lock, no render: benchmarks and tests). */
  readonly writeAll: (installDirs: ReadonlyArray<string>, rendered: Rendered) => Effect.Effect<SyncReport>
  /** Says the content changed: a sync into every folder follows after the debounce. */
  readonly changed: Effect.Effect<void>
  /**
   * How many times the background writer has gone back to waiting (for a
   * change or the next expiry) after its work: once it has after a write,
   * nothing more is written until something wakes it. Tests wait for it
   * to prove a write did not happen, instead of sleeping.
   */
  readonly waits: Effect.Effect<number>
}
