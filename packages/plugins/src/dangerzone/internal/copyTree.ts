/**
 * Copying files from one server's folder into another's (a replicate):
 * planned first (every file with its size, what is left out and why), then
 * copied a file at a time through both servers' confined files, each file
 * piece by piece and atomically (`ServerFiles.copyFrom`). A symbolic link is
 * never followed nor copied; one in the target's way is removed, not
 * written through.
 */
import * as Effect from "effect/Effect"
import type { ConfinedFileError, ServerFiles } from "@garrison/runtime"

export interface PlannedFile {
  readonly path: string
  readonly size: number
}

export interface TreePlan {
  readonly files: ReadonlyArray<PlannedFile>
  /** What is left out, as a person reads it (`mpmissions/x/storage_1: persistence is never copied`). */
  readonly skipped: ReadonlyArray<string>
}

/** Why an entry is left out, or undefined to take it. */
export type SkipRule = (path: string, name: string, kind: "file" | "folder") => string | undefined

const MAX_DEPTH = 48
const join = (folder: string, name: string) => (folder === "" ? name : `${folder}/${name}`)
const parentOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "")

/** The files under `path` (a file or a folder) in `files`; a missing path plans nothing. */
export const planTree = (files: ServerFiles.ServerFiles, path: string, skip: SkipRule): Effect.Effect<TreePlan, ConfinedFileError> =>
  Effect.gen(function* () {
    const planned: Array<PlannedFile> = []
    const skipped: Array<string> = []
    const walk = (folder: string, depth: number): Effect.Effect<void, ConfinedFileError> =>
      Effect.gen(function* () {
        if (depth > MAX_DEPTH) return void skipped.push(`${folder}: deeper than ${MAX_DEPTH} folders`)
        for (const entry of yield* files.list(folder)) {
          const child = join(folder, entry.name)
          if (entry.kind === "symlink" || entry.kind === "other") {
            skipped.push(`${child}: ${entry.kind === "symlink" ? "a symbolic link" : "not a plain file"}, never copied`)
            continue
          }
          const why = skip(child, entry.name, entry.kind)
          if (why !== undefined) {
            skipped.push(`${child}: ${why}`)
            continue
          }
          if (entry.kind === "folder") yield* walk(child, depth + 1)
          else planned.push({ path: child, size: entry.size })
        }
      })
    const info = yield* files.stat(path).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined)))
    if (info?.kind === "file") planned.push({ path, size: info.size })
    else if (info?.kind === "folder") yield* walk(path, 0)
    else if (info !== undefined) skipped.push(`${path}: ${info.kind === "symlink" ? "a symbolic link" : "not a plain file"}, never copied`)
    return { files: planned.sort((a, b) => (a.path < b.path ? -1 : 1)), skipped }
  })

/**
 * Copies the planned files from `from` into `to`, each to `targetOf(path)`
 * (the same path by default); `onFile` after each (bytes so far).
 */
export const copyPlanned = (
  from: ServerFiles.ServerFiles,
  to: ServerFiles.ServerFiles,
  planned: ReadonlyArray<PlannedFile>,
  onFile: (bytesSoFar: number) => Effect.Effect<void>,
  targetOf: (path: string) => string = (path) => path
): Effect.Effect<number, ConfinedFileError> =>
  Effect.gen(function* () {
    let bytes = 0
    for (const file of planned) {
      const target = targetOf(file.path)
      const parent = parentOf(target)
      if (parent !== "") yield* to.makeFolder(parent)
      const there = yield* to.stat(target).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(undefined)))
      if (there !== undefined && there.kind !== "file") yield* to.remove(target, { recursive: there.kind === "folder" })
      const copied = yield* Effect.scoped(Effect.flatMap(from.open(file.path), (opened) => Effect.as(to.copyFrom(opened, target), opened.size)))
      bytes += copied
      yield* onFile(bytes)
    }
    return bytes
  })
