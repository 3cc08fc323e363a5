/**
 * The settings a test controller or kernel runs with: `GarrisonConfig`
 * over its defaults, on a data directory that is the caller's or a
 * throw-away one removed when the layer closes, with what plugins read
 * through `Config` taken from a map instead of the environment. On the
 * PostgreSQL pass (`GARRISON_TEST_DATABASE=postgres`) it also names the
 * data directory's database on the run's server (`databaseUrl`, see
 * `testDatabaseFor`); on SQLite nothing more.
 */
import { GarrisonConfig, type GarrisonSettings } from "@garrison/runtime"
import type * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as Os from "node:os"
import { scopedTempDir } from "./TempDir.js"
import { testDatabaseFor } from "./TestDatabase.js"

export interface SettingsOptions {
  /**
   * Settings over the defaults, e.g. `{ trustProxyHops: 1, bodyLimitBytes: 1024 }`.
   * `dataDir`: the caller's data directory (kept); else a fresh one,
   * removed when the layer closes. `databaseUrl`, when given (even
   * `undefined`: SQLite), wins over the PostgreSQL pass's database.
   */
  readonly settings?: Partial<GarrisonSettings>
  /** How the throw-away data directory's name starts: `garrison-data-`. */
  readonly dataPrefix?: string
  /**
   * What plugins read through `Config` (`ADMIN_PASSWORD`, `SESSION_TTL`, ...,
   * and the settings above when not given there), instead of the environment.
   * `SERVERS_ROOT` defaults to the run's temporary folder (where `fakeInstall`
   * makes installs, so a deployer may add them); `""` unsets it.
   * `ALLOW_ROOT_GAME_SERVERS` defaults to `true` (tests make their installs as root).
   */
  readonly config?: Readonly<Record<string, string>>
}

/**
 * `layer` (anything needing `GarrisonConfig`) over the test's settings.
 * Scheduled database backups are a year apart unless `settings` says
 * otherwise: tests move the TestClock by hours and years.
 */
export const withTestSettings = <A, E, R>(
  layer: Layer.Layer<A, E, R>,
  options: SettingsOptions
): Layer.Layer<A, E | ConfigError.ConfigError, Exclude<R, GarrisonConfig>> => {
  const dataDir =
    options.settings?.dataDir === undefined ? scopedTempDir(options.dataPrefix ?? "garrison-data-") : Effect.succeed(options.settings.dataDir)
  // What the test gives (else whatever provider it runs under), and then `SERVERS_ROOT`: the run's temporary folder, where
  // `fakeInstall` makes installs.
  // `ALLOW_ROOT_GAME_SERVERS`: tests run as root and make their installs as root (see `spawnController`).
  const defaults = ConfigProvider.fromMap(new Map([["SERVERS_ROOT", Os.tmpdir()], ["ALLOW_ROOT_GAME_SERVERS", "true"]]))
  const provider = Layer.unwrapEffect(
    Effect.configProviderWith((current) =>
      Effect.succeed(
        Layer.setConfigProvider(
          (options.config === undefined ? current : ConfigProvider.fromMap(new Map(Object.entries(options.config)))).pipe(ConfigProvider.orElse(() => defaults))
        )
      )
    )
  )
  return Layer.unwrapScoped(
    Effect.flatMap(dataDir, (dir) =>
      Effect.map(testDatabaseSettings(dir, { owned: options.settings?.dataDir === undefined, settings: options.settings, config: options.config }), (database) =>
        layer.pipe(Layer.provide(GarrisonConfig.layerWith({ backupInterval: Duration.days(365_000), ...database, ...options.settings, dataDir: dir })))
      )
    )
  ).pipe(Layer.provide(provider))
}

/**
 * The database settings of a controller or kernel on `dataDir`: `{}` on SQLite (the default; nothing is asked of
 * any server), `{ databaseUrl }` on the PostgreSQL pass: the directory's database (`testDatabaseFor`), released
 * when the scope closes. Empty too when the test chose the database itself: `settings` has `databaseUrl` (even
 * `undefined`), or `config` names `DATABASE_URL`.
 */
export const testDatabaseSettings = (
  dataDir: string,
  options: {
    /** `dataDir` is a throw-away one: its database goes as soon as the scope closes. */
    readonly owned?: boolean
    readonly settings?: Partial<GarrisonSettings> | undefined
    readonly config?: Readonly<Record<string, string>> | undefined
  } = {}
): Effect.Effect<Partial<GarrisonSettings>, never, Scope.Scope> =>
  (options.settings !== undefined && "databaseUrl" in options.settings) || options.config?.["DATABASE_URL"] !== undefined
    ? Effect.succeed({})
    : Effect.map(testDatabaseFor(dataDir, { owned: options.owned ?? false }), (url) => (url === undefined ? {} : { databaseUrl: Redacted.make(url) }))

/**
 * `GarrisonConfig.layerWith(settings)` for a test that builds the runtime itself, on the run's engine: on the
 * PostgreSQL pass with the data directory's database (`testDatabaseSettings`) unless `settings` names one
 * (`databaseUrl`, even `undefined` for SQLite), released when the layer closes.
 */
export const testGarrisonConfig = (settings: Partial<GarrisonSettings> & { readonly dataDir: string }): Layer.Layer<GarrisonConfig, ConfigError.ConfigError> =>
  Layer.unwrapScoped(Effect.map(testDatabaseSettings(settings.dataDir, { settings }), (database) => GarrisonConfig.layerWith({ ...database, ...settings })))
