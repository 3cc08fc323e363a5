/**
 * `npm run reset-admin -- [username]`: prints a new one-time password for an
 * admin (the only admin when no name is given), for whoever lost the first
 * admin's password or their own. Reads the same settings as `npm start`
 * (`DATA_DIR`, ...). Only the accounts and audit plugins are loaded: no game
 * server is touched, no port is opened.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { AccountsPlugin, AuditPlugin, resetAdminPassword } from "@garrison/plugins"
import { GarrisonConfig, Runtime, StartupError } from "@garrison/runtime"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"

const username = process.argv[2]?.trim() || undefined

const describe = (error: unknown) =>
  ConfigError.isConfigError(error) ? `bad configuration: ${String(error)}` : error instanceof Error ? error.message : String(error)

const program = Effect.gen(function* () {
  const config = yield* GarrisonConfig
  const database = NodePath.join(config.dataDir, "garrison.db")
  if (!existsSync(database)) {
    return yield* new StartupError({
      reason: "data-dir",
      message: `no controller database at ${database}: start the controller once, or set DATA_DIR to its data directory`
    })
  }
  const reset = yield* resetAdminPassword(username).pipe(
    Effect.provide(Runtime.layer([AuditPlugin, AccountsPlugin], { scheduledBackups: false }))
  )
  yield* Console.log(
    `new one-time password for the admin "${reset.username}": ${reset.password} ; ` +
      "their sessions have ended and sign-in lockouts are lifted; sign in and change it now (it is not shown again)"
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
