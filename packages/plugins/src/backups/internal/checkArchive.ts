/**
 * Whether a zip may be restored, decided before a byte is written: it must
 * be a Garrison backup (its manifest reads), every entry must be a plain
 * file or folder the manifest vouches for (a symbolic link, a device, an
 * encrypted entry or a stray file refuses the whole zip), every path must
 * be canonical and relative (no `..`, `.`, empty names, backslashes, nor
 * Garrison's own `.garrison` folder), and every file's declared size must
 * be the manifest's. yauzl has already refused names that are absolute or
 * climb out (`zipRead.ts`); the checksums are checked as entries unpack.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { relativeSegments } from "@garrison/runtime"
import { decodeManifest, entryName, type Manifest, MANIFEST_NAME, MAX_MANIFEST_BYTES } from "./manifest.js"
import { type OpenedZip, readEntry, ZipRefused } from "./zipRead.js"

const refused = (entry: string | null, message: string) => Effect.fail(new ZipRefused({ entry, message }))

/** Why `path` is not a canonical relative path, or undefined when it is one. */
export const pathProblem = (path: string, allowRoot: boolean): string | undefined => {
  if (path === "") return allowRoot ? undefined : "is empty"
  const segments = relativeSegments(path)
  if (Either.isLeft(segments)) return segments.left
  if (segments.right.join("/") !== path) return "is not written plainly (no '.', '..', '\\' or empty names)"
  if (segments.right.includes(".garrison")) return "lies in Garrison's own working folder .garrison"
  return undefined
}

export const checkArchive = (zip: OpenedZip): Effect.Effect<Manifest, ZipRefused> =>
  Effect.gen(function* () {
    for (const entry of zip.entries) {
      if (entry.kind === "symlink") return yield* refused(entry.name, `entry "${entry.name}" is a symbolic link: a backup holds none, and unpacking one could write outside the server's folder`)
      if (entry.kind === "other") return yield* refused(entry.name, `entry "${entry.name}" is not a plain file or folder`)
      if (entry.encrypted) return yield* refused(entry.name, `entry "${entry.name}" is encrypted`)
    }
    const manifestEntry = zip.entries.find((e) => e.name === MANIFEST_NAME && e.kind === "file")
    if (manifestEntry === undefined) return yield* refused(null, `has no ${MANIFEST_NAME}: it is not a Garrison backup`)
    const decoded = decodeManifest(new TextDecoder().decode(yield* readEntry(zip, MANIFEST_NAME, MAX_MANIFEST_BYTES)))
    if (Either.isLeft(decoded)) return yield* refused(MANIFEST_NAME, `its ${MANIFEST_NAME} cannot be read: ${decoded.left.message.split("\n")[0]}`)
    const manifest = decoded.right

    for (const p of manifest.paths) {
      // A profiles folder outside the install folder is taken whole (path ""); the install folder never is.
      const problem = pathProblem(p.path, p.root === "profiles")
      if (problem !== undefined) {
        return yield* refused(null, p.path === "" ? "the manifest takes the whole install folder: a restore would remove every file made since, the game itself included" : `the manifest's path "${p.path}" ${problem}`)
      }
    }
    const byName = new Map(zip.entries.map((e) => [e.name, e]))
    const vouched = new Set<string>([MANIFEST_NAME])
    for (const file of manifest.files) {
      const name = entryName(file.root, file.path)
      const problem = pathProblem(file.path, false)
      if (problem !== undefined) return yield* refused(name, `entry "${name}" ${problem}`)
      const entry = byName.get(name)
      if (entry === undefined || entry.kind !== "file") return yield* refused(name, `the manifest names "${name}", which the zip does not hold`)
      if (entry.size !== file.size) return yield* refused(name, `entry "${name}" holds ${entry.size} bytes; the manifest says ${file.size}`)
      if (vouched.has(name)) return yield* refused(name, `the manifest names "${name}" twice`)
      vouched.add(name)
    }
    const folders = new Set<string>()
    for (const folder of manifest.folders) {
      const name = entryName(folder.root, folder.path)
      const problem = pathProblem(folder.path, false)
      if (problem !== undefined) return yield* refused(name, `folder "${name}" ${problem}`)
      folders.add(`${name}/`)
    }
    for (const entry of zip.entries) {
      if (entry.kind === "folder" ? folders.has(entry.name) || entry.name === "install/" || entry.name === "profiles/" : vouched.has(entry.name)) continue
      return yield* refused(entry.name, `entry "${entry.name}" is not in the manifest`)
    }
    return manifest
  })
