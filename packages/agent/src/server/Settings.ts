/**
 * The agent's settings, read once at start-up from the environment
 * (through Effect `Config`, so an embedding program can supply them another
 * way) and checked before anything is written or bound. A bad one stops the
 * start with one line saying why (`StartupError`).
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { AGENT_PORT, COMMAND_TIMEOUT_MS, DEFAULT_MOD_DIR, HEARTBEAT_FILE } from "../contract/Protocol.js"

/** A start that cannot go on; `message` is the one line to print. */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", { message: Schema.String }) {}

export interface AgentSettings {
  readonly port: number
  readonly host: string
  /** The agent key; undefined only in development, where the agent listens on loopback only. */
  readonly key: Redacted.Redacted<string> | undefined
  readonly production: boolean
  /** The game server's profiles folder (absolute). */
  readonly profilesDir: string
  /** The mod's folder name inside it. */
  readonly modDir: string
  readonly commandTimeoutMs: number
  readonly commandSuffix: string
  readonly responseSuffix: string
  /** The safety-net scan of the responses folder (the watcher does the real work). */
  readonly pollIntervalMs: number
  /** A mod silent for longer than this is reported as not answering. */
  readonly modStaleAfterMs: number
  /** Commands waiting at once, at most; more are refused with 503. */
  readonly maxPending: number
  readonly heartbeatFile: string
  readonly logLevel: LogLevel.LogLevel
}

/** `<profilesDir>/<modDir>`. */
export const modRoot = (settings: AgentSettings) => NodePath.join(settings.profilesDir, settings.modDir)

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"])
export const isLoopback = (host: string) => LOOPBACK.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host)

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(Effect.map((o) => Option.filter(o, (s) => s.trim() !== "")), Effect.orElseSucceed(() => Option.none<string>()))

const fail = (message: string) => Effect.fail(new StartupError({ message }))

/** A duration as an Effect duration (`10 seconds`, `500 millis`) or a number of milliseconds. */
const readDuration = (name: string, fallbackMs: number, min: number, max: number) =>
  Effect.flatMap(optionalString(name), (raw) => {
    if (Option.isNone(raw)) return Effect.succeed(fallbackMs)
    const text = raw.value.trim()
    const ms = /^\d+(\.\d+)?$/.test(text)
      ? Number(text)
      : Option.match(Duration.decodeUnknown(text), { onNone: () => Number.NaN, onSome: Duration.toMillis })
    if (!Number.isFinite(ms)) return fail(`${name}=${text}: expected a duration such as "10 seconds" or a number of milliseconds`)
    if (ms < min || ms > max) return fail(`${name}=${text}: must be from ${min} ms to ${max} ms`)
    return Effect.succeed(ms)
  })

const readInt = (name: string, fallback: number, min: number, max: number) =>
  Effect.flatMap(optionalString(name), (raw) => {
    if (Option.isNone(raw)) return Effect.succeed(fallback)
    const value = Number(raw.value.trim())
    if (!Number.isInteger(value) || value < min || value > max) return fail(`${name}=${raw.value}: must be a whole number from ${min} to ${max}`)
    return Effect.succeed(value)
  })

const SUFFIX = /^\.[A-Za-z0-9_-][A-Za-z0-9._-]{0,30}$/
const readSuffix = (name: string) =>
  Effect.flatMap(optionalString(name), (raw) => {
    const value = Option.getOrElse(raw, () => ".json")
    if (!SUFFIX.test(value) || value.endsWith(".tmp")) {
      return fail(`${name}=${value}: must start with "." and hold only letters, digits, ".", "_" or "-" (at most 32 characters, not ".tmp")`)
    }
    return Effect.succeed(value)
  })

const LOG_LEVELS: Record<string, LogLevel.LogLevel> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

/** Reads and checks every setting. */
export const readSettings: Effect.Effect<AgentSettings, StartupError> = Effect.gen(function* () {
  const production = Option.getOrElse(yield* optionalString("NODE_ENV"), () => "development").trim() === "production"
  const keyText = yield* optionalString("SIDECAR_API_KEY")
  const key = Option.isSome(keyText) ? keyText : yield* optionalString("INHOUSE_API_KEY")
  const hostSetting = yield* optionalString("AGENT_HOST")

  if (Option.isNone(key) && production) {
    return yield* fail("SIDECAR_API_KEY is not set (nor the legacy INHOUSE_API_KEY): with NODE_ENV=production the agent needs a key")
  }
  let host: string
  if (Option.isNone(key)) {
    host = Option.getOrElse(hostSetting, () => "127.0.0.1").trim()
    if (!isLoopback(host)) {
      return yield* fail(
        `AGENT_HOST=${host} refused: without SIDECAR_API_KEY the agent listens on 127.0.0.1 only (set SIDECAR_API_KEY to listen on other interfaces)`
      )
    }
  } else host = Option.getOrElse(hostSetting, () => "0.0.0.0").trim()

  const port = yield* readInt("AGENT_PORT", AGENT_PORT, 0, 65535)

  const profilesSetting = yield* optionalString("AGENT_PROFILES_DIR")
  if (Option.isNone(profilesSetting)) {
    return yield* fail("AGENT_PROFILES_DIR is not set: give the game server's profiles folder (its -profiles= folder)")
  }
  const profilesDir = NodePath.resolve(profilesSetting.value.trim())
  const stat = yield* Effect.sync(() => {
    try {
      return Fs.statSync(profilesDir)
    } catch {
      return undefined
    }
  })
  if (stat === undefined) return yield* fail(`AGENT_PROFILES_DIR=${profilesDir}: no such folder`)
  if (!stat.isDirectory()) return yield* fail(`AGENT_PROFILES_DIR=${profilesDir}: not a folder`)

  const modDir = Option.getOrElse(yield* optionalString("AGENT_MOD_DIR"), () => DEFAULT_MOD_DIR).trim()
  if (!/^[A-Za-z0-9@_ -][A-Za-z0-9@._ -]{0,63}$/.test(modDir) || modDir === "." || modDir === "..") {
    return yield* fail(`AGENT_MOD_DIR=${modDir}: must be one folder name (letters, digits, "@", ".", "_", "-", spaces; at most 64 characters)`)
  }
  const commandSuffix = yield* readSuffix("AGENT_COMMAND_SUFFIX")
  const responseSuffix = yield* readSuffix("AGENT_RESPONSE_SUFFIX")
  const commandTimeoutMs = yield* readDuration("AGENT_COMMAND_TIMEOUT", COMMAND_TIMEOUT_MS, 100, 600_000)
  const pollIntervalMs = yield* readDuration("AGENT_POLL_INTERVAL", 1_000, 10, 60_000)
  const modStaleAfterMs = yield* readDuration("AGENT_MOD_STALE_AFTER", 10_000, 100, 3_600_000)
  const maxPending = yield* readInt("AGENT_MAX_PENDING", 10_000, 1, 1_000_000)
  const levelText = Option.getOrElse(yield* optionalString("LOG_LEVEL"), () => "Info").trim()
  const logLevel = LOG_LEVELS[levelText.toLowerCase()]
  if (logLevel === undefined) return yield* fail(`LOG_LEVEL=${levelText}: must be one of All, Trace, Debug, Info, Warning, Error, Fatal, None`)

  return {
    port,
    host,
    key: Option.isSome(key) ? Redacted.make(key.value) : undefined,
    production,
    profilesDir,
    modDir,
    commandTimeoutMs,
    commandSuffix,
    responseSuffix,
    pollIntervalMs,
    modStaleAfterMs,
    maxPending,
    heartbeatFile: HEARTBEAT_FILE,
    logLevel
  }
})
