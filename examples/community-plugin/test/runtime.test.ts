/**
 * The plugin inside the runtime, without HTTP: what it adds to the
 * permission catalog and the database, its service, and its event handler.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { EventBus, PermissionCatalog } from "@garrison/runtime"
import { eventually, tempDir, testKernel } from "@garrison/testkit"
import { Effect, type Layer, LogLevel, TestClock } from "effect"
import MotdPlugin, { Motd, MotdPosted } from "../src/index.js"

/** The kernel (no HTTP) with the motd plugin alone (`@garrison/testkit`). */
const runtime = (dataDir: string) => testKernel([MotdPlugin], { settings: { dataDir }, logLevel: LogLevel.Warning })

const tempDataDir = () => tempDir("garrison-motd-")

/** Runs `effect` in one runtime start on `dataDir`, as one controller run would. */
const inRuntime = <A, E, R extends Layer.Layer.Success<ReturnType<typeof runtime>>>(
  dataDir: string,
  effect: Effect.Effect<A, E, R>
) => Effect.provide(effect, runtime(dataDir))

const migrationRows = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ readonly version: number; readonly name: string; readonly applied_at: string }>`
      SELECT version, name, applied_at FROM garrison_migrations WHERE plugin_id = 'motd' ORDER BY version`
)

describe("motd in the runtime", () => {
  it.effect("declares motd.manage in the permission catalog, owned by the plugin", () =>
    inRuntime(
      tempDataDir(),
      Effect.gen(function* () {
        const catalog = yield* PermissionCatalog
        expect(catalog.has("motd.manage")).toBe(true)
        expect(catalog.all.filter((p) => p.owner === "motd")).toEqual([
          { name: "motd.manage", description: "Post and delete messages of the day", owner: "motd" }
        ])
        // Built-in names stay first: a plugin only adds.
        expect(catalog.all[0]?.owner).toBe("built-in")
      })
    ))

  it.effect("migrations create its tables once and are recorded in garrison_migrations", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      const first = yield* inRuntime(
        dataDir,
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          // The catalog of the engine the run uses (GARRISON_TEST_DATABASE): SQLite's or PostgreSQL's.
          const tables = yield* sql.onDialectOrElse({
            pg: () => sql<{ readonly name: string }>`
              SELECT table_name AS name FROM information_schema.tables
              WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name LIKE 'motd_%' ORDER BY table_name`,
            orElse: () => sql<{ readonly name: string }>`
              SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'motd_%' ORDER BY name`
          })
          const motd = yield* Motd
          yield* motd.post({ text: "kept across starts", author: "ops" })
          return { tables: tables.map((t) => t.name), rows: yield* migrationRows }
        })
      )
      expect(first.tables).toEqual(["motd_messages", "motd_stats"])
      expect(first.rows.map((r) => [r.version, r.name])).toEqual([
        [1, "create motd_messages"],
        [2, "create motd_stats"]
      ])

      // A second start finds them applied: same rows (same timestamps), data intact.
      const second = yield* inRuntime(
        dataDir,
        Effect.gen(function* () {
          const motd = yield* Motd
          return { rows: yield* migrationRows, texts: (yield* motd.list).map((m) => m.text) }
        })
      )
      expect(second.rows).toEqual(first.rows)
      expect(second.texts).toEqual(["kept across starts"])
    }))

  it.effect("the service adds, lists newest first and removes; an unknown id is MotdNotFound", () =>
    inRuntime(
      tempDataDir(),
      Effect.gen(function* () {
        const motd = yield* Motd
        const a = yield* motd.post({ text: "first", author: "ops" })
        yield* TestClock.adjust("1 minute")
        const b = yield* motd.post({ text: "second", author: "ops" })
        expect(a.postedAt).toBe("1970-01-01T00:00:00.000Z")
        expect(b.postedAt).toBe("1970-01-01T00:01:00.000Z")
        expect(yield* motd.list).toEqual([b, a])
        yield* motd.remove(a.id)
        expect(yield* motd.list).toEqual([b])
        const missing = yield* Effect.flip(motd.remove(a.id))
        expect(missing).toMatchObject({ _tag: "MotdNotFound", id: a.id })
      })
    ))

  it.live("its MotdPosted handler is registered through `events` and counts every post", () =>
    inRuntime(
      tempDataDir(),
      Effect.gen(function* () {
        const motd = yield* Motd
        const bus = yield* EventBus
        yield* motd.post({ text: "via the service", author: "ops" })
        // Published by someone else (say, an import tool): the handler counts it all the same.
        yield* bus.publish(new MotdPosted({ id: "x", author: "importer", text: "imported", postedAt: "2025-01-01T00:00:00.000Z" }))
        const stats = yield* eventually(motd.stats, (s) => s.totalPosted === 2)
        expect(stats).toMatchObject({
          totalPosted: 2,
          authors: [
            { author: "importer", posted: 1, lastPostedAt: "2025-01-01T00:00:00.000Z" },
            { author: "ops", posted: 1 }
          ]
        })
      })
    ))
})
