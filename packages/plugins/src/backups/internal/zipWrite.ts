/**
 * Writing a backup's zip as a stream (yazl): one file at a time is read
 * (through the server's confined files, or a snapshot the caller made),
 * hashed and deflated on its way out, so a backup of gigabytes holds a few
 * megabytes at a time. The manifest goes last, built once every file has
 * been read: its sizes and checksums are those of the bytes in the zip.
 */
import * as Effect from "effect/Effect"
import * as EffectRuntime from "effect/Runtime"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import * as Yazl from "yazl"
import type { ConfinedFileError, ServerFiles } from "@garrison/runtime"

/** zlib's level, the same as gzip's default (`tar -czf`). */
export const COMPRESSION_LEVEL = 6
const PIECE = 1024 * 1024

/** One file of the zip. */
export interface ZipSource {
  readonly name: string
  readonly modified: Date
  /** The bytes, a piece at a time; opened only when the writer reaches this file. */
  readonly pieces: () => AsyncIterable<Uint8Array>
}

export interface ZippedFile {
  readonly name: string
  readonly size: number
  readonly sha256: string
}

/** A failure of a source, carried through the streams and given back as itself. */
class SourceFailed extends Error {
  constructor(readonly error: ConfinedFileError) {
    super(error.message)
  }
}

/**
 * The pieces of `path` in `files`, read through one proven descriptor. The
 * zip's streams pull them outside any fiber: they run with `runtime`, the
 * caller's (`Effect.runtime()`), so its context, clock and logger hold.
 */
export const confinedPieces = (files: ServerFiles.ServerFiles, path: string, runtime: EffectRuntime.Runtime<never>) =>
  async function* (): AsyncGenerator<Uint8Array> {
    const scope = EffectRuntime.runSync(runtime)(Scope.make())
    const run = <A>(effect: Effect.Effect<A, ConfinedFileError>) =>
      EffectRuntime.runPromise(runtime)(Effect.either(effect)).then((result) => {
        if (result._tag === "Left") throw new SourceFailed(result.left)
        return result.right
      })
    try {
      const file = await run(Scope.extend(files.open(path), scope))
      for (let position = 0; ; ) {
        const piece = await run(file.read(position, PIECE))
        if (piece.byteLength === 0) return
        position += piece.byteLength
        yield piece
      }
    } finally {
      await EffectRuntime.runPromise(runtime)(Scope.close(scope, Exit.void))
    }
  }

/** The pieces of a file of the caller's own (a snapshot). */
export const localPieces = (path: string) =>
  async function* (): AsyncGenerator<Uint8Array> {
    for await (const piece of Fs.createReadStream(path, { highWaterMark: PIECE })) yield piece as Buffer
  }

const asBuffer = (piece: Uint8Array): Buffer => (Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength))

export interface WriteZipInput {
  readonly folders: ReadonlyArray<{ readonly name: string; readonly modified: Date }>
  readonly files: ReadonlyArray<ZipSource>
  /** The last entry, made once every file is in. */
  readonly last: { readonly name: string; readonly content: (files: ReadonlyArray<ZippedFile>) => string }
  /** A new file; on failure it is removed. */
  readonly output: string
  /** Bytes read so far, after each piece. */
  readonly onBytes: (bytes: number) => void
}

/**
 * Writes the zip to `output` and syncs it. Interrupting it stops the
 * streams and removes the partial file.
 */
export const writeZip = (input: WriteZipInput): Effect.Effect<ReadonlyArray<ZippedFile>, ConfinedFileError | Error> =>
  Effect.async<ReadonlyArray<ZippedFile>, ConfinedFileError | Error>((resume, signal) => {
    const zipped: Array<ZippedFile> = []
    let bytes = 0
    const zip = new Yazl.ZipFile()
    const output = zip.outputStream as Readable
    for (const folder of input.folders) zip.addEmptyDirectory(folder.name, { mtime: folder.modified })
    for (const source of input.files) {
      zip.addReadStreamLazy(source.name, { mtime: source.modified, mode: 0o100644, compressionLevel: COMPRESSION_LEVEL }, (callback) => {
        const hash = createHash("sha256")
        let size = 0
        const counted = async function* () {
          for await (const piece of source.pieces()) {
            hash.update(piece)
            size += piece.byteLength
            bytes += piece.byteLength
            input.onBytes(bytes)
            yield asBuffer(piece)
          }
          zipped.push({ name: source.name, size, sha256: hash.digest("hex") })
        }
        const stream = Readable.from(counted(), { objectMode: false })
        // A failing source fails the zip: yazl passes the stream's error on to its output.
        stream.on("error", (error) => output.destroy(error))
        callback(null, stream)
      })
    }
    zip.addReadStreamLazy(input.last.name, { mtime: new Date(), mode: 0o100644, compressionLevel: COMPRESSION_LEVEL }, (callback) =>
      callback(null, Readable.from([Buffer.from(input.last.content(zipped), "utf8")]))
    )
    zip.end()
    const written = (async () => {
      const out = Fs.createWriteStream(input.output, { flags: "wx", mode: 0o600 })
      await pipeline(output, out, { signal })
      const handle = await Fs.promises.open(input.output, "r+")
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    })()
    written.then(
      () => resume(Effect.succeed(zipped)),
      (error: unknown) => {
        Fs.rmSync(input.output, { force: true })
        const cause = error instanceof SourceFailed ? error.error : error instanceof Error && error.cause instanceof SourceFailed ? error.cause.error : error
        resume(Effect.fail(cause instanceof Error ? cause : new Error(String(cause))))
      }
    )
    return Effect.sync(() => {
      output.destroy()
      Fs.rmSync(input.output, { force: true })
    })
  })
