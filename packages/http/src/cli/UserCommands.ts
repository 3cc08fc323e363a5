/**
 * `garrison user create|reset-password|disable-mfa`: on the data directory's store (SQLite or `DATABASE_URL`),
 * whether the controller runs or not, like `npm run reset-admin`; or, with `--url` and `--token` (or
 * `GARRISON_TOKEN`), through a controller's API as an admin (`POST /api/users`, `PATCH /api/users/:id`).
 * A generated one-time password is printed once, to stdout, and nowhere else.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { AccountsPlugin, AuditPlugin, resetAdminPassword, Users } from "@garrison/plugins"
import { AuditTrail, GarrisonConfig, Runtime } from "@garrison/runtime"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { randomBytes } from "node:crypto"
import { type ApiTarget, apiRequest, findUser } from "./ApiClient.js"
import { CliFailure, describeFailure } from "./CliFailure.js"
import { requireControllerDatabase } from "./LocalStore.js"

/** The accounts and audit plugins on the configured store (no game server touched, no port opened). */
const accountsLayer = Runtime.layer([AuditPlugin, AccountsPlugin], { scheduledBackups: false })

const url = Options.text("url").pipe(
  Options.withDescription("Work through this controller's API (http://host:port) instead of the data directory; needs --token"),
  Options.optional
)
const token = Options.redacted("token").pipe(
  Options.withDescription("An admin's session token (from POST /api/auth/login) for --url; or set GARRISON_TOKEN"),
  Options.withFallbackConfig(Config.redacted("GARRISON_TOKEN")),
  Options.optional
)
const remote = { url, token }

/** The API target, when `--url` is given (a token is then required). */
const apiTarget = (options: { readonly url: Option.Option<string>; readonly token: Option.Option<Redacted.Redacted<string>> }) =>
  Option.match(options.url, {
    onNone: () => Effect.succeed(Option.none<ApiTarget>()),
    onSome: (at) =>
      Option.match(options.token, {
        onNone: () => Effect.fail(new CliFailure({ message: "--url needs --token (or GARRISON_TOKEN): an admin's session token" })),
        onSome: (secret) => Effect.succeed(Option.some<ApiTarget>({ url: at, token: secret }))
      })
  })

/** On the data directory's store, with the settings of `npm start`; its failures become one line. */
const local = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* requireControllerDatabase
    return yield* work.pipe(Effect.provide(accountsLayer))
  }).pipe(
    Effect.provide(GarrisonConfig.layer),
    Effect.mapError((error) => (error instanceof CliFailure ? error : new CliFailure({ message: describeFailure(error) })))
  )

const audit = (action: string, target: string, details: Record<string, unknown>) =>
  Effect.flatMap(AuditTrail, (trail) =>
    // Run on the host: no principal behind it, no actor (as reset-admin).
    trail.record({ actor: null, ip: null, action, target, result: "success", details: { via: "garrison command line", ...details } })
  )

/**
 * A one-time password: 24 characters from 18 random bytes. Set through the API it meets the
 * password policy like any other (random, so zxcvbn scores it 4), and so it never holds the username.
 */
const oneTimePassword = (username: string) => {
  const name = username.trim().toLowerCase()
  for (;;) {
    const password = randomBytes(18).toString("base64url")
    // The policy looks for usernames of 3 characters or more (packages/plugins/src/accounts/passwords/policy.ts).
    if (name.length < 3 || !password.toLowerCase().includes(name)) return password
  }
}

const readStdin = Effect.tryPromise({
  try: async () => {
    const chunks: Array<Buffer> = []
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array))
    return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "")
  },
  catch: (cause) => new CliFailure({ message: `cannot read the password from stdin: ${describeFailure(cause)}` })
})

