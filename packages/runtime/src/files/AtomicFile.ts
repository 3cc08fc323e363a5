/**
 * The one way Garrison writes a file into a game server (ban.txt,
 * priority.txt, configs): write a temporary file beside the target, fsync it,
 * rename it over the target, then fsync the folder so the rename itself
 * survives a power cut. A reader sees the old file or the new one, never half.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { randomBytes } from "node:crypto"
import { inheritOwnerOfFolder } from "./Ownership.js"
import { errorMessage } from "../errorMessage.js"

export class AtomicWriteError extends Schema.TaggedError<AtomicWriteError>()("AtomicWriteError", {
  path: Schema.String,
  message: Schema.String
}) {}

export interface AtomicWriteOptions {
  /** File mode for a new file; an existing file keeps its mode. */
  readonly mode?: number
}

const writeAtomically = async (path: string, data: string | Uint8Array, options: AtomicWriteOptions) => {
  const dir = NodePath.dirname(path)
  const temp = NodePath.join(dir, `.${NodePath.basename(path)}.${randomBytes(6).toString("hex")}.tmp`)
  const mode = await Fs.stat(path).then((s) => s.mode & 0o7777, () => options.mode ?? 0o644)
  const handle = await Fs.open(temp, "wx", mode)
  try {
    await inheritOwnerOfFolder(handle, dir)
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await Fs.rename(temp, path)
  } catch (error) {
    await Fs.rm(temp, { force: true })
    throw error
  }
  const dirHandle = await Fs.open(dir, "r")
  try {
    await dirHandle.sync()
  } finally {
    await dirHandle.close()
  }
}

export interface AtomicFilesShape {
  readonly write: (
    path: string,
    data: string | Uint8Array,
    options?: AtomicWriteOptions
  ) => Effect.Effect<void, AtomicWriteError>
}

export const writeFileAtomic = (
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {}
): Effect.Effect<void, AtomicWriteError> =>
  Effect.tryPromise({
    try: () => writeAtomically(path, data, options),
    catch: (cause) => new AtomicWriteError({ path, message: errorMessage(cause) })
  })

export class AtomicFiles extends Context.Tag("@garrison/runtime/AtomicFiles")<AtomicFiles, AtomicFilesShape>() {
  static readonly layer = Layer.succeed(AtomicFiles, { write: writeFileAtomic })
}
