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
import * as NodePath from "node:path"
import {
  type ConfinedFileError,
  etagMatches,
  etagOf,
  maskSecrets,
  VersionMismatch,
  relativeSegments,
  type ServerEntry,
  type ServerFiles,
  type ServerNotFound,
  type ServerUnreadable,
  textOf,
  unmaskSecrets
} from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { FileContent, FileEntry, FileList, FileWritten, MAX_EDIT_BYTES, type WriteInput } from "./contract/Api.js"
import { FileInputRefused, FileNeverWritten, FileNotText } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable

/**
 * `ConfinedFileError`: the install folder refused the path or the file
 * operation (the routes answer it with the runtime's `confinedFileHttpError`).
 */
export interface FileEditorShape {
  readonly list: (serverId: string, path: string) => Effect.Effect<FileList, Lookup | FileInputRefused | ConfinedFileError>
  readonly read: (serverId: string, path: string) => Effect.Effect<FileContent, Lookup | FileInputRefused | FileNotText | ConfinedFileError>
  readonly write: (
    serverId: string,
    input: WriteInput,
    ifMatch: string | undefined
  ) => Effect.Effect<FileWritten, Lookup | FileInputRefused | FileNeverWritten | ConfinedFileError | VersionMismatch>
}

/** The path as the editor names it: `a/b/c.txt` (`""` for the install folder), or why it is refused. */
const normalized = (path: string, allowRoot: boolean) =>
  Either.match(relativeSegments(path, { allowRoot }), {
    onLeft: (reason) => Effect.fail(new FileInputRefused({ field: "path", message: `path: ${JSON.stringify(path.slice(0, 200))} ${reason}`, reason })),
    onRight: (segments) => Effect.succeed(segments.join("/"))
  })

/** The version of a text as the editor shows it (secrets masked), so a version says nothing about them. */
const shownEtag = (text: string) => etagOf(new TextEncoder().encode(maskSecrets(text).text))

/** Program files by name: shared libraries and Windows executables. */
const PROGRAM = /\.(so(\.[0-9]+)*|dll|exe|bat|cmd|com)$/i

/** The install-relative form of an entry's path field, or undefined when it lies outside the install folder. */
const insideInstall = (entry: ServerEntry, path: string) => {
  const relative = NodePath.relative(entry.installDir, NodePath.resolve(entry.installDir, path))
  return relative.startsWith("..") || NodePath.isAbsolute(relative) ? undefined : relative.split(NodePath.sep).join("/").toLowerCase()
}

/**
 * Why the editor never writes `file` (install-relative, `/` between
 * names), or undefined: the server's executable, a program by name, or a
 * file of the BattlEye folders (its RCon settings; BattlEye's own code).
 */
const neverWritten = (entry: ServerEntry, file: string): string | undefined => {
  const lower = file.toLowerCase()
  if (lower === insideInstall(entry, entry.executable)) return "is the server's executable: the file editor never writes programs"
  if (PROGRAM.test(lower)) return "is a program by its name: the file editor never writes programs"
  const profiles = insideInstall(entry, entry.profilesDir)
  const battleye = [insideInstall(entry, entry.battleyeDir), profiles === undefined ? undefined : `${profiles}/battleye`]
  for (const folder of battleye) {
    if (folder !== undefined && folder !== "" && (lower === folder || lower.startsWith(`${folder}/`))) {
      return "is in the BattlEye folder (RCon settings, BattlEye's own files): not written through the editor"
    }
  }
  return undefined
}

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
          const entries = yield* handle.files.list(folder)
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
          const info = yield* handle.files.stat(file)
          const bytes = yield* handle.files.read(file, { maxBytes: MAX_EDIT_BYTES })
          const text = textOf(bytes)
          if (text === undefined) {
            return yield* new FileNotText({ message: `path: ${JSON.stringify(file)} is a binary file: the editor reads text files only` })
          }
          // Secrets leave masked; the version is of what the caller sees, so it says nothing about them either.
          const shown = maskSecrets(text)
          return new FileContent({
            path: file,
            content: shown.text,
            size: bytes.byteLength,
            modified: info.modified.toISOString(),
            etag: shownEtag(text),
            masked: shown.masked
          })
        })

      const write: FileEditorShape["write"] = (serverId, input, ifMatch) =>
        writes.withPermits(1)(
          Effect.gen(function* () {
            const file = yield* normalized(input.path, false)
            if (file.split("/")[0]!.toLowerCase() === ".garrison") {
              return yield* new FileInputRefused({
                field: "path",
                message: "path: .garrison is Garrison's own folder (mod staging, kept versions): not written through the editor",
                reason: "is Garrison's own folder"
              })
            }
            const handle = yield* servers.get(serverId)
            const entry = yield* handle.entry
            const never = neverWritten(entry, file)
            if (never !== undefined) return yield* new FileNeverWritten({ field: "path", message: `path: ${JSON.stringify(file)} ${never}` })
            const existing = yield* handle.files.stat(file).pipe(
              Effect.map((info) => info as ServerFiles.FileInfo | undefined),
              Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined))
            )
            if (existing !== undefined && (existing.mode & 0o6111) !== 0) {
              return yield* new FileNeverWritten({ field: "path", message: `path: ${JSON.stringify(file)} is executable: the file editor never writes programs` })
            }
            const current = yield* handle.files.read(file, { maxBytes: MAX_EDIT_BYTES }).pipe(
              Effect.map((b) => b as Uint8Array | undefined),
              Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined))
            )
            const currentText = current === undefined ? undefined : textOf(current)
            // A mask written back keeps the value it stands for.
            const unmasked = unmaskSecrets(input.content, currentText ?? "")
            if ("problem" in unmasked) {
              const { key, line } = unmasked.problem
              return yield* new FileInputRefused({
                field: "content",
                message: `content: line ${line}: ${key} is the mask, but the file has no ${key} for it to keep: write the value`,
                reason: `${key} is the mask`
              })
            }
            const bytes = new TextEncoder().encode(unmasked.text)
            if (bytes.byteLength > MAX_EDIT_BYTES) {
              return yield* new FileInputRefused({ field: "content", message: `content is ${bytes.byteLength} bytes, more than the editor's ${MAX_EDIT_BYTES}`, reason: "too large" })
            }
            if (bytes.includes(0)) {
              return yield* new FileInputRefused({ field: "content", message: "content holds a NUL character: the editor writes text files only", reason: "holds a NUL character" })
            }
            const expected = input.etag ?? ifMatch
            // Versions are of the masked text, as the reader saw it.
            const currentEtag = current === undefined ? undefined : shownEtag(currentText ?? "")
            if (expected !== undefined && (currentEtag === undefined || !etagMatches(expected, currentEtag))) {
              return yield* new VersionMismatch({
                message: current === undefined ? `path: ${JSON.stringify(file)} no longer exists` : `path: ${JSON.stringify(file)} changed since you read it: read it again and redo the change`,
                current: currentEtag ?? null
              })
            }
            // New files are 0644; whatever the file had, what is written is never executable.
            yield* handle.files.write(file, bytes, { stripExecute: true })
            const info = yield* handle.files.stat(file)
            return new FileWritten({
              path: file,
              size: bytes.byteLength,
              modified: info.modified.toISOString(),
              etag: shownEtag(unmasked.text),
              created: current === undefined
            })
          })
        )

      return FileEditor.of({ list, read, write })
    })
  )
}
