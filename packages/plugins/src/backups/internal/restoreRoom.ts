/**
 * Whether a backup fits where it would be unpacked, decided before a byte
 * is written: its files (the manifest's sizes, which yauzl holds every
 * entry to) must fit in the free space of each root's file system, with a
 * margin, and may not expand past `MAX_EXPANSION` times the zip's own size
 * (a zip made by hand to fill the disk is refused, not unpacked).
 */
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import type { BackupRoot, Manifest } from "./manifest.js"

/** How many times its size a zip may expand to; game data (zeros in world files) stays far below. */
export const MAX_EXPANSION = 1_000
/** Room left free after unpacking, at least: a full disk stops the game from saving. */
export const FREE_MARGIN = 256 * 1024 * 1024

const describeBytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`

/** Why the backup at `zipPath` would not fit, or undefined. `folderOf` is each root's folder on disk. */
export const roomProblem = (zipPath: string, manifest: Manifest, folderOf: (root: BackupRoot) => string): Effect.Effect<string | undefined> =>
  Effect.promise(async () => {
    const zipSize = (await Fs.promises.stat(zipPath)).size
    const byRoot = new Map<BackupRoot, number>()
    for (const file of manifest.files) byRoot.set(file.root, (byRoot.get(file.root) ?? 0) + file.size)
    const total = [...byRoot.values()].reduce((sum, bytes) => sum + bytes, 0)
    if (total > Math.max(zipSize, 1) * MAX_EXPANSION) {
      return `its files would take ${describeBytes(total)}, more than ${MAX_EXPANSION} times the zip's ${describeBytes(zipSize)}: it is not a backup Garrison made`
    }
    for (const [root, bytes] of byRoot) {
      const stats = await Fs.promises.statfs(folderOf(root)).catch(() => undefined)
      if (stats === undefined) continue
      const free = Number(stats.bavail) * Number(stats.bsize)
      if (bytes + FREE_MARGIN > free) return `its ${root} files need ${describeBytes(bytes)} and ${describeBytes(FREE_MARGIN)} to spare; the disk has ${describeBytes(free)} free`
    }
    return undefined
  })
