/**
 * The trust network's settings:
 *
 * - `TRUST_COMMUNITY_NAME`: this community's name, as partners see it
 *   (default `Garrison community`).
 * - `TRUST_THRESHOLD` (default 3.0): the summed vouch weight that makes a
 *   pool ban active.
 * - `TRUST_SIGNING` (default true): sign lookups (RS256). The key is
 *   `TRUST_SIGNING_KEY` (an RSA private key, PEM), else
 *   `DATA_DIR/secrets/trust-signing.pem`, generated on the first start.
 * - `RATE_LIMIT_TRUST_LOOKUP` (default 60/1m): the public lookup, per IP.
 */
import * as Config from "effect/Config"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { DEFAULT_THRESHOLD } from "./internal/rules.js"

export interface TrustSettings {
  readonly communityName: string
  readonly threshold: number
  readonly signing: boolean
  readonly signingKey: Option.Option<Redacted.Redacted<string>>
}

export const trustSettings: Config.Config<TrustSettings> = Config.all({
  communityName: Config.string("TRUST_COMMUNITY_NAME").pipe(
    Config.withDefault("Garrison community"),
    Config.map((name) => name.trim()),
    Config.validate({ message: "TRUST_COMMUNITY_NAME must be 1 to 100 characters on one line", validation: (name) => name.length > 0 && name.length <= 100 && !/[\r\n]/.test(name) && !name.includes("\u0000") })
  ),
  threshold: Config.number("TRUST_THRESHOLD").pipe(
    Config.withDefault(DEFAULT_THRESHOLD),
    Config.validate({ message: "TRUST_THRESHOLD must be a number above 0 and at most 100", validation: (n) => Number.isFinite(n) && n > 0 && n <= 100 })
  ),
  signing: Config.boolean("TRUST_SIGNING").pipe(Config.withDefault(true)),
  signingKey: Config.option(Config.redacted("TRUST_SIGNING_KEY")).pipe(Config.map(Option.filter((key) => Redacted.value(key).trim() !== "")))
})
