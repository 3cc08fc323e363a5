/**
 * What a backup takes: the paths asked for, walked through the server's
 * confined files (a symlink is never followed: it is left out and named in
 * the warnings), minus what is not worth keeping: log files (engine,
 * admin, script, crash and BattlEye logs, which can be gigabytes and are
 * not the server's state), Garrison's own working folder `.garrison`, and
 * BattlEye's `*_active_*` copies of its configuration, which live only
 * while the server runs.
 */
import * as Effect from "effect/Effect"
import type { ConfinedFileError, ServerFiles } from "@garrison/runtime"
import type { BackupRoot, ManifestPath } from "./manifest.js"

/** A path to back up, relative to one of the server's roots (`""`: the root itself). */
export interface WantedPath {
  readonly root: BackupRoot
  readonly path: string
}

export interface GatheredFile {
  readonly root: BackupRoot
  readonly path: string
  readonly size: number
  readonly modified: Date
}

export interface Gathered {
  readonly paths: ReadonlyArray<ManifestPath>
  readonly files: ReadonlyArray<GatheredFile>
  readonly folders: ReadonlyArray<{ readonly root: BackupRoot; readonly path: string }>
  readonly warnings: ReadonlyArray<string>
}

/** Deeper than any game server's folders: a deeper tree is refused rather than walked without end. */
const MAX_DEPTH = 48

export const isLogFile = (name: string): boolean => /\.(rpt|adm|log|mdmp)$/i.test(name)

/** Left out of every folder: see above. */
export const isLeftOut = (name: string, excludeLogs: boolean): boolean =>
  name === ".garrison" || /_active_.*\.cfg$/i.test(name) || (excludeLogs && isLogFile(name))

const join = (folder: string, name: string) => (folder === "" ? name : `${folder}/${name}`)

const notFound = (e: ConfinedFileError) => e.problem === "not-found"

/**
 * Walks `wanted` (paths inside one another are taken once). `filesOf`
 * gives the files of each root.
 */
export const gather = (
  wanted: ReadonlyArray<WantedPath>,
  filesOf: (root: BackupRoot) => ServerFiles.ServerFiles,
  excludeLogs: boolean
): Effect.Effect<Gathered, ConfinedFileError> =>
  Effect.gen(function* () {
    const paths: Array<ManifestPath> = []
    const files: Array<GatheredFile> = []
    const folders: Array<{ root: BackupRoot; path: string }> = []
    const warnings: Array<string> = []
    const seen = new Set<string>()
    const covered = (root: BackupRoot, path: string) =>
      paths.some((p) => p.root === root && p.kind === "folder" && (p.path === "" || path === p.path || path.startsWith(`${p.path}/`)))

    const walk = (root: BackupRoot, folder: string, depth: number): Effect.Effect<void, ConfinedFileError> =>
      Effect.gen(function* () {
        if (depth > MAX_DEPTH) return yield* Effect.sync(() => void warnings.push(`${root}/${folder}: deeper than ${MAX_DEPTH} folders, left out`))
        const entries = yield* filesOf(root).list(folder).pipe(Effect.catchIf(notFound, () => Effect.succeed([])))
        for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
          if (isLeftOut(entry.name, excludeLogs)) continue
          const path = join(folder, entry.name)
          if (entry.kind === "folder") {
            folders.push({ root, path })
            yield* walk(root, path, depth + 1)
          } else if (entry.kind === "file") {
            const key = `${root}/${path}`
            if (!seen.has(key)) files.push({ root, path, size: entry.size, modified: entry.modified })
            seen.add(key)
          } else {
            warnings.push(`${root}/${path}: a ${entry.kind === "symlink" ? "symbolic link" : "special file"}, left out`)
          }
        }
      })

    // Folders first, widest first, so a path inside one already taken is skipped.
    const ordered = [...wanted].sort((a, b) => a.path.length - b.path.length)
    for (const { root, path } of ordered) {
      if (covered(root, path) || paths.some((p) => p.root === root && p.path === path)) continue
      const info = yield* filesOf(root).stat(path).pipe(Effect.catchIf(notFound, () => Effect.succeed(undefined)))
      if (info === undefined) {
        warnings.push(`${root}/${path}: not there, left out`)
      } else if (info.kind === "folder") {
        paths.push({ root, path, kind: "folder" })
        if (path !== "") folders.push({ root, path })
        yield* walk(root, path, 0)
      } else if (info.kind === "file") {
        paths.push({ root, path, kind: "file" })
        const key = `${root}/${path}`
        if (!seen.has(key)) files.push({ root, path, size: info.size, modified: info.modified })
        seen.add(key)
      } else {
        warnings.push(`${root}/${path}: a ${info.kind === "symlink" ? "symbolic link" : "special file"}, left out`)
      }
    }
    return { paths, files, folders, warnings }
  })