const create = Command.make(
  "create",
  {
    name: Args.text({ name: "name" }).pipe(Args.withDescription("The new user's username")),
    role: Options.text("role").pipe(Options.withDescription("Their role (admin, moderator, or one made on the roles page)")),
    passwordStdin: Options.boolean("password-stdin").pipe(
      Options.withDescription("Read their password from stdin (else a one-time password is made, printed once, and must be changed at first sign-in)")
    ),
    ...remote
  },
  (options) =>
    Effect.gen(function* () {
      const given = options.passwordStdin ? Option.some(yield* readStdin) : Option.none<string>()
      const password = Option.getOrElse(given, () => oneTimePassword(options.name))
      const mustChangePassword = Option.isNone(given)
      const target = yield* apiTarget(options)
      if (Option.isSome(target)) {
        yield* apiRequest(target.value, "POST", "/api/users", { username: options.name, password, role: options.role, mustChangePassword })
      } else {
        yield* local(
          Effect.gen(function* () {
            const users = yield* Users
            const user = yield* users.create({ username: options.name, password, role: options.role, mustChangePassword, passwordTrusted: mustChangePassword })
            yield* audit("users.create", user.username, { role: user.role })
          })
        )
      }
      yield* Console.log(
        mustChangePassword
          ? `created the user "${options.name}" (${options.role}); one-time password: ${password} ; they change it at first sign-in (it is not shown again)`
          : `created the user "${options.name}" (${options.role}) with the password read from stdin`
      )
    })
).pipe(Command.withDescription("Create a user, on the data directory (controller running or not) or through the API with --url and --token"))

const resetPassword = Command.make(
  "reset-password",
  {
    name: Args.text({ name: "name" }).pipe(Args.withDescription("The user (on the data directory: an admin; default: the only admin)"), Args.optional),
    mfaOff: Options.boolean("mfa-off").pipe(Options.withDescription("Also turn their MFA off (a lost authenticator and recovery codes)")),
    ...remote
  },
  (options) =>
    Effect.gen(function* () {
      const target = yield* apiTarget(options)
      if (Option.isSome(target)) {
        const name = yield* Option.match(options.name, {
          onNone: () => Effect.fail(new CliFailure({ message: "name the user to reset (with --url)" })),
          onSome: Effect.succeed
        })
        const user = yield* findUser(target.value, name)
        const password = oneTimePassword(user.username)
        yield* apiRequest(target.value, "PATCH", `/api/users/${encodeURIComponent(user.id)}`, {
          password,
          mustChangePassword: true,
          ...(options.mfaOff ? { mfaEnabled: false } : {})
        })
        return yield* Console.log(
          `new one-time password for "${user.username}": ${password} ; their sessions have ended${options.mfaOff ? "; their MFA is off (enrol again)" : ""}; ` +
            "sign in and change it now (it is not shown again)"
        )
      }
      const reset = yield* local(resetAdminPassword(Option.getOrUndefined(options.name), { turnMfaOff: options.mfaOff }))
      yield* Console.log(
        `new one-time password for the admin "${reset.username}": ${reset.password} ; ` +
          `their sessions have ended and sign-in lockouts are lifted${reset.mfaTurnedOff ? "; their MFA is off (enrol again)" : ""}; ` +
          "sign in and change it now (it is not shown again)"
      )
    })
).pipe(
  Command.withDescription(
    "A new one-time password for a user (printed once): their sessions end, sign-in lockouts are lifted, an audit row is written (npm run reset-admin)"
  )
)

const disableMfa = Command.make(
  "disable-mfa",
  { name: Args.text({ name: "name" }).pipe(Args.withDescription("The user whose MFA to turn off")), ...remote },
  (options) =>
    Effect.gen(function* () {
      const target = yield* apiTarget(options)
      if (Option.isSome(target)) {
        const user = yield* findUser(target.value, options.name)
        yield* apiRequest(target.value, "PATCH", `/api/users/${encodeURIComponent(user.id)}`, { mfaEnabled: false })
      } else {
        yield* local(
          Effect.gen(function* () {
            const users = yield* Users
            const user = yield* Effect.flatMap(users.findByUsername(options.name), (found) =>
              Option.match(found, { onNone: () => Effect.fail(new CliFailure({ message: `no user "${options.name}"` })), onSome: Effect.succeed })
            )
            yield* users.update(user.id, { mfaEnabled: false })
            yield* audit("users.update", user.username, { fields: ["mfaEnabled"] })
          })
        )
      }
      yield* Console.log(`MFA is off for "${options.name}"; they may enrol again after signing in`)
    })
).pipe(Command.withDescription("Turn a user's MFA off (a lost authenticator), on the data directory or through the API"))

export const userCommand = Command.make("user").pipe(
  Command.withDescription("Manage users: create, reset-password, disable-mfa"),
  Command.withSubcommands([create, resetPassword, disableMfa])
)
