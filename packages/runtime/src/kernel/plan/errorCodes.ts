/**
 * The error codes answered to clients: the built-in table, then each plugin's
 * (`_tag` to code), in load order. A code is lower case with dots and dashes
 * and a 4xx or 5xx status; a code keeps one status whoever declares it, and
 * an error class gets one code, so clients can rely on both.
 */
import * as Either from "effect/Either"
import { codeForTag, errorStatus } from "../../http/ApiErrors.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { describeOwner, fail } from "./failure.js"

export interface ErrorCodeCatalog {
  /** The code each error class answers with: the table's, then the plugins' (`_tag` to code). */
  readonly byTag: ReadonlyMap<string, string>
  /** Adds a plugin's error codes, or refuses the first one malformed or in conflict. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const errorCodeCatalog = (): ErrorCodeCatalog => {
  const errorCodes = new Map<string, string>(Object.entries(codeForTag))
  const codeStatus = new Map<string, { status: number; owner: string }>(
    Object.entries(errorStatus).map(([code, status]) => [code, { status, owner: "built-in" }])
  )
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const declared of plugin.errorCodes) {
      if (!/^[a-z][a-z0-9.-]{0,63}$/.test(declared.code) || declared.status < 400 || declared.status > 599) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares error code "${declared.code}" (${declared.status}): use lower case, dots and dashes, and a 4xx or 5xx status`)
      }
      const taken = codeStatus.get(declared.code)
      if (taken !== undefined && taken.status !== declared.status) {
        return fail(
          "duplicate-error-code",
          `plugin "${plugin.id}" declares error code "${declared.code}" with status ${declared.status}; ${describeOwner(taken.owner)} answers it with ${taken.status}`
        )
      }
      if (errorCodes.has(declared.tag)) {
        return fail("duplicate-error-code", `plugin "${plugin.id}" declares a code for error class "${declared.tag}", which already has one`)
      }
      codeStatus.set(declared.code, { status: declared.status, owner: plugin.id })
      errorCodes.set(declared.tag, declared.code)
    }
    return Either.void
  }
  return { byTag: errorCodes, declare }
}
