/**
 * Controller configuration, read once through Effect `Config` so tests and
 * embedders can supply it with a `ConfigProvider` instead of the environment.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as NodePath from "node:path"

export interface GarrisonSettings {
  readonly port: number
  readonly host: string
  /** Absolute path of the data directory. */
  readonly dataDir: string
  /** Extra plugin modules to load (paths or package names). */
  readonly plugins: ReadonlyArray<string>
  /** How many proxy hops to trust for `X-Forwarded-For`; 0 means the socket address. */
  readonly trustProxyHops: number
  readonly bodyLimitBytes: number
  /** How often a scheduled database backup is taken; a restore loses at most about this much. */
  readonly backupInterval: Duration.Duration
  /** Newest backups kept, and intervals back for which one backup each is kept (see `Database.pruneBackups`). */
  readonly backupKeep: number
  /**
   * Absolute path of the web dashboard's built folder (`DASHBOARD_DIR`);
   * `undefined`: the host's default, `packages/dashboard/dist` beside the
   * http package.
   */
  readonly dashboardDir: string | undefined
  /**
   * `DATABASE_URL`: a `postgres://` (or `postgresql://`) URL switches the
   * store to that PostgreSQL database; `undefined` (unset or empty): SQLite
   * in the data directory. Redacted: it may hold a password, and nothing
   * prints it (see `describeDatabaseUrl`).
   */
  readonly databaseUrl: Redacted.Redacted<string> | undefined
  readonly version: string
}

const trustProxy = Config.string("TRUST_PROXY").pipe(
  Config.withDefault("false"),
  Config.mapOrFail((raw) => {
    const value = raw.trim().toLowerCase()
    if (value === "" || value === "false" || value === "0" || value === "off") return Either.right(0)
    if (value === "true" || value === "on") return Either.right(1)
    const hops = Number(value)
    return Number.isInteger(hops) && hops > 0 && hops < 16
      ? Either.right(hops)
      : Either.left(ConfigError.InvalidData(["TRUST_PROXY"], `expected true, false or a number of proxy hops, got "${raw}"`))
  })
)

/** Why `url` is no PostgreSQL URL (never quoting it: it may hold a password), or undefined. */
const databaseUrlProblem = (url: string): string | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "expected a URL such as postgres://user:password@host:5432/garrison"
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    return `expected a postgres:// or postgresql:// URL, got a ${parsed.protocol.replace(/:$/, "")}:// one (unset it for SQLite in the data directory)`
  }
  if (parsed.hostname === "" && !parsed.searchParams.has("host")) return "the URL names no host"
  if (parsed.pathname.replace(/^\//, "") === "") return "the URL names no database (postgres://host:5432/<database>)"
  return undefined
}

/** A PostgreSQL URL as it may be printed: user, host, port and database, never the password or the options. */
export const describeDatabaseUrl = (url: Redacted.Redacted<string>): string => {
  try {
    const parsed = new URL(Redacted.value(url))
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`
    return `postgres://${user}${parsed.host}${parsed.pathname}`
  } catch {
    return "postgres://(unreadable URL)"
  }
}

export const settingsConfig: Config.Config<GarrisonSettings> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  dataDir: Config.string("DATA_DIR").pipe(
    Config.withDefault("./data"),
    Config.map((dir) => NodePath.resolve(dir))
  ),
  plugins: Config.string("PLUGINS").pipe(
    Config.withDefault(""),
    Config.map((raw) => raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0))
  ),
  trustProxyHops: trustProxy,
  bodyLimitBytes: Config.integer("BODY_LIMIT_BYTES").pipe(Config.withDefault(1024 * 1024)),
  backupInterval: Config.duration("DB_BACKUP_INTERVAL").pipe(Config.withDefault(Duration.hours(1))),
  backupKeep: Config.integer("DB_BACKUP_KEEP").pipe(
    Config.withDefault(10),
    // 0 would prune every backup, the one a restore needs included.
    Config.validate({ message: "expected at least 1", validation: (keep) => keep >= 1 })
  ),
  dashboardDir: Config.string("DASHBOARD_DIR").pipe(
    Config.option,
    Config.map((dir) => (Option.isSome(dir) && dir.value.trim() !== "" ? NodePath.resolve(dir.value) : undefined))
  ),
  databaseUrl: Config.redacted("DATABASE_URL").pipe(
    Config.option,
    Config.mapOrFail((url) => {
      if (Option.isNone(url) || Redacted.value(url.value).trim() === "") return Either.right(undefined)
      const problem = databaseUrlProblem(Redacted.value(url.value).trim())
      return problem === undefined
        ? Either.right(Redacted.make(Redacted.value(url.value).trim()))
        : Either.left(ConfigError.InvalidData(["DATABASE_URL"], problem))
    })
  ),
  version: Config.string("GARRISON_VERSION").pipe(Config.withDefault("0.1.0"))
})

export class GarrisonConfig extends Context.Tag("@garrison/runtime/GarrisonConfig")<
  GarrisonConfig,
  GarrisonSettings
>() {
  /** Reads the settings from the current `ConfigProvider` (the environment by default). */
  static readonly layer = Layer.effect(GarrisonConfig, settingsConfig)
  /** Fixed settings, for tests and embedding: anything not given takes its default. */
  static readonly layerWith = (overrides: Partial<GarrisonSettings>) =>
    Layer.effect(
      GarrisonConfig,
      Effect.map(settingsConfig, (defaults) => ({ ...defaults, ...overrides }))
    )
}

