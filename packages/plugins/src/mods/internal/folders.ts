/**
 * A mod's files on a server: copied from the shared download folder into
 * `<server>/@<name>`, its `.bikey` files into `<server>/keys/`. The copy is
 * built beside the server's files first (`.garrison/staging/...`, made
 * through the server's confined `ServerFiles`) and swapped in by renames, so
 * the server never sees half a mod, and a failed copy leaves the old one.
 * Files are copied, not linked: the server may change its copy, and the
 * cache's copy is what a rollback puts back. A copy-on-write clone is used
 * where the disk offers one.
 */
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { type ConfinedFileError, errorMessage, giveTreeToItsOwner, type ServerFiles } from "@garrison/runtime"

export const STAGING = ".garrison/staging"
/** Where a rollout keeps the version it replaced, until the next rollout of that mod: `.garrison/previous/@name`. */
export const PREVIOUS = ".garrison/previous"

/** The files of a downloaded item, relative to its folder: regular files only (links are not followed). */
export const itemFiles = (dir: string): ReadonlyArray<{ readonly relative: string; readonly size: number }> => {
  const found: Array<{ relative: string; size: number }> = []
  const walk = (relative: string) => {
    for (const entry of Fs.readdirSync(NodePath.join(dir, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) found.push({ relative: path, size: Fs.statSync(NodePath.join(dir, path)).size })
    }
  }
  walk("")
  return found
}

/** `.bikey` files in a `keys` or `key` folder (any case) at the top of the item. */
export const keyFiles = (files: ReadonlyArray<{ readonly relative: string }>): ReadonlyArray<{ readonly relative: string; readonly name: string }> =>
  files.flatMap((file) => {
    const parts = file.relative.split("/")
    if (parts.length !== 2 || !/^keys?$/i.test(parts[0]!) || !/\.bikey$/i.test(parts[1]!)) return []
    // A key's name is the author's: keep it only when it is a plain file name.
    return /^[A-Za-z0-9._ -]{1,128}$/.test(parts[1]!) && !parts[1]!.startsWith(".") ? [{ relative: file.relative, name: parts[1]! }] : []
  })

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({ try: f, catch: (error) => new Error(`${what}: ${errorMessage(error)}`) })

export interface Placed {
  readonly keys: ReadonlyArray<string>
  readonly sizeBytes: number
}

/**
 * Puts the item in `source` on the server as `folder`, replacing what is
 * there, and its keys into `keys/`. With `keepPrevious`, the folder it
 * replaces is kept as `.garrison/previous/<folder>` (for `restorePrevious`)
 * instead of being removed. Fails with the confined files' error (a refused
 * path) or an `Error` saying what could not be copied.
 */
export const placeMod = (
  files: ServerFiles.ServerFiles,
  source: string,
  folder: string,
  options: { readonly keepPrevious?: boolean } = {}
): Effect.Effect<Placed, ConfinedFileError | Error> =>
  Effect.gen(function* () {
    const list = yield* attempt(`cannot read the downloaded item at ${source}`, () => itemFiles(source))
    const suffix = randomBytes(6).toString("hex")
    const staging = `${STAGING}/${folder}-${suffix}`
    yield* files.makeFolder(staging)
    const copied = Effect.gen(function* () {
      // The staging folder is new and proven inside the root (no link on the way): copy into it directly.
      const target = NodePath.join(files.root, staging)
      yield* attempt(`cannot copy the mod into ${files.root}`, () => {
        for (const file of list) {
          const to = NodePath.join(target, file.relative)
          Fs.mkdirSync(NodePath.dirname(to), { recursive: true })
          Fs.copyFileSync(NodePath.join(source, file.relative), to, Fs.constants.COPYFILE_FICLONE | Fs.constants.COPYFILE_EXCL)
        }
      })
      // Copied as the controller; the staging folder is the install owner's (the game server's user): so is the mod.
      yield* Effect.tryPromise({
        try: () => giveTreeToItsOwner(target),
        catch: (error) => new Error(`cannot give the mod to the install's owner: ${errorMessage(error)}`)
      })
      const present = yield* Effect.either(files.stat(folder))
      const old = `${STAGING}/old-${folder}-${suffix}`
      if (present._tag === "Right") yield* files.rename(folder, old)
      yield* files.rename(staging, folder).pipe(
        // Put the old one back: the server keeps a working mod.
        Effect.tapError(() => (present._tag === "Right" ? Effect.ignore(files.rename(old, folder)) : Effect.void))
      )
      if (present._tag !== "Right") return
      if (options.keepPrevious === true) {
        yield* files.makeFolder(PREVIOUS)
        yield* Effect.ignore(files.remove(`${PREVIOUS}/${folder}`, { recursive: true }))
        yield* files.rename(old, `${PREVIOUS}/${folder}`)
      } else {
        yield* Effect.ignore(files.remove(old, { recursive: true }))
      }
    })
    yield* copied.pipe(Effect.tapError(() => Effect.ignore(files.remove(staging, { recursive: true }))))

    const keys = keyFiles(list)
    if (keys.length > 0) yield* files.makeFolder("keys")
    for (const key of keys) {
      const bytes = yield* attempt(`cannot read key ${key.relative}`, () => Fs.readFileSync(NodePath.join(source, key.relative)))
      yield* files.write(`keys/${key.name}`, bytes)
    }
    return { keys: keys.map((k) => k.name), sizeBytes: list.reduce((sum, f) => sum + f.size, 0) }
  })

/**
 * Puts the version `placeMod` kept back as `folder` (the one there now is
 * removed) and copies its keys into `keys/`; answers the keys it has.
 */
export const restorePrevious = (files: ServerFiles.ServerFiles, folder: string): Effect.Effect<ReadonlyArray<string>, ConfinedFileError | Error> =>
  Effect.gen(function* () {
    const kept = `${PREVIOUS}/${folder}`
    yield* files.stat(kept)
    const aside = `${STAGING}/rolled-back-${folder}-${randomBytes(6).toString("hex")}`
    yield* files.makeFolder(STAGING)
    const present = yield* Effect.either(files.stat(folder))
    if (present._tag === "Right") yield* files.rename(folder, aside)
    yield* files.rename(kept, folder)
    if (present._tag === "Right") yield* Effect.ignore(files.remove(aside, { recursive: true }))
    const source = NodePath.join(files.root, folder)
    const keys = keyFiles(yield* attempt(`cannot read ${folder}`, () => itemFiles(source)))
    if (keys.length > 0) yield* files.makeFolder("keys")
    for (const key of keys) {
      const bytes = yield* attempt(`cannot read key ${key.relative}`, () => Fs.readFileSync(NodePath.join(source, key.relative)))
      yield* files.write(`keys/${key.name}`, bytes)
    }
    return keys.map((k) => k.name)
  })

/** Removes the mod's folder and the keys in `keys` (a missing one is fine). */
export const removeMod = (files: ServerFiles.ServerFiles, folder: string, keys: ReadonlyArray<string>): Effect.Effect<void, ConfinedFileError> =>
  Effect.gen(function* () {
    // Only ever a mod folder: never the server's root or anything above a mod.
    if (!/^@[^/\\]+$/.test(folder) || folder === "@." || folder === "@..") return yield* Effect.dieMessage(`not a mod folder: ${folder}`)
    yield* files.remove(folder, { recursive: true }).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.void))
    for (const key of keys) {
      yield* files.remove(`keys/${key}`).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.void))
    }
  })
