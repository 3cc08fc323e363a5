/**
 * RCON passwords at rest: stored sealed in the real SQLite file (never in
 * clear), opened for the actors after a restart, clear ones left by an
 * earlier version sealed by migration v2, and a missing key while sealed
 * passwords are stored stops the start with one line instead of making a
 * key that could open none of them; given up with a new key, entries stay
 * without their password (logged) until it is entered again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Runtime, ServerEntry, serverEntryDefaults, type StartupError } from "@garrison/runtime"
import { SqlClient } from "@effect/sql"
import { Cause, type Context, Effect, Exit, Layer, Logger, LogLevel, Option, Scope } from "effect"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fakeFleet, startKernel, tempDir, testGarrisonConfig, withAuditTrail } from "@garrison/testkit"
import { ServerEntries } from "../../src/servers/index.js"

const PASSWORD = "rcon-clear-Password-7731"

/** An install folder of its own (never the data directory: the folder rules refuse it). */
const INSTALL = "/srv/garrison-sealing-test"

const entry = (id: string, installDir: string) =>
  new ServerEntry({
    ...serverEntryDefaults,
    id,
    name: `Server ${id}`,
    installDir,
    rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: PASSWORD }
  })

const kernel = (dataDir: string) => startKernel([fakeFleet().plugin], dataDir)

/** `kernel`, recording what it logs at Warning and above. */
const kernelWithLogs = (dataDir: string) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (LogLevel.greaterThanEqual(logLevel, LogLevel.Warning)) {
        lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
      }
    })
    const scope = yield* Scope.make()
    const layer = Runtime.layer(withAuditTrail([fakeFleet().plugin]), { scheduledBackups: false }).pipe(
      // The data directory's store on the run's engine, as `kernel` opens it (its PostgreSQL database on that pass).
      Layer.provide(testGarrisonConfig({ dataDir })),
      Layer.provide(Logger.replace(Logger.defaultLogger, logger))
    )
    const context = yield* Layer.buildWithScope(layer, scope)
    return { context, lines, stop: Scope.close(scope, Exit.void) }
  })

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
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("s1", INSTALL))).pipe(Effect.provide(first.context))
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
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("old", INSTALL))).pipe(Effect.provide(first.context))
      // Back to what version 1 wrote: the password in clear, migration v2 not applied.
      const clear = JSON.stringify({ ...JSON.parse(yield* storedRow(first.context, "old")), rcon: { ...entry("old", INSTALL).rcon } })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([
          sql`UPDATE servers SET entry = ${clear} WHERE id = 'old'`,
          sql`DELETE FROM garrison_migrations WHERE plugin_id = 'servers' AND version = 2`
        ])
      ).pipe(Effect.provide(first.context))
      expect(yield* storedRow(first.context, "old")).toContain(PASSWORD)
      yield* first.stop

      const second = yield* kernelWithLogs(dataDir)
      const row = yield* storedRow(second.context, "old")
      expect(row).toContain('"password":"sealed:v1:')
      expect(row).not.toContain(PASSWORD)
      expect(yield* passwordOf(second.context, "old")).toBe(PASSWORD)
      expect(second.lines).toEqual([
        "Sealed 1 RCON password(s) stored in clear; database backups taken before this start " +
          "(the pre-migration one included) still hold them in clear until they are pruned or deleted"
      ])
      yield* second.stop
    })
  )

  it.effect("with their key file missing stop the start with one line, and no new key is made", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("s1", INSTALL))).pipe(Effect.provide(first.context))
      yield* first.stop
      const keyFile = NodePath.join(dataDir, "secrets", "servers-credentials-key.key")
      Fs.rmSync(keyFile)

      const exit = yield* Effect.exit(kernel(dataDir))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
      expect((error as StartupError | undefined)?._tag).toBe("StartupError")
      const message = (error as StartupError).message
      expect(message).toContain(`${keyFile} is missing but the database holds RCON passwords and agent keys sealed with it`)
      expect(message).toContain("restore it from a backup of the data directory")
      expect(message).not.toContain("\n")
      expect(Fs.existsSync(keyFile)).toBe(false)
    })
  )

  it.effect("given up with a new key file: the start goes on, each entry stays without its password, logged naming it", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(entry("s1", INSTALL))).pipe(Effect.provide(first.context))
      yield* first.stop
      // What the missing-key line offers: a new key, knowingly giving the sealed passwords up.
      const keyFile = NodePath.join(dataDir, "secrets", "servers-credentials-key.key")
      Fs.writeFileSync(keyFile, randomBytes(32).toString("base64url"), { mode: 0o600 })

      const second = yield* kernelWithLogs(dataDir)
      expect(yield* passwordOf(second.context, "s1")).toBe("")
      expect(second.lines).toEqual([
        "server s1: its stored RCON password was sealed with another key than the one in the key file; enter the RCON password again"
      ])
      // Entered again, it is sealed with the new key and opens after a restart.
      yield* Effect.flatMap(ServerEntries, (entries) =>
        Effect.flatMap(entries.get("s1"), (stored) =>
          entries.update(new ServerEntry({ ...stored, rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: "new-pw" } }))
        )
      ).pipe(Effect.provide(second.context))
      yield* second.stop
      const third = yield* kernel(dataDir)
      expect(yield* passwordOf(third.context, "s1")).toBe("new-pw")
      yield* third.stop
    })
  )
})

describe("agent keys at rest", () => {
  const AGENT_KEY = "agent-clear-Key-5519"
  const withAgent = (id: string, installDir: string) =>
    new ServerEntry({ ...entry(id, installDir), agent: { url: "http://127.0.0.1:9100", apiKey: AGENT_KEY } })

  it.effect("are sealed to their entry and field, open again after a restart, and a swapped one does not open", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-sealing-")
      const first = yield* kernel(dataDir)
      yield* Effect.flatMap(ServerEntries, (entries) => entries.insert(withAgent("a1", INSTALL))).pipe(Effect.provide(first.context))
      const row = yield* storedRow(first.context, "a1")
      expect(row).toMatch(/"apiKey":"sealed:v1:[A-Za-z0-9_-]{8}:/)
      expect(row).not.toContain(AGENT_KEY)
      // The sealed RCON password put in the agent key's place must not open as the key: the field is part of the context.
      const parsed = JSON.parse(row) as { rcon: { password: string }; agent: { apiKey: string } }
      const swapped = JSON.stringify({ ...parsed, agent: { ...parsed.agent, apiKey: parsed.rcon.password } })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE servers SET entry = ${swapped} WHERE id = 'a1'`).pipe(
        Effect.provide(first.context)
      )
      yield* first.stop

      const second = yield* kernelWithLogs(dataDir)
      const opened = yield* Effect.flatMap(ServerEntries, (entries) => entries.get("a1")).pipe(Effect.provide(second.context))
      expect(opened.rcon?.password).toBe(PASSWORD)
      expect(opened.agent).toEqual({ url: "http://127.0.0.1:9100", apiKey: "" })
      expect(second.lines).toEqual([
        "server a1: its stored agent key does not open (altered, or copied from another entry); enter the agent key again"
      ])
      yield* second.stop
    })
  )
})
