/**
 * The `garrison` command line (`bin/garrison.mjs` runs this, built): `start`, `user`, `backup`, `restore`,
 * `doctor`, `service`, `sim`, `steamcmd`, `move-to-postgres`; `garrison <command> --help` for each. Every
 * command reads the controller's settings from the environment, as `npm start` does. `start` and the
 * forwarding commands (`Forward.ts`) are dispatched before parsing, so their scripts run exactly as their npm
 * scripts ran them. A failure prints one line, `garrison: <why>`, and exits 1.
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { GarrisonConfig } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { backupCommand, restoreCommand } from "./BackupCommands.js"
import { CliFailure, describeFailure } from "./CliFailure.js"
import { doctorCommand } from "./DoctorCommand.js"
import { matchForward, moveToPostgresCommand, runForward, simCommand, START_SCRIPT, startCommand, steamcmdCommand } from "./Forward.js"
import { packageVersion } from "./PackageRoot.js"
import { serviceCommand } from "./ServiceCommand.js"
import { userCommand } from "./UserCommands.js"

const root = Command.make("garrison").pipe(
  Command.withDescription("Garrison, the DayZ server controller: start it, manage its users, back it up, check the host"),
  Command.withSubcommands([
    startCommand,
    userCommand,
    Command.provide(backupCommand, GarrisonConfig.layer),
    Command.provide(restoreCommand, GarrisonConfig.layer),
    Command.provide(doctorCommand, GarrisonConfig.layer),
    serviceCommand,
    simCommand,
    steamcmdCommand,
    moveToPostgresCommand
  ])
)

const cli = Command.run(root, { name: "garrison", version: packageVersion })

const argv = process.argv.slice(2)
const forwarded = matchForward(argv)
if (argv.length === 1 && argv[0] === "start") {
  await import(START_SCRIPT)
} else if (forwarded !== undefined) {
  process.exitCode = await runForward(forwarded.forward, forwarded.rest)
} else {
  cli(process.argv).pipe(
    // The runtime's start-up lines (migrations, backups) are noise here; errors still show.
    Logger.withMinimumLogLevel(LogLevel.Error),
    Effect.catchAll((error) =>
      // @effect/cli has printed its own validation errors (with the usage) already.
      ValidationError.isValidationError(error)
        ? Effect.sync(() => void (process.exitCode = 2))
        : Effect.zipRight(Console.error(`garrison: ${error instanceof CliFailure ? error.message : describeFailure(error)}`), Effect.sync(() => void (process.exitCode = 1)))
    ),
    Effect.provide(NodeContext.layer),
    (program) => NodeRuntime.runMain(program, { disableErrorReporting: true })
  )
}
