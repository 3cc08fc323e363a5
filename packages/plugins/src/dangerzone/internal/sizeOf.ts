/** How much a path holds in a server's confined files, for what a wipe shows and frees. */
import * as Effect from "effect/Effect"
import type { ConfinedFileError, ServerFiles } from "@garrison/runtime"

/** Bytes under `path` (a file's own size; a folder's files, links not followed); 0 when it is not there. */
export const sizeOf = (files: ServerFiles.ServerFiles, path: string, depth = 0): Effect.Effect<number, ConfinedFileError> =>
  Effect.gen(function* () {
    const info = yield* files.stat(path).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined)))
    if (info === undefined) return 0
    if (info.kind === "file") return info.size
    if (info.kind !== "folder" || depth > 32) return 0
    let total = 0
    for (const entry of yield* files.list(path)) {
      const child = path === "" ? entry.name : `${path}/${entry.name}`
      total += entry.kind === "file" ? entry.size : entry.kind === "folder" ? yield* sizeOf(files, child, depth + 1) : 0
    }
    return total
  })
