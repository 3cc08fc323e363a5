/**
 * The shared download cache as an admin sees it: what it holds and how much
 * no server uses (`cache/stats`), and removing that (`cache/clean`). Separate
 * from the downloads that fill it: it reads the rows of every server.
 */
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import type { PlatformSettingsShape } from "../../platform/index.js"
import { itemFolder } from "./downloadCache.js"
import type { Jobs } from "./jobs.js"
import type { Serialized } from "./serverMods.js"
import type { ModStore } from "./store.js"

export interface CacheUsageDeps {
  readonly store: ModStore
  readonly jobs: Jobs
  readonly platform: PlatformSettingsShape
  readonly serialized: Serialized
}

export const makeCacheUsage = ({ store, jobs, platform, serialized }: CacheUsageDeps) => {
  const cacheStats = Effect.gen(function* () {
    const cached = yield* store.cachedAll
    const used = new Set((yield* store.all).map((row) => row.mod.workshopId))
    const unused = cached.filter((c) => !used.has(c.workshop_id))
    const sum = (rows: ReadonlyArray<{ readonly size_bytes: number }>) => rows.reduce((s, r) => s + Number(r.size_bytes), 0)
    return { folder: platform.downloadDir, items: cached.length, totalBytes: sum(cached), unusedItems: unused.length, unusedBytes: sum(unused) }
  })

  const cacheClean = serialized(
    Effect.gen(function* () {
      const cached = yield* store.cachedAll
      const used = new Set((yield* store.all).map((row) => row.mod.workshopId))
      const running = (yield* jobs.list).filter((j) => j.endedAt === null).map((j) => j.workshopId)
      const removed: Array<string> = []
      let freedBytes = 0
      for (const item of cached) {
        if (used.has(item.workshop_id) || running.includes(item.workshop_id)) continue
        yield* Effect.sync(() => Fs.rmSync(itemFolder(platform.downloadDir, item.workshop_id), { recursive: true, force: true }))
        yield* store.dropCached(item.workshop_id)
        removed.push(item.workshop_id)
        freedBytes += Number(item.size_bytes)
      }
      return { removed, freedBytes }
    })
  )

  return { cacheStats, cacheClean }
}
