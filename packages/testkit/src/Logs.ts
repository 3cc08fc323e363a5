/** Log lines kept in memory instead of printed, for tests that assert what was logged. */
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"

/** A log line as the capturing logger saw it. */
export interface LogLine {
  readonly level: LogLevel.LogLevel
  readonly message: string
}

/** The message as one string: the parts of a multi-part message joined by spaces. */
export const messageText = (message: unknown): string => (Array.isArray(message) ? message.map(String).join(" ") : String(message))

/** A layer replacing the default logger: every line from `minimum` (Debug) up is pushed onto `lines`. */
export const captureLogs = (lines: Array<LogLine>, minimum: LogLevel.LogLevel = LogLevel.Debug): Layer.Layer<never> =>
  Layer.merge(
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message }) => void lines.push({ level: logLevel, message: messageText(message) }))
    ),
    Logger.minimumLogLevel(minimum)
  )

/** The logging a test asked for: lines kept in `logs` when given, else printed from `level` (Warning) up. */
export const testLogging = (options: { readonly logLevel?: LogLevel.LogLevel; readonly logs?: Array<LogLine> }): Layer.Layer<never> =>
  options.logs === undefined
    ? Logger.minimumLogLevel(options.logLevel ?? LogLevel.Warning)
    : captureLogs(options.logs, options.logLevel ?? LogLevel.Debug)
