/**
 * RCON passwords at rest: stored sealed in the real SQLite file (never in
 * clear), opened for the actors after a restart, clear ones left by an
 * earlier version sealed by migration v2, and a missing key while sealed
 * passwords are stored stops the start with one line instead of making a
 * key that could open none of them.
 */
import { describe, expect, it } from "@effect/vitest"
import { ServerEntry, serverEntryDefaults, type StartupError } from "@garrison/runtime"
import { SqlClient } from "@effect/sql"
import { Cause, Context, Effect, Exit, Option } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { makeServersPlugin, ServerEntries } from "../../src/servers/index.js"
import { startKernel } from "../support/controller.js"
import { makeFakeLauncher } from "../support/fakeServers.js"
import { tempDir } from "../support/tempDir.js"

const PASSWORD = "rcon-clear-Password-7731"

const entry = (id: string, installDir: string) =>
  new ServerEntry({
    ...serverEntryDefaults,
    id,
    name: `Server ${id}`,
    installDir,
    rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: PASSWORD }
  })

const kernel = (dataDir: string) => startKernel([makeServersPlugin({ launcher: makeFakeLauncher().layer })], dataDir)

const storedRow = (context: Context.Context<SqlClient.SqlClient>, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly entry: string }>`SELECT entry FROM servers WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]?.entry ?? ""),
    Effect.provide(context)
  )

const passwordOf = (context: Context.Context<ServerEntries>, id: string) =>
  Effect.flatMap(ServerEntries, (entries) => entries.get(id)).pipe(
    Effect.map((stored) => stored.rcon?.password),
    Effect.provide(context)
  )

describe("RCON passwords at rest", () => {
  it.effect("are stored sealed to their entry and open again after a restart", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("s1", dataDir))).pipe(Effect.provide(first.context))
      const row = yield* storedRow(first.context, "s1")
      expect(row).toMatch(/"password":"sealed:v1:[A-Za-z0-9_-]{8}:/)
      expect(row).not.toContain(PASSWORD)
      // Handed out open to whoever connects RCON.
      expect(yield* passwordOf(first.context, "s1")).toBe(PASSWORD)
      yield* first.stop

      const second = yield* kernel(dataDir)
      expect(yield* passwordOf(second.context, "s1")).toBe(PASSWORD)
      yield* second.stop
      expect(Fs.statSync(NodePath.join(dataDir, "secrets", "servers-credentials-key.key")).mode & 0o777).toBe(0o600)
    })
  )

  it.effect("written in clear by an earlier version are sealed by migration v2, and still open", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("old", dataDir))).pipe(Effect.provide(first.context))
      // Back to what version 1 wrote: the password in clear, migration v2 not applied.
      const clear = JSON.stringify({ ...JSON.parse(yield* storedRow(first.context, "old")), rcon: { ...entry("old", dataDir).rcon } })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([
          sql`UPDATE servers SET entry = ${clear} WHERE id = 'old'`,
          sql`DELETE FROM garrison_migrations WHERE plugin_id = 'servers' AND version = 2`
        ])
      ).pipe(Effect.provide(first.context))
      expect(yield* storedRow(first.context, "old")).toContain(PASSWORD)
      yield* first.stop

      const second = yield* kernel(dataDir)
      const row = yield* storedRow(second.context, "old")
      expect(row).toContain('"password":"sealed:v1:')
      expect(row).not.toContain(PASSWORD)
      expect(yield* passwordOf(second.context, "old")).toBe(PASSWORD)
      yield* second.stop
    })
  )

  it.effect("with their key file missing stop the start with one line, and no new key is made", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("s1", dataDir))).pipe(Effect.provide(first.context))
      yield* first.stop
      const keyFile = NodePath.join(dataDir, "secrets", "servers-credentials-key.key")
      Fs.rmSync(keyFile)

      const exit = yield* Effect.exit(kernel(dataDir))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
      expect((error as StartupError | undefined)?._tag).toBe("StartupError")
      const message = (error as StartupError).message
      expect(message).toContain(`${keyFile} is missing but the database holds RCON passwords sealed with it`)
      expect(message).toContain("restore it from a backup of the data directory")
      expect(message).not.toContain("\n")
      expect(Fs.existsSync(keyFile)).toBe(false)
    })
  )
})
