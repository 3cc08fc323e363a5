import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, LogLevel, Ref, Schema, TestClock } from "effect"
import { captureLogs, type LogLine, tempDir as makeTempDir, testGarrisonConfig } from "@garrison/testkit/core"
import { PermissionCatalog } from "../src/access/Permissions.js"
import { EventBus, on } from "../src/events/EventBus.js"
import { BeforeServerStart, Hooks } from "../src/kernel/Hooks.js"
import * as Plugin from "../src/kernel/Plugin.js"
import * as Runtime from "../src/kernel/Runtime.js"

class Counter extends Context.Tag("test/Counter")<Counter, Ref.Ref<number>>() {}
class Doubler extends Context.Tag("test/Doubler")<Doubler, { readonly next: Effect.Effect<number> }>() {}
class Bumped extends Schema.TaggedClass<Bumped>()("Bumped", { by: Schema.Number }) {}

const counterPlugin = Plugin.make({
  id: "counter",
  permissions: [{ name: "counter.bump", description: "bump" }],
  migrations: [
    { version: 1, name: "create", up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE counter_log (n INTEGER NOT NULL)`) },
    { version: 2, name: "seed", up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO counter_log (n) VALUES (0)`) }
  ],
  layer: Layer.effect(Counter, Ref.make(0)),
  events: [on(Bumped, (e) => Effect.flatMap(Counter, (c) => Ref.update(c, (n) => n + e.by)))],
  jobs: [{ name: "tick", every: "1 minute", run: Effect.flatMap(Counter, (c) => Ref.update(c, (n) => n + 100)) }]
})

/** Depends on the counter plugin's service, so it must be built after it. */
const doublerPlugin = Plugin.make({
  id: "doubler",
  dependsOn: ["counter"],
  layer: Layer.effect(
    Doubler,
    Effect.map(Counter, (counter) => ({ next: Ref.updateAndGet(counter, (n) => n * 2) }))
  ),
  hooks: [
    BeforeServerStart.handle((input) =>
      input.name === "refuse" ? Effect.fail("ban.txt could not be written") : Effect.flatMap(Counter, (c) => Ref.update(c, (n) => n + 1))
    )
  ]
})

/** On the pass's engine: SQLite, or with `GARRISON_TEST_DATABASE=postgres` the data directory's database on the run's server. */
const config = (dataDir: string) => testGarrisonConfig({ dataDir })
const tempDir = () => makeTempDir("garrison-runtime-")

describe("Runtime.layer", () => {
  it.scoped("composes plugins in dependency order, with events, jobs, hooks and permissions wired", () =>
    Effect.gen(function* () {
      const counter = yield* Counter
      const doubler = yield* Doubler
      const catalog = yield* PermissionCatalog
      expect(catalog.has("counter.bump")).toBe(true)
      // The kernel declares only admin; server.start is the servers plugin's, not loaded here.
      expect(catalog.has("admin")).toBe(true)
      expect(catalog.has("server.start")).toBe(false)

      yield* (yield* EventBus).publish(new Bumped({ by: 3 }))
      yield* TestClock.adjust("1 second")
      expect(yield* Ref.get(counter)).toBe(3)
      expect(yield* doubler.next).toBe(6)

      // The job runs once per interval, driven by the clock.
      yield* TestClock.adjust("1 minute")
      expect(yield* Ref.get(counter)).toBe(106)

      const hooks = yield* Hooks
      yield* hooks.run(BeforeServerStart, { serverId: "s1", name: "ok", installDir: "/srv" })
      expect(yield* Ref.get(counter)).toBe(107)
      const refused = yield* Effect.flip(hooks.run(BeforeServerStart, { serverId: "s2", name: "refuse", installDir: "/srv" }))
      expect(refused.plugin).toBe("doubler")
      expect(refused.message).toContain("ban.txt could not be written")
    }).pipe(
      Effect.provide(Runtime.layer([doublerPlugin, counterPlugin], { scheduledBackups: false }).pipe(Layer.provide(config(tempDir()))))
    )
  )

  it.live("runs each migration once across restarts", () =>
    Effect.gen(function* () {
      const dataDir = tempDir()
      const start = Runtime.layer([counterPlugin], { scheduledBackups: false }).pipe(Layer.provide(config(dataDir)))
      const rows = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT n FROM counter_log`)
      const applied = Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ version: number }>`SELECT version FROM garrison_migrations WHERE plugin_id = 'counter' ORDER BY version`
      )
      const first = yield* Effect.scoped(Effect.provide(Effect.all([rows, applied]), start))
      const second = yield* Effect.scoped(Effect.provide(Effect.all([rows, applied]), start))
      expect(first[0]).toHaveLength(1)
      expect(second[0]).toHaveLength(1)
      expect(second[1].map((r) => r.version)).toEqual([1, 2])
    })
  )

  it.live("logs at Debug how long each plugin's services took to build and its start hook to run", () =>
    Effect.gen(function* () {
      const lines: Array<LogLine> = []
      const slow = Plugin.make({
        id: "slow",
        layer: Layer.effectDiscard(Effect.sleep("30 millis")),
        onStart: Effect.sleep("20 millis")
      })
      yield* Effect.scoped(
        Effect.provide(Effect.void, Runtime.layer([counterPlugin, slow], { scheduledBackups: false }).pipe(Layer.provide(config(tempDir()))))
      ).pipe(Effect.provide(captureLogs(lines)))
      const debug = lines.filter((line) => line.level === LogLevel.Debug).map((line) => line.message)
      const took = (pattern: RegExp) => Number(debug.map((m) => pattern.exec(m)?.[1]).find((n) => n !== undefined))
      expect(debug).toContainEqual(expect.stringMatching(/^plugin counter services built in \d+ ms$/))
      expect(took(/^plugin slow services built in (\d+) ms$/)).toBeGreaterThanOrEqual(29)
      expect(took(/^plugin slow started in (\d+) ms$/)).toBeGreaterThanOrEqual(19)
    })
  )

  it.live("stops start-up with a StartupError for a bad plugin list", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.scoped(
          Effect.provide(Effect.void, Runtime.layer([doublerPlugin]).pipe(Layer.provide(config(tempDir()))))
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(exit)).toContain('plugin \\"doubler\\" depends on \\"counter\\"')
    })
  )
})
