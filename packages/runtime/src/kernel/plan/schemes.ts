/**
 * The authentication schemes plugins provide, in load order. A scheme name is
 * lower-case letters, digits and dashes, and is provided once, unless a later
 * plugin says `replaces: true` and takes its place. Routes may only accept
 * schemes found here, or the default session scheme (see routes.ts).
 */
import * as Either from "effect/Either"
import type { AuthenticationMethod } from "../../http/AuthenticationMethods.js"
import { SCOPE_NAME } from "../../http/RateLimits.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { describeOwner, fail } from "./failure.js"

export interface SchemeCatalog {
  /** Every scheme in force, in load order, with who provides it and how callers send it. */
  readonly declared: ReadonlyArray<{ readonly name: string; readonly owner: string; readonly methods: ReadonlyArray<AuthenticationMethod> }>
  /** Each scheme's name, with who provides it now. */
  readonly owners: ReadonlyMap<string, string>
  /** Adds a plugin's schemes, or refuses the first one malformed or already provided. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const schemeCatalog = (): SchemeCatalog => {
  const schemes: Array<SchemeCatalog["declared"][number]> = []
  const schemeOwner = new Map<string, string>()
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const declared of plugin.authentication) {
      if (!SCOPE_NAME.test(declared.name)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares authentication scheme "${declared.name}": use lower-case letters, digits and dashes`)
      }
      const existing = schemeOwner.get(declared.name)
      if (existing !== undefined && declared.replaces !== true) {
        return fail(
          "duplicate-scheme",
          `plugin "${plugin.id}" declares authentication scheme "${declared.name}", already provided by ${describeOwner(existing)}` +
            " (a plugin that means to take its place says `replaces: true`)"
        )
      }
      schemeOwner.set(declared.name, plugin.id)
      const replaced = schemes.findIndex((s) => s.name === declared.name)
      if (replaced >= 0) schemes.splice(replaced, 1)
      schemes.push({ name: declared.name, owner: plugin.id, methods: declared.methods })
    }
    return Either.void
  }
  return { declared: schemes, owners: schemeOwner, declare }
}
