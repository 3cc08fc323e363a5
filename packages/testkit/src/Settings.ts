/**
 * The settings a test controller or kernel runs with: `GarrisonConfig`
 * over its defaults, on a data directory that is the caller's or a
 * throw-away one removed when the layer closes, with what plugins read
 * through `Config` taken from a map instead of the environment.
 */
import { GarrisonConfig, type GarrisonSettings } from "@garrison/runtime"
import type * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Os from "node:os"
import { scopedTempDir } from "./TempDir.js"

export interface SettingsOptions {
  /**
   * Settings over the defaults, e.g. `{ trustProxyHops: 1, bodyLimitBytes: 1024 }`.
   * `dataDir`: the caller's data directory (kept); else a fresh one,
   * removed when the layer closes.
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
    Effect.map(dataDir, (dir) =>
      layer.pipe(Layer.provide(GarrisonConfig.layerWith({ backupInterval: Duration.days(365_000), ...options.settings, dataDir: dir })))
    )
  ).pipe(Layer.provide(provider))
}
