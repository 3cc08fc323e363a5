/**
 * A backup as it is downloaded: a new zip, streamed as it is made, with the
 * game's secrets (`password`, `passwordAdmin`, `RConPassword`, by content:
 * the runtime's `maskSecrets`) replaced by the mask in every text file, and
 * the manifest saying which files were masked (`secretsMasked`) and vouching
 * for the masked bytes. The zip on disk stays whole, so a restore from it is
 * exact; a restore of a masked copy keeps the server's current values
 * (`restoreFiles`).
 *
 * Files larger than `MASK_SCAN_LIMIT` are passed through as they are: the
 * files that hold these secrets are a few kilobytes.
 */
import { maskSecrets, textOf } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import { Readable } from "node:stream"
import * as Yazl from "yazl"
import { decodeManifest, encodeManifest, entryName, MANIFEST_NAME, type Manifest, MAX_MANIFEST_BYTES } from "./manifest.js"
import { COMPRESSION_LEVEL } from "./zipWrite.js"
import { openZip, readEntry, ZipRefused } from "./zipRead.js"

/** Text files up to this size are looked at for secrets. */
export const MASK_SCAN_LIMIT = 4 * 1024 * 1024

type MaskedFile = NonNullable<Manifest["secretsMasked"]>[number]

const wholeOf = async (pieces: AsyncIterable<Uint8Array>): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const piece of pieces) chunks.push(Buffer.from(piece))
  return Buffer.concat(chunks)
}

/** The zip at `path`, its secrets masked, as a stream of bytes; the backup must carry a readable manifest. */
export const maskedZip = (path: string): Stream.Stream<Uint8Array, ZipRefused> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const zip = yield* openZip(path)
      const manifestText = new TextDecoder().decode(yield* readEntry(zip, MANIFEST_NAME, MAX_MANIFEST_BYTES))
      const decoded = decodeManifest(manifestText)
      if (decoded._tag === "Left") return yield* new ZipRefused({ entry: MANIFEST_NAME, message: "its manifest does not read: the backup cannot be downloaded masked" })
      const manifest = decoded.right
      const masked: Array<MaskedFile> = []
      const vouched = new Map<string, { readonly size: number; readonly sha256: string }>()
      const out = new Yazl.ZipFile()
      // A failing entry fails the whole copy: yazl passes nothing on by itself.
      const failing = (stream: Readable) => stream.on("error", (error) => (out.outputStream as Readable).destroy(error))
      for (const folder of manifest.folders) out.addEmptyDirectory(entryName(folder.root, folder.path), { mtime: new Date(manifest.createdAt) })
      for (const file of manifest.files) {
        const name = entryName(file.root, file.path)
        const options = { mtime: new Date(file.modified), mode: 0o100644, compressionLevel: COMPRESSION_LEVEL }
        if (file.size > MASK_SCAN_LIMIT) {
          out.addReadStreamLazy(name, options, (callback) => callback(null, failing(Readable.from(zip.pieces(name)))))
          continue
        }
        out.addReadStreamLazy(name, options, (callback) => {
          const content = (async function* () {
            const bytes = await wholeOf(zip.pieces(name))
            const text = textOf(bytes)
            const shown = text === undefined ? undefined : maskSecrets(text)
            if (shown === undefined || shown.masked.length === 0) {
              yield bytes
              return
            }
            const replaced = Buffer.from(shown.text, "utf8")
            masked.push({ root: file.root, path: file.path, keys: [...new Set(shown.masked)] })
            vouched.set(name, { size: replaced.byteLength, sha256: createHash("sha256").update(replaced).digest("hex") })
            yield replaced
          })()
          callback(null, failing(Readable.from(content)))
        })
      }
      // Last, once every file went through: the manifest vouches for the bytes this zip holds.
      out.addReadStreamLazy(MANIFEST_NAME, { mtime: new Date(manifest.createdAt), mode: 0o100644, compressionLevel: COMPRESSION_LEVEL }, (callback) => {
        const files = manifest.files.map((file) => ({ ...file, ...vouched.get(entryName(file.root, file.path)) }))
        const totalBytes = files.reduce((sum, file) => sum + file.size, 0)
        callback(null, Readable.from([Buffer.from(encodeManifest({ ...manifest, files, totalBytes, secretsMasked: masked }), "utf8")]))
      })
      out.end()
      return Stream.fromAsyncIterable(out.outputStream as AsyncIterable<Uint8Array>, (error) =>
        error instanceof ZipRefused ? error : new ZipRefused({ entry: null, message: `the masked copy could not be made (${String(error)})` })
      )
    })
  )
