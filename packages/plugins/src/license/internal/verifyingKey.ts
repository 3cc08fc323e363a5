/**
 * The key license tokens are checked with: the configured
 * `LICENSE_PUBLIC_KEY`, else the one pinned at activation (stored with the
 * license as a JWK), so a server that later signs with another key is not
 * believed.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { StartupError } from "@garrison/runtime"
import type { LicenseSettings } from "../config.js"
import { parsePublicKey, type VerifyingKey } from "./server.js"

/** `LICENSE_PUBLIC_KEY` parsed, if set; a bad one stops the start. */
export const configuredVerifyingKey = (settings: LicenseSettings): Effect.Effect<Option.Option<VerifyingKey>, StartupError> =>
  Option.isSome(settings.publicKey)
    ? Effect.map(
        Effect.mapError(
          parsePublicKey(settings.publicKey.value),
          (problem) => new StartupError({ reason: "config", message: `bad configuration: LICENSE_PUBLIC_KEY: ${problem}` })
        ),
        Option.some
      )
    : Effect.succeed(Option.none<VerifyingKey>())

/** The key a stored license is checked with: the configured one, else its pinned one; a reason when there is neither. */
export const verifyingKeyForStored = (
  configuredKey: Option.Option<VerifyingKey>,
  pinnedKey: string | null
): Effect.Effect<Either.Either<VerifyingKey, string>> =>
  Option.isSome(configuredKey)
    ? Effect.succeed(Either.right(configuredKey.value))
    : pinnedKey === null
      ? Effect.succeed(Either.left("no public key is configured or pinned"))
      : Effect.either(parsePublicKey(pinnedKey))
