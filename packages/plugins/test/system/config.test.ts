/**
 * Run-time settings: listed with where each value comes from, a secret
 * masked; a change checked whole (unknown keys and bad values named, in
 * plain words), committed with one `system.config` audit row, kept across
 * a restart, and in force at once.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { currentSetting, Plugin, RuntimeSetting } from "@garrison/runtime"
import { call, type LogLine, tempDir } from "@garrison/testkit"
import { Duration, Effect, LogLevel, TestClock } from "effect"
import * as Fs from "node:fs"
import { GameLogPlugin } from "../../src/gamelog/index.js"
import { ADMIN, settingIn, systemController } from "./support.js"

const TOKEN = "scrape-token-0123456789-abcdef"
const patch = (json: unknown) => call("PATCH", "/api/system/config", { as: ADMIN, json })
const config = Effect.map(call("GET", "/api/system/config", { as: ADMIN }), (reply) => reply.body)

describe("run-time settings", () => {
  it.scopedLive("lists every declared setting: env or default, a secret only as set/unset", () =>
    Effect.gen(function* () {
      const body = yield* config
      expect(settingIn(body, "LOG_LEVEL")).toMatchObject({ source: "default", value: "Info", kind: "choice" })
      expect(settingIn(body, "GAMELOG_POLL_INTERVAL")).toMatchObject({ source: "environment", value: "3 seconds", fallback: "3 seconds" })
      expect(settingIn(body, "METRICS_TOKEN")).toEqual(expect.objectContaining({ secret: true, set: true, source: "environment" }))
      expect(settingIn(body, "METRICS_TOKEN")).not.toHaveProperty("value")
      expect(JSON.stringify(body)).not.toContain(TOKEN)
    }).pipe(Effect.provide(systemController({ config: { GAMELOG_POLL_INTERVAL: "3 seconds", METRICS_TOKEN: TOKEN } }).layer))
  )

  it.scopedLive("refuses unknown keys and bad values whole, in plain words, naming each key; nothing changes", () => {
    const { audit, layer } = systemController()
    return Effect.gen(function* () {
      const unknown = yield* patch({ LOG_LEVEL: "Debug", NOPE: 1 })
      expect(unknown.status).toBe(400)
      expect(unknown.body).toMatchObject({ error: "invalid-request", details: [{ path: "NOPE" }] })
      const listed = (unknown.body as { message: string }).message
      for (const key of ["LOG_LEVEL", "METRICS_TOKEN", "GAMELOG_POLL_INTERVAL"]) expect(listed).toContain(key)

      const bad = yield* patch({ LOG_LEVEL: "loud", GAMELOG_POLL_INTERVAL: "often", METRICS_TOKEN: "short" })
      expect(bad.status).toBe(400)
      const details = (bad.body as { details: Array<{ path: string; message: string }> }).details
      expect(details.map((d) => d.path)).toEqual(["LOG_LEVEL", "GAMELOG_POLL_INTERVAL", "METRICS_TOKEN"])
      expect(details[0]!.message).toBe("LOG_LEVEL must be one of All, Trace, Debug, Info, Warning, Error, Fatal, None")
      expect(details[1]!.message).toContain('written like "5 seconds"')
      expect(details[2]!.message).toBe("METRICS_TOKEN must be 16 to 512 printable characters without spaces")
      // Never Effect Schema's wording, never the value sent.
      expect(JSON.stringify(bad.body)).not.toMatch(/Expected|is missing|short"/)
      expect((yield* patch({ GAMELOG_POLL_INTERVAL: 5 })).status).toBe(400)
      expect((yield* patch({})).status).toBe(400)

      expect(settingIn(yield* config, "LOG_LEVEL")).toMatchObject({ source: "default" })
      expect(audit.rows.filter((row) => row.action === "system.config")).toHaveLength(0)
    }).pipe(Effect.provide(layer))
  })

  it.scopedLive("a change is stored (a secret sealed), audited once without the secret, survives a restart; null returns to the environment", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-system-data-")
      const first = systemController({ settings: { dataDir }, config: { GAMELOG_POLL_INTERVAL: "3 seconds" } })
      yield* Effect.gen(function* () {
        const reply = yield* patch({ LOG_LEVEL: "warn", GAMELOG_POLL_INTERVAL: "1 minute", METRICS_TOKEN: TOKEN })
        expect(reply.status).toBe(200)
        expect(settingIn(reply.body, "LOG_LEVEL")).toMatchObject({ source: "stored", value: "Warning", fallback: "Info" })
        expect(settingIn(reply.body, "GAMELOG_POLL_INTERVAL")).toMatchObject({ source: "stored", value: "1 minutes", fallback: "3 seconds" })
        expect(settingIn(reply.body, "METRICS_TOKEN")).toMatchObject({ source: "stored", set: true })
        expect(JSON.stringify(reply.body)).not.toContain(TOKEN)
        const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ key: string; value: string }>`SELECT key, value FROM system_settings ORDER BY key`)
        expect(rows.find((row) => row.key === "METRICS_TOKEN")?.value).toMatch(/^sealed:v1:/)
        expect(JSON.stringify(rows)).not.toContain(TOKEN)
      }).pipe(Effect.provide(first.layer))
      const rows = first.audit.rows.filter((row) => row.action === "system.config")
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ actor: "root", result: "success", details: { keys: ["LOG_LEVEL", "GAMELOG_POLL_INTERVAL", "METRICS_TOKEN"], values: { LOG_LEVEL: "Warning" } } })
      expect(JSON.stringify(first.audit.rows)).not.toContain(TOKEN)

      const second = systemController({ settings: { dataDir }, config: { GAMELOG_POLL_INTERVAL: "3 seconds" } })
      yield* Effect.gen(function* () {
        const body = yield* config
        expect(settingIn(body, "LOG_LEVEL")).toMatchObject({ source: "stored", value: "Warning" })
        expect(settingIn(body, "GAMELOG_POLL_INTERVAL")).toMatchObject({ source: "stored", value: "1 minutes" })
        expect(settingIn(body, "METRICS_TOKEN")).toMatchObject({ source: "stored", set: true })

        const cleared = yield* patch({ GAMELOG_POLL_INTERVAL: null, METRICS_TOKEN: null })
        expect(settingIn(cleared.body, "GAMELOG_POLL_INTERVAL")).toMatchObject({ source: "environment", value: "3 seconds" })
        expect(settingIn(cleared.body, "METRICS_TOKEN")).toMatchObject({ source: "default", set: false })
      }).pipe(Effect.provide(second.layer))
      expect(second.audit.rows.filter((row) => row.action === "system.config")[0]).toMatchObject({ details: { keys: ["GAMELOG_POLL_INTERVAL", "METRICS_TOKEN"], cleared: ["GAMELOG_POLL_INTERVAL", "METRICS_TOKEN"] } })
      Fs.rmSync(dataDir, { recursive: true, force: true })
    })
  )

  it.scopedLive("LOG_LEVEL takes effect at once, for every fiber, and null returns to the start's level", () => {
    const lines: Array<LogLine> = []
    return Effect.gen(function* () {
      const said = (text: string) => lines.some((line) => line.message === text)
      yield* Effect.logDebug("debug before")
      expect((yield* patch({ LOG_LEVEL: "Debug" })).status).toBe(200)
      // A fiber started before the change, and a new one.
      yield* Effect.logDebug("debug after")
      yield* Effect.fork(Effect.logDebug("debug in a new fiber")).pipe(Effect.flatMap((fiber) => fiber.await))
      expect((yield* patch({ LOG_LEVEL: "Error" })).status).toBe(200)
      yield* Effect.logWarning("warning while Error")
      expect((yield* patch({ LOG_LEVEL: null })).status).toBe(200)
      yield* Effect.logWarning("warning after clearing")
      yield* Effect.logInfo("info after clearing")
      expect([said("debug before"), said("debug after"), said("debug in a new fiber"), said("warning while Error"), said("warning after clearing"), said("info after clearing")]).toEqual([
        false,
        true,
        true,
        false,
        true,
        false
      ])
    }).pipe(Effect.provide(systemController({ logs: lines, logLevel: LogLevel.Warning }).layer))
  })

  it.scopedLive("CHAT_REQUIRE_SIGNATURE and GAMELOG_POLL_INTERVAL are read where they are used: the stored value at once", () =>
    Effect.gen(function* () {
      const ingest = GameLogPlugin.jobs.find((job) => job.name === "ingest")!
      // `currentSetting(...)`: needs nothing but the RuntimeSettings the controller provides.
      const interval = (Effect.isEffect(ingest.every) ? ingest.every : Effect.succeed(ingest.every)) as Effect.Effect<Duration.DurationInput>
      expect(Duration.toMillis(Duration.decode(yield* interval))).toBe(2000)
      yield* patch({ GAMELOG_POLL_INTERVAL: "7 seconds" })
      expect(Duration.toMillis(Duration.decode(yield* interval))).toBe(7000)
    }).pipe(Effect.provide(systemController().layer))
  )
})

/** A plugin whose job's interval is a run-time setting: counts its runs. */
const Interval = RuntimeSetting.duration({ key: "TEST_TICK_INTERVAL", description: "test", default: "10 minutes", min: "1 second", max: "1 day" })
const ticks = { count: 0 }
const TickPlugin = Plugin.make({
  id: "tick",
  settings: [Interval],
  jobs: [{ name: "tick", every: currentSetting(Interval), run: Effect.sync(() => void ticks.count++) }]
})

describe("a job whose interval is a run-time setting", () => {
  it.scoped("waits the new interval from the same start as soon as it changes (TestClock)", () =>
    Effect.gen(function* () {
      ticks.count = 0
      yield* TestClock.adjust("5 minutes")
      expect(ticks.count).toBe(0)
      // Shorter than what has passed already: the wait ends now.
      expect((yield* patch({ TEST_TICK_INTERVAL: "2 minutes" })).status).toBe(200)
      yield* TestClock.adjust("1 second")
      expect(ticks.count).toBe(1)
      yield* TestClock.adjust("2 minutes")
      expect(ticks.count).toBe(2)
      expect((yield* patch({ TEST_TICK_INTERVAL: null })).status).toBe(200)
      yield* TestClock.adjust("5 minutes")
      expect(ticks.count).toBe(2)
      yield* TestClock.adjust("5 minutes")
      expect(ticks.count).toBe(3)
    }).pipe(Effect.provide(systemController({ only: [TickPlugin] }).layer))
  )
})
