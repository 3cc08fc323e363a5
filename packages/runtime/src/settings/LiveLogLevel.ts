/**
 * The controller's least log level, changeable while it runs (`LOG_LEVEL`
 * as a run-time setting). Effect keeps the minimum level per fiber, fixed
 * when each fiber starts, so the kernel lets every level through to the
 * loggers and filters there against one shared cell instead; the system
 * plugin moves the cell when an admin changes `LOG_LEVEL`.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { choice } from "./RuntimeSetting.js"

export const LOG_LEVELS = ["All", "Trace", "Debug", "Info", "Warning", "Error", "Fatal", "None"] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

/** `LOG_LEVEL`: case-insensitive; `warn` and `off` are accepted for `Warning` and `None`. */
export const LogLevelSetting = choice({
  key: "LOG_LEVEL",
  description: "The least level the controller logs",
  choices: LOG_LEVELS,
  default: "Info",
  aliases: { warn: "Warning", off: "None" }
})

export const logLevelNamed = (name: LogLevelName): LogLevel.LogLevel => LogLevel.allLevels.find((level) => level._tag === name) ?? LogLevel.Info

/** The level let through now, and the one the host started with (what clearing an override returns to). */
export interface LogLevelCell {
  level: LogLevel.LogLevel
  readonly initial: LogLevel.LogLevel
}

/** The cell of the runtime this fiber runs in (none outside one). One per process, however many copies of this module are loaded. */
export const liveLogLevelRef: FiberRef.FiberRef<Option.Option<LogLevelCell>> = globalValue(
  Symbol.for("@garrison/runtime/liveLogLevelRef"),
  () => FiberRef.unsafeMake(Option.none<LogLevelCell>())
)

/**
 * For what is built after it: the loggers present now, filtered by a new
 * cell that starts at the present minimum level (the host's `LOG_LEVEL`, a
 * test's level), and every level let through to them.
 */
export const liveLogging: Layer.Layer<never> = Layer.scopedDiscard(
  Effect.gen(function* () {
    const initial = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
    const cell: LogLevelCell = { level: initial, initial }
    yield* Effect.locallyScopedWith(
      FiberRef.currentLoggers,
      HashSet.map((logger) => Logger.filterLogLevel(logger, (level) => LogLevel.greaterThanEqual(level, cell.level)))
    )
    yield* Effect.locallyScoped(FiberRef.currentMinimumLogLevel, LogLevel.All)
    yield* Effect.locallyScoped(liveLogLevelRef, Option.some(cell))
  })
)

/** Moves the runtime's cell to `level`, or back to the start's level (`None`); nothing when the host installed no cell. */
export const setLiveLogLevel = (level: Option.Option<LogLevel.LogLevel>): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(liveLogLevelRef), (cell) =>
    Effect.sync(() => {
      if (Option.isSome(cell)) cell.value.level = Option.getOrElse(level, () => cell.value.initial)
    })
  )
