/**
 * `FileEditor`: the text files of a server's install folder, through its
 * confined `ServerFiles` (every path relative to the install folder; `..`
 * out of it, absolute paths, NUL, lone surrogates and symbolic links
 * leading out are refused before anything is opened, and what is opened is
 * proven to be what was checked). Text only: a file with NUL bytes or
 * that is not UTF-8 is listed but not read. Writes are atomic and can be
 * made conditional on the version read (ETag).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import {
  BadRequest,
  Conflict,
  type ConfinedFileError,
  confinedFileHttpError,
  type ConfinedFileHttpError,
  etagMatches,
  etagOf,
  PreconditionFailed,
  relativeSegments,
  type ServerNotFound,
  type ServerUnreadable
} from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { FileContent, FileEntry, FileList, FileWritten, MAX_EDIT_BYTES, type WriteInput } from "./contract/Api.js"

type Lookup = ServerNotFound | ServerUnreadable
type Refused = ConfinedFileHttpError | BadRequest | Conflict

export interface FileEditorShape {
  readonly list: (serverId: string, path: string) => Effect.Effect<FileList, Lookup | Refused>
  readonly read: (serverId: string, path: string) => Effect.Effect<FileContent, Lookup | Refused>
  readonly write: (serverId: string, input: WriteInput, ifMatch: string | undefined) => Effect.Effect<FileWritten, Lookup | Refused | PreconditionFailed>
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The text of a file, or undefined when it is not text (NUL bytes, or not UTF-8). */
export const textOf = (bytes: Uint8Array): string | undefined => {
  if (bytes.includes(0)) return undefined
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** The path as the editor names it: `a/b/c.txt` (`""` for the install folder), or why it is refused. */
const normalized = (path: string, allowRoot: boolean) =>
  Either.match(relativeSegments(path, { allowRoot }), {
    onLeft: (reason) => Effect.fail(new BadRequest({ message: `path: ${JSON.stringify(path.slice(0, 200))} ${reason}`, details: [{ path: "path", message: reason }] })),
    onRight: (segments) => Effect.succeed(segments.join("/"))
  })

const fileError = (error: ConfinedFileError) => confinedFileHttpError(error)

export class FileEditor extends Context.Tag("@garrison/plugins/FileEditor")<FileEditor, FileEditorShape>() {
  static readonly layer: Layer.Layer<FileEditor, never, Servers> = Layer.effect(
    FileEditor,
    Effect.gen(function* () {
      const servers = yield* Servers
      // One write at a time, so a version check and its write are not split by another write of ours.
      const writes = yield* Effect.makeSemaphore(1)

      const list: FileEditorShape["list"] = (serverId, path) =>
        Effect.gen(function* () {
          const folder = yield* normalized(path, true)
          const handle = yield* servers.get(serverId)
          const entries = yield* handle.files.list(folder).pipe(Effect.catchAll(fileError))
          const items = entries
            .map(
              (e) =>
                new FileEntry({
                  name: e.name,
                  path: folder === "" ? e.name : `${folder}/${e.name}`,
                  kind: e.kind === "file" || e.kind === "folder" || e.kind === "symlink" ? e.kind : "other",
                  size: e.size,
                  modified: e.modified.toISOString()
                })
            )
            .sort((a, b) => (a.kind === "folder") !== (b.kind === "folder") ? (a.kind === "folder" ? -1 : 1) : a.name.localeCompare(b.name))
          return new FileList({ path: folder, items, nextCursor: null })
        })

      const read: FileEditorShape["read"] = (serverId, path) =>
        Effect.gen(function* () {
          const file = yield* normalized(path, false)
          const handle = yield* servers.get(serverId)
          const info = yield* handle.files.stat(file).pipe(Effect.catchAll(fileError))
          const bytes = yield* handle.files.read(file, { maxBytes: MAX_EDIT_BYTES }).pipe(Effect.catchAll(fileError))
          const text = textOf(bytes)
          if (text === undefined) {
            return yield* new Conflict({ message: `path: ${JSON.stringify(file)} is a binary file: the editor reads text files only`, details: { binary: true } })
          }
          return new FileContent({ path: file, content: text, size: bytes.byteLength, modified: info.modified.toISOString(), etag: etagOf(bytes) })
        })

      const write: FileEditorShape["write"] = (serverId, input, ifMatch) =>
        writes.withPermits(1)(
          Effect.gen(function* () {
            const file = yield* normalized(input.path, false)
            if (file.split("/")[0]!.toLowerCase() === ".garrison") {
              return yield* new BadRequest({ message: "path: .garrison is Garrison's own folder (mod staging, kept versions): not written through the editor", details: [{ path: "path", message: "is Garrison's own folder" }] })
            }
            const bytes = new TextEncoder().encode(input.content)
            if (bytes.byteLength > MAX_EDIT_BYTES) {
              return yield* new BadRequest({ message: `content is ${bytes.byteLength} bytes, more than the editor's ${MAX_EDIT_BYTES}`, details: [{ path: "content", message: "too large" }] })
            }
            if (bytes.includes(0)) {
              return yield* new BadRequest({ message: "content holds a NUL character: the editor writes text files only", details: [{ path: "content", message: "holds a NUL character" }] })
            }
            const handle = yield* servers.get(serverId)
            const current = yield* handle.files.read(file, { maxBytes: MAX_EDIT_BYTES }).pipe(
              Effect.map((b) => b as Uint8Array | undefined),
              Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined)),
              Effect.catchAll(fileError)
            )
            const expected = input.etag ?? ifMatch
            if (expected !== undefined && (current === undefined || !etagMatches(expected, etagOf(current)))) {
              return yield* new PreconditionFailed({
                message: current === undefined ? `path: ${JSON.stringify(file)} no longer exists` : `path: ${JSON.stringify(file)} changed since you read it: read it again and redo the change`,
                details: { etag: current === undefined ? null : etagOf(current) }
              })
            }
            yield* handle.files.write(file, bytes).pipe(Effect.catchAll(fileError))
            const info = yield* handle.files.stat(file).pipe(Effect.catchAll(fileError))
            return new FileWritten({ path: file, size: bytes.byteLength, modified: info.modified.toISOString(), etag: etagOf(bytes), created: current === undefined })
          })
        )

      return FileEditor.of({ list, read, write })
    })
  )
}
