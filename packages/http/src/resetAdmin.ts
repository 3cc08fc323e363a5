/**
 * `npm run reset-admin -- [username] [--mfa-off]`: prints a new one-time
 * password for an admin (the only admin when no name is given), for whoever
 * lost the first admin's password or their own; `--mfa-off` also turns
 * their MFA off. Reads the same settings as `npm start`
 * (`DATA_DIR`, `DATABASE_URL`, ...) and works on the store they name:
 * refused when there is no controller database there (SQLite: no
 * `garrison.db`; PostgreSQL: a database without Garrison's tables, no
 * `garrison_migrations`), which it never creates. Only the accounts and
 * audit plugins are loaded: no game server is touched, no port is opened.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { AccountsPlugin, AuditPlugin, resetAdminPassword } from "@garrison/plugins"
import { errorMessage, GarrisonConfig, Runtime, StartupError } from "@garrison/runtime"
import { requireControllerDatabase } from "./cli/LocalStore.js"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"

const USAGE = "usage: npm run reset-admin -- [username] [--mfa-off]"

/** The command line: at most one name, and the one flag. */
const parseArguments = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const flags = args.filter((arg) => arg.startsWith("-"))
    const names = args.filter((arg) => !arg.startsWith("-") && arg.trim() !== "")
    const unknown = flags.filter((flag) => flag !== "--mfa-off")
    if (unknown.length > 0 || names.length > 1) {
      return yield* new StartupError({
        reason: "config",
        message: `${unknown.length > 0 ? `unknown option ${unknown.join(", ")}` : "name one admin"}; ${USAGE}`
      })
    }
    return { username: names[0]?.trim(), turnMfaOff: flags.includes("--mfa-off") }
  })

const describe = (error: unknown) =>
  ConfigError.isConfigError(error) ? `bad configuration: ${String(error)}` : errorMessage(error)


const program = Effect.gen(function* () {
  const { username, turnMfaOff } = yield* parseArguments(process.argv.slice(2))
  yield* requireControllerDatabase
  const reset = yield* resetAdminPassword(username, { turnMfaOff }).pipe(
    Effect.provide(Runtime.layer([AuditPlugin, AccountsPlugin], { scheduledBackups: false }))
  )
  yield* Console.log(
    `new one-time password for the admin "${reset.username}": ${reset.password} ; ` +
      `their sessions have ended and sign-in lockouts are lifted${reset.mfaTurnedOff ? "; their MFA is off (enrol again)" : ""}; ` +
      "sign in and change it now (it is not shown again)"
  )
}).pipe(
  Effect.provide(GarrisonConfig.layer),
  // The runtime's own start-up lines are noise here; errors still show.
  Logger.withMinimumLogLevel(LogLevel.Error),
  Effect.catchAllCause((cause) =>
    Console.error(`cannot reset: ${Option.match(Cause.failureOption(cause), { onNone: () => Cause.pretty(cause), onSome: describe })}`).pipe(
      Effect.zipRight(Effect.failCause(cause))
    )
  )
)

NodeRuntime.runMain(program, { disableErrorReporting: true })
