/**
 * The platform's environment settings: where SteamCMD and the Steam Web
 * API are (`STEAMCMD_PATH`, `STEAM_WEB_API_URL`, `STEAM_WEB_API_KEY`), and
 * how long workshop answers are kept (`WORKSHOP_CACHE_TTL`). Values set
 * through `PATCH /api/platform/settings` win over these; these win over
 * the defaults (the real SteamCMD on PATH, the real Web API).
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export const DEFAULT_STEAMCMD_PATH = "steamcmd"
export const DEFAULT_WEB_API_URL = "https://api.steampowered.com"
export const DEFAULT_WORKSHOP_CACHE_TTL = Duration.minutes(10)

export interface PlatformEnvironment {
  readonly steamcmdPath: Option.Option<string>
  readonly webApiUrl: Option.Option<string>
  readonly webApiKey: Option.Option<Redacted.Redacted>
  readonly workshopCacheTtl: Duration.Duration
}

const nonEmpty = (config: Config.Config<string>) =>
  Config.option(config.pipe(Config.validate({ message: "must not be empty", validation: (s) => s.trim() !== "" })))

export const platformEnvironment: Config.Config<PlatformEnvironment> = Config.all({
  steamcmdPath: nonEmpty(Config.string("STEAMCMD_PATH")),
  webApiUrl: Config.option(
    Config.string("STEAM_WEB_API_URL").pipe(
      Config.validate({
        message: "must be an http(s) URL",
        validation: (s) => {
          try {
            return ["http:", "https:"].includes(new URL(s).protocol)
          } catch {
            return false
          }
        }
      })
    )
  ),
  webApiKey: Config.option(Config.redacted("STEAM_WEB_API_KEY")),
  workshopCacheTtl: Config.duration("WORKSHOP_CACHE_TTL").pipe(Config.withDefault(DEFAULT_WORKSHOP_CACHE_TTL))
})
