/**
 * `npm start`: the controller with the default plugins plus those named in
 * `PLUGINS`, configured from the environment. A start-up error prints one
 * clear line and exits 1.
 */
// Deep import: the package index also loads cluster, workers, undici and ws.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { defaultPlugins } from "@garrison/plugins"
import { GarrisonConfig, StartupError } from "@garrison/runtime"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { withBatchedOutput } from "./BatchedOutput.js"
import * as Controller from "./Controller.js"
import { loadPlugins } from "./PluginLoader.js"

/** `LOG_LEVEL`, case-insensitive; `warning` is accepted for `Warn`. */
const logLevel = Config.string("LOG_LEVEL").pipe(
  Config.withDefault("Info"),
  Config.mapOrFail((raw) => {
    const name = raw.trim().toLowerCase() === "warning" ? "warn" : raw.trim().toLowerCase()
    const level = LogLevel.allLevels.find((l) => l.label.toLowerCase() === name || l._tag.toLowerCase() === name)
    return level !== undefined
      ? Either.right(level)
      : Either.left(
          ConfigError.InvalidData(["LOG_LEVEL"], `expected one of ${LogLevel.allLevels.map((l) => l._tag).join(", ")}, got "${raw}"`)
        )
  })
)

const program = Effect.gen(function* () {
  const config = yield* GarrisonConfig
  const extra = yield* loadPlugins(config.plugins)
  yield* Effect.logInfo(`starting Garrison ${config.version}; data directory ${config.dataDir}`)
  // The controller logs "listening on ..." itself once its port is open.
  return yield* Layer.launch(Controller.layer([...defaultPlugins, ...extra]))
}).pipe(
  Effect.provide(GarrisonConfig.layer),
  // No trace exporter is configured: spans (each SQL statement makes one) would be pure cost.
  Effect.withTracerEnabled(false),
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure) && failure.value instanceof StartupError) {
      return Effect.logError(`cannot start: ${failure.value.message}`).pipe(Effect.zipRight(Effect.failCause(cause)))
    }
    if (Option.isSome(failure) && ConfigError.isConfigError(failure.value)) {
      return Effect.logError(`cannot start: bad configuration: ${String(failure.value)}`).pipe(Effect.zipRight(Effect.failCause(cause)))
    }
    return Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.logError("the controller stopped on an error", Cause.pretty(cause)).pipe(Effect.zipRight(Effect.failCause(cause)))
  })
)

Effect.flatMap(logLevel, (level) => program.pipe(Logger.withMinimumLogLevel(level))).pipe(
  Effect.tapErrorCause((cause) =>
    Cause.failureOption(cause).pipe(
      Option.filter(ConfigError.isConfigError),
      Option.match({ onNone: () => Effect.void, onSome: (e) => Effect.logError(`cannot start: bad configuration: ${String(e)}`) })
    )
  ),
  // Log lines as before, written once per 25 ms (BatchedOutput.ts); what is pending is written on the way out.
  (main) => Effect.scoped(Effect.zipRight(withBatchedOutput(25), main)),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
