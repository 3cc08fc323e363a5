/**
 * The one way a `garrison` command fails: a line for the person at the terminal (printed by `main.ts` as
 * `garrison: <message>`, exit 1). Never carries a secret.
 */
import { errorMessage } from "@garrison/runtime"
import * as ConfigError from "effect/ConfigError"
import * as Schema from "effect/Schema"

export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", { message: Schema.String }) {}

/** A failure as one line: configuration errors name the setting. */
export const describeFailure = (error: unknown): string =>
  ConfigError.isConfigError(error) ? `bad configuration: ${String(error)}` : errorMessage(error)

export const fail = (message: string) => new CliFailure({ message })
