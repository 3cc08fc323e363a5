/**
 * The accounts plugin's settings, read through Effect `Config` (the
 * environment by default; tests and embedders supply a `ConfigProvider`).
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `SESSION_TTL` | `12 hours` | Lifetime of a session token (Effect duration), 1 minute to 30 days |
 * | `ADMIN_USERNAME`, `ADMIN_PASSWORD` | (none) | The first admin, created on the first start when both are set (empty counts as unset) |
 */
import { StartupError } from "@garrison/runtime"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { checkPolicy } from "./passwords/Passwords.js"
import { isValidUsername, USERNAME_RULE } from "./users/username.js"

export interface AccountsSettings {
  readonly sessionTtl: Duration.Duration
  readonly adminUsername: Option.Option<string>
  readonly adminPassword: Option.Option<Redacted.Redacted<string>>
}

const nonEmpty = <A>(config: Config.Config<A>, isEmpty: (a: A) => boolean) =>
  Config.option(config).pipe(Config.map(Option.filter((a) => !isEmpty(a))))

export const accountsConfig: Config.Config<AccountsSettings> = Config.all({
  sessionTtl: Config.duration("SESSION_TTL").pipe(
    Config.withDefault(Duration.hours(12)),
    Config.mapOrFail((ttl) =>
      Duration.between(ttl, { minimum: Duration.minutes(1), maximum: Duration.days(30) })
        ? Either.right(ttl)
        : Either.left(ConfigError.InvalidData(["SESSION_TTL"], "expected a duration between 1 minute and 30 days"))
    )
  ),
  adminUsername: nonEmpty(Config.string("ADMIN_USERNAME"), (s) => s.trim().length === 0),
  adminPassword: nonEmpty(Config.redacted("ADMIN_PASSWORD"), (r) => Redacted.value(r).length === 0)
})

export class AccountsConfig extends Context.Tag("@garrison/plugins/accounts/AccountsConfig")<
  AccountsConfig,
  AccountsSettings
>() {
  static readonly layer = Layer.effect(AccountsConfig, accountsConfig)
}

/**
 * The plugin's settings checked before anything is written: a first admin
 * from the environment must be one that can be created, or the start stops
 * with one line (and the next start is still a first start).
 */
export const checkAccountsSettings: Effect.Effect<void, StartupError | ConfigError.ConfigError> = Effect.gen(function* () {
  const settings = yield* accountsConfig
  const username = Option.map(settings.adminUsername, (s) => s.trim())
  if (Option.isNone(username) || Option.isNone(settings.adminPassword)) return
  if (!isValidUsername(username.value)) {
    return yield* new StartupError({ reason: "config", message: `ADMIN_USERNAME: ${USERNAME_RULE}` })
  }
  // The same policy as every password a person sets (passwords/policy.ts): a weak one stops the start.
  // In a worker thread (`isolated`): the start keeps none of the dictionaries' memory.
  const policy = yield* Effect.either(
    checkPolicy(Redacted.value(settings.adminPassword.value), { username: username.value, field: "ADMIN_PASSWORD" }, { isolated: true })
  )
  if (Either.isLeft(policy)) {
    return yield* new StartupError({ reason: "config", message: `ADMIN_PASSWORD: ${policy.left.message}` })
  }
})
