/**
 * `METRICS_TOKEN`: a run-time setting (the system plugin's `PATCH
 * /api/system/config` sets or clears it while the controller runs; stored
 * sealed, shown only as set), else the environment's. Absent or empty:
 * metrics are off (`GET /metrics` is 404). Redacted: the token is never
 * logged, shown or returned.
 */
import { RuntimeSetting, StartupError } from "@garrison/runtime"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

export const METRICS_TOKEN = "METRICS_TOKEN"

/** Shorter tokens are refused at start: the route is guessable by design, the token must not be. */
export const MIN_TOKEN_LENGTH = 16

/** The setting; read its value with `currentSetting(MetricsTokenSetting)` (or a captured `RuntimeSettings`) at each scrape. */
export const MetricsTokenSetting = RuntimeSetting.secretText({
  key: METRICS_TOKEN,
  description: "The bearer token a metrics scraper sends to GET /metrics; metrics are off while it is not set",
  minLength: MIN_TOKEN_LENGTH
})

/** The environment's scrape token, or none. */
const environmentToken: Effect.Effect<Option.Option<Redacted.Redacted<string>>, ConfigError.ConfigError> = Effect.map(
  Config.option(Config.redacted(METRICS_TOKEN)),
  Option.filter((token) => Redacted.value(token).trim() !== "")
)

/** At start: a token too short in the environment stops the start with one line (never quoting it); a stored one was checked when stored. */
export const checkMetricsToken: Effect.Effect<void, StartupError | ConfigError.ConfigError> = Effect.flatMap(environmentToken, (token) =>
  Option.isSome(token) && Redacted.value(token.value).length < MIN_TOKEN_LENGTH
    ? Effect.fail(
        new StartupError({
          reason: "config",
          message: `${METRICS_TOKEN} must be at least ${MIN_TOKEN_LENGTH} characters (a random one: openssl rand -hex 32)`
        })
      )
    : Effect.void
)
