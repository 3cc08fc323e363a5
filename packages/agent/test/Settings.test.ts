/**
 * The agent's settings: the key (and the legacy name), what a start without
 * one may do, the folders, the suffixes and durations, and the one line a
 * bad setting stops the start with. The key check compares in constant
 * time (fixed-length digests), so it is tested for what it accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, LogLevel, Redacted } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { makeKeyCheck } from "../src/server/Auth.js"
import { readSettings, StartupError } from "../src/server/Settings.js"
import { profilesFolder } from "./support.js"

const read = (env: Record<string, string>) => readSettings.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

const refusal = (env: Record<string, string>) =>
  Effect.map(Effect.exit(read(env)), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error("the settings were accepted")
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
    if (!(failure instanceof StartupError)) throw new Error(`not a StartupError: ${String(exit.cause)}`)
    return failure.message
  })

describe("agent settings", () => {
  it.effect("reads the defaults: port 9100, 10 s time-out, .json suffixes, mod folder Garrison", () =>
    Effect.gen(function* () {
      const profiles = profilesFolder()
      const settings = yield* read({ SIDECAR_API_KEY: "k".repeat(32), AGENT_PROFILES_DIR: profiles })
      expect(settings).toMatchObject({
        port: 9100,
        host: "0.0.0.0",
        production: false,
        profilesDir: profiles,
        modDir: "Garrison",
        commandTimeoutMs: 10_000,
        commandSuffix: ".json",
        responseSuffix: ".json",
        pollIntervalMs: 1_000,
        logLevel: LogLevel.Info
      })
      expect(Redacted.value(settings.key!)).toBe("k".repeat(32))
    })
  )

  it.effect("reads every setting, and the legacy INHOUSE_API_KEY when SIDECAR_API_KEY is not set", () =>
    Effect.gen(function* () {
      const profiles = profilesFolder()
      const settings = yield* read({
        INHOUSE_API_KEY: "legacy-key",
        AGENT_PROFILES_DIR: profiles,
        AGENT_MOD_DIR: "@AdminMod",
        AGENT_PORT: "9200",
        AGENT_HOST: "10.0.0.5",
        AGENT_COMMAND_TIMEOUT: "5 seconds",
        AGENT_COMMAND_SUFFIX: ".cmd.json",
        AGENT_RESPONSE_SUFFIX: ".res.json",
        AGENT_POLL_INTERVAL: "250",
        LOG_LEVEL: "warning",
        NODE_ENV: "production"
      })
      expect(settings).toMatchObject({ port: 9200, host: "10.0.0.5", modDir: "@AdminMod", commandTimeoutMs: 5_000, commandSuffix: ".cmd.json", responseSuffix: ".res.json", pollIntervalMs: 250, production: true, logLevel: LogLevel.Warning })
      expect(Redacted.value(settings.key!)).toBe("legacy-key")
      const both = yield* read({ SIDECAR_API_KEY: "new", INHOUSE_API_KEY: "old", AGENT_PROFILES_DIR: profiles })
      expect(Redacted.value(both.key!)).toBe("new")
    })
  )

  it.effect("without a key: refused in production; in development loopback only", () =>
    Effect.gen(function* () {
      const profiles = profilesFolder()
      expect(yield* refusal({ NODE_ENV: "production", AGENT_PROFILES_DIR: profiles })).toBe(
        "SIDECAR_API_KEY is not set (nor the legacy INHOUSE_API_KEY): with NODE_ENV=production the agent needs a key"
      )
      const dev = yield* read({ AGENT_PROFILES_DIR: profiles })
      expect(dev).toMatchObject({ host: "127.0.0.1", key: undefined })
      expect((yield* read({ AGENT_PROFILES_DIR: profiles, AGENT_HOST: "::1" })).host).toBe("::1")
      expect(yield* refusal({ AGENT_PROFILES_DIR: profiles, AGENT_HOST: "0.0.0.0" })).toBe(
        "AGENT_HOST=0.0.0.0 refused: without SIDECAR_API_KEY the agent listens on 127.0.0.1 only (set SIDECAR_API_KEY to listen on other interfaces)"
      )
    })
  )

  it.effect("refuses bad settings with one line naming the setting", () =>
    Effect.gen(function* () {
      const profiles = profilesFolder()
      const base = { SIDECAR_API_KEY: "key", AGENT_PROFILES_DIR: profiles }
      expect(yield* refusal({ SIDECAR_API_KEY: "key" })).toMatch(/^AGENT_PROFILES_DIR is not set/)
      expect(yield* refusal({ ...base, AGENT_PROFILES_DIR: NodePath.join(profiles, "nope") })).toMatch(/^AGENT_PROFILES_DIR=.*nope: no such folder$/)
      Fs.writeFileSync(NodePath.join(profiles, "file"), "")
      expect(yield* refusal({ ...base, AGENT_PROFILES_DIR: NodePath.join(profiles, "file") })).toMatch(/: not a folder$/)
      expect(yield* refusal({ ...base, AGENT_MOD_DIR: "../escape" })).toMatch(/^AGENT_MOD_DIR=\.\.\/escape: must be one folder name/)
      expect(yield* refusal({ ...base, AGENT_MOD_DIR: ".." })).toMatch(/^AGENT_MOD_DIR=\.\.: must be one folder name/)
      expect(yield* refusal({ ...base, AGENT_COMMAND_SUFFIX: "json" })).toMatch(/^AGENT_COMMAND_SUFFIX=json: must start with "\."/)
      expect(yield* refusal({ ...base, AGENT_RESPONSE_SUFFIX: ".a/b" })).toMatch(/^AGENT_RESPONSE_SUFFIX=\.a\/b/)
      expect(yield* refusal({ ...base, AGENT_COMMAND_TIMEOUT: "soon" })).toMatch(/^AGENT_COMMAND_TIMEOUT=soon: expected a duration/)
      expect(yield* refusal({ ...base, AGENT_COMMAND_TIMEOUT: "5" })).toMatch(/^AGENT_COMMAND_TIMEOUT=5: must be from 100 ms/)
      expect(yield* refusal({ ...base, AGENT_PORT: "70000" })).toBe("AGENT_PORT=70000: must be a whole number from 0 to 65535")
      expect(yield* refusal({ ...base, LOG_LEVEL: "loud" })).toMatch(/^LOG_LEVEL=loud: must be one of/)
    })
  )
})

describe("the key check", () => {
  it("takes exactly `Bearer <key>`", () => {
    const check = makeKeyCheck(Redacted.make("s3cret-key"))
    expect(check("Bearer s3cret-key")).toBe(true)
    expect(check("bearer s3cret-key")).toBe(true)
    expect(check("Bearer  s3cret-key ")).toBe(true)
    expect(check("Bearer s3cret-kez")).toBe(false)
    expect(check("Bearer s3cret-key-and-more")).toBe(false)
    expect(check("Bearer s3cret")).toBe(false)
    expect(check("Bearer ")).toBe(false)
    expect(check("s3cret-key")).toBe(false)
    expect(check("Basic czNjcmV0LWtleQ==")).toBe(false)
    expect(check(undefined)).toBe(false)
  })

  it("lets everything through when there is no key (development, loopback only)", () => {
    expect(makeKeyCheck(undefined)(undefined)).toBe(true)
  })
})
