/**
 * The plugin as an operator loads it: the built controller as a process
 * (`@garrison/testkit`'s `spawnController`) with `PLUGINS` naming this
 * package, twice on one data directory. Needs a build (`npx tsc -b`); in
 * the repository it runs with the end-to-end tests (the `e2e` project).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import type { HttpClient } from "@effect/platform"
import { call, type LogLine, spawnController, tempDir, testKernel } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import MotdPlugin from "../src/index.js"

/** This package's folder: the controller runs there and loads `PLUGINS=.` (its `package.json` main). */
const PACKAGE = fileURLToPath(new URL("..", import.meta.url))

const MANAGER = "mia:motd.manage"
const READER = "rex:server.view"

describe("loaded through PLUGINS", () => {
  it.live(
    "migrations run on the first start only, recorded in garrison_migrations; messages survive the restart",
    () =>
      Effect.gen(function* () {
        // Not made yet, as on a first start.
        const dataDir = NodePath.join(tempDir("garrison-motd-"), "data")
        const run = <A, E>(use: Effect.Effect<A, E, HttpClient.HttpClient>) =>
          Effect.scoped(
            Effect.gen(function* () {
              const controller = yield* spawnController({ dataDir, plugins: ["."], cwd: PACKAGE })
              return { result: yield* Effect.provide(use, controller.client), output: controller.output }
            })
          )

        const first = yield* run(call("POST", "/api/motd", { as: MANAGER, json: { text: "persisted" } }))
        expect(first.output()).toContain('Applied migration motd v1 "create motd_messages"')
        expect(first.output()).toContain('Applied migration motd v2 "create motd_stats"')

        // Same data directory, after the first process has stopped.
        const second = yield* run(call("GET", "/api/motd", { as: READER }))
        // Loaded through PLUGINS, after the default plugins.
        expect(second.output()).toMatch(/runtime started in \d+ ms with plugins: .*\bmotd, test-auth\b/)
        expect(second.output()).not.toContain("Applied migration")
        expect(second.result.body).toEqual({ items: [first.result.body], nextCursor: null })

        // The bookkeeping in the database the processes used, read in-process with the motd plugin alone.
        const logs: Array<LogLine> = []
        const rows = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`SELECT plugin_id, version, name FROM garrison_migrations WHERE plugin_id = 'motd' ORDER BY version`
        ).pipe(Effect.provide(testKernel([MotdPlugin], { settings: { dataDir }, logs, logLevel: LogLevel.Warning })))
        const warnings = logs.map((line) => line.message)
        // The default plugins' migrations are in the database but their plugins are not loaded: one warning each.
        expect(warnings.filter((w) => w.includes('plugin "accounts", which is not loaded'))).toHaveLength(1)
        expect(warnings.filter((w) => w.includes("is not loaded")).length).toBeGreaterThanOrEqual(8)
        expect(warnings.join("\n")).not.toContain('"motd"')
        expect(rows).toEqual([
          { plugin_id: "motd", version: 1, name: "create motd_messages" },
          { plugin_id: "motd", version: 2, name: "create motd_stats" }
        ])
      }),
    60_000
  )
})
