/**
 * The servers plugin's ServerFileSync: install folders come from the
 * stored entries, one per folder (two entries on one folder get one write),
 * and a folder that cannot be written is reported without stopping the
 * others.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { GeneratedFile, makeServerEntry, ServerFileSync } from "@garrison/runtime"
import { ServerNotFound } from "@garrison/runtime"
import { ServerEntries, serverFileSyncLayer } from "../../src/servers/index.js"
import { tempDir } from "@garrison/testkit"

const entriesLayer = (folders: ReadonlyArray<readonly [string, string]>) => {
  const entries = folders.map(([id, installDir], i) => makeServerEntry({ id, name: id, installDir, gamePort: 2302 + i * 100, watchdog: false }))
  const unused = Effect.dieMessage("not used")
  return Layer.succeed(ServerEntries, {
    list: Effect.succeed(entries),
    unreadable: Effect.succeed([]),
    get: (serverId) => Effect.fail(ServerNotFound.of(serverId)),
    insert: () => unused,
    update: () => unused,
    remove: () => unused,
    upsertAll: () => unused
  })
}

describe("the servers plugin's ServerFileSync", () => {
  it.scoped("writes each install folder once, however many entries share it; a failing folder does not stop the others", () =>
    Effect.gen(function* () {
      const shared = tempDir("garrison-filesync-shared-")
      const own = tempDir("garrison-filesync-own-")
      const gone = NodePath.join(tempDir("garrison-filesync-gone-"), "missing")
      const sync = yield* Effect.provide(
        ServerFileSync,
        serverFileSyncLayer.pipe(
          Layer.provide(
            entriesLayer([
              ["first", shared],
              ["second", shared],
              ["gone", gone],
              ["own", own]
            ])
          )
        )
      )
      let renders = 0
      const file = yield* sync.register({
        path: "generated.txt",
        owner: "test",
        render: () => Effect.sync(() => GeneratedFile.whole(`render ${++renders}`))
      })
      const report = yield* file.syncAll
      expect(report).toMatchObject({ folders: 3, failed: [{ installDir: gone }] })
      expect(report.written + report.unchanged).toBe(2)
      // One rendering for every folder.
      expect(Fs.readFileSync(NodePath.join(shared, "generated.txt"), "utf8")).toBe(Fs.readFileSync(NodePath.join(own, "generated.txt"), "utf8"))
    })
  )
})
