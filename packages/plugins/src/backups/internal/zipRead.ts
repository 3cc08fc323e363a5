/**
 * Reading a backup's zip without unpacking it (yauzl): the central
 * directory gives every entry's name, kind and sizes; one entry at a time
 * is inflated as a stream. yauzl is opened strict: an entry name that is
 * absolute, climbs out with `..` or uses backslashes fails the whole zip,
 * and an entry whose inflated bytes differ from its declared size fails as
 * it is read. What a name or an entry's kind may be beyond that is the
 * restore's call (`checkArchive`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { Readable } from "node:stream"
import * as Yauzl from "yauzl"
import { errorMessage } from "@garrison/runtime"

/** More entries than any game server's backup has: a zip with more is refused before it is listed whole. */
export const MAX_ENTRIES = 500_000

/** Why a zip cannot be read or used, naming the entry when one is at fault. */
export class ZipRefused extends Schema.TaggedError<ZipRefused>()("ZipRefused", {
  entry: Schema.NullOr(Schema.String),
  message: Schema.String
}) {}

export type EntryKind = "file" | "folder" | "symlink" | "other"

export interface ZipEntryInfo {
  readonly name: string
  readonly kind: EntryKind
  readonly size: number
  readonly compressedSize: number
  readonly modified: Date
  readonly encrypted: boolean
}

export interface OpenedZip {
  readonly entries: ReadonlyArray<ZipEntryInfo>
  /** The inflated bytes of one entry, a piece at a time. */
  readonly pieces: (name: string) => AsyncIterable<Uint8Array>
}

const S_IFMT = 0o170000
const kindOf = (entry: Yauzl.Entry): EntryKind => {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT
  if (type === 0o120000) return "symlink"
  if (entry.fileName.endsWith("/") || type === 0o040000) return "folder"
  return type === 0 || type === 0o100000 ? "file" : "other"
}

/** yauzl's words for a bad name ("invalid relative path: ../x"), with the entry picked out. */
const refusalOf = (error: unknown): ZipRefused => {
  const message = errorMessage(error)
  const named = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message)
  return new ZipRefused({ entry: named?.[1] ?? null, message: named === null ? `not a readable zip (${message})` : `entry "${named[1]}" ${message.startsWith("absolute") ? "is an absolute path" : message.startsWith("invalid characters") ? "has a backslash or other character a path may not have" : "leaves its folder"}` })
}

const openFile = (path: string) =>
  Effect.async<Yauzl.ZipFile, ZipRefused>((resume) => {
    Yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true, decodeStrings: true }, (error, zip) => {
      if (error !== null || zip === undefined) resume(Effect.fail(refusalOf(error)))
      else resume(Effect.succeed(zip))
    })
  })

const listEntries = (zip: Yauzl.ZipFile) =>
  Effect.async<ReadonlyArray<Yauzl.Entry>, ZipRefused>((resume) => {
    if (zip.entryCount > MAX_ENTRIES) {
      resume(Effect.fail(new ZipRefused({ entry: null, message: `holds ${zip.entryCount} entries, more than the ${MAX_ENTRIES} a backup may have` })))
      return
    }
    const entries: Array<Yauzl.Entry> = []
    const done = (outcome: Effect.Effect<ReadonlyArray<Yauzl.Entry>, ZipRefused>) => {
      zip.removeAllListeners("entry")
      zip.removeAllListeners("end")
      zip.removeAllListeners("error")
      zip.on("error", () => undefined)
      resume(outcome)
    }
    zip.on("entry", (entry: Yauzl.Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.on("end", () => done(Effect.succeed(entries)))
    zip.on("error", (error) => done(Effect.fail(refusalOf(error))))
    zip.readEntry()
  })

const readStream = (zip: Yauzl.ZipFile, entry: Yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error !== null || stream === undefined ? reject(error ?? new Error("no stream")) : resolve(stream))))

/** Opens the zip at `path` and reads its central directory; closed with the scope. */
export const openZip = (path: string): Effect.Effect<OpenedZip, ZipRefused, Scope.Scope> =>
  Effect.gen(function* () {
    const zip = yield* Effect.acquireRelease(openFile(path), (z) => Effect.sync(() => z.close()))
    const raw = yield* listEntries(zip)
    const byName = new Map<string, Yauzl.Entry>()
    for (const entry of raw) {
      if (byName.has(entry.fileName)) return yield* new ZipRefused({ entry: entry.fileName, message: `entry "${entry.fileName}" is in the zip twice` })
      byName.set(entry.fileName, entry)
    }
    return {
      entries: raw.map((entry) => ({
        name: entry.fileName,
        kind: kindOf(entry),
        size: entry.uncompressedSize,
        compressedSize: entry.compressedSize,
        modified: entry.getLastModDate(),
        encrypted: entry.isEncrypted()
      })),
      pieces: (name) => ({
        async *[Symbol.asyncIterator]() {
          const entry = byName.get(name)
          if (entry === undefined) throw new ZipRefused({ entry: name, message: `entry "${name}" is not in the zip` })
          const stream = await readStream(zip, entry)
          try {
            for await (const piece of stream) yield piece as Buffer
          } catch (error) {
            throw new ZipRefused({ entry: name, message: `entry "${name}" cannot be unpacked (${errorMessage(error)})` })
          } finally {
            stream.destroy()
          }
        }
      })
    }
  })

/** An entry's whole content (the manifest), at most `maxBytes`. */
export const readEntry = (zip: OpenedZip, name: string, maxBytes: number): Effect.Effect<Uint8Array, ZipRefused> =>
  Effect.tryPromise({
    try: async () => {
      const chunks: Array<Uint8Array> = []
      let total = 0
      for await (const piece of zip.pieces(name)) {
        total += piece.byteLength
        if (total > maxBytes) throw new ZipRefused({ entry: name, message: `entry "${name}" is larger than ${maxBytes} bytes` })
        chunks.push(piece)
      }
      return Buffer.concat(chunks)
    },
    catch: (error) => (error instanceof ZipRefused ? error : new ZipRefused({ entry: name, message: String(error) }))
  })
