/**
 * The rate-limit scopes: the built-in ones (and `exempt`), then each
 * plugin's, in load order. A scope name is lower-case letters, digits and
 * dashes, its limit a whole number of at least 1, and it is declared once,
 * so two plugins never share a budget by accident. Routes may only count
 * against scopes found here (see routes.ts).
 */
import * as Either from "effect/Either"
import { builtInRateLimits, EXEMPT_SCOPE, type RateLimitDeclaration, SCOPE_NAME } from "../../http/RateLimits.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { describeOwner, fail } from "./failure.js"

export interface RateLimitCatalog {
  /** Every rate-limit scope (built-in first), with who declared it. */
  readonly declared: ReadonlyArray<RateLimitDeclaration & { readonly owner: string }>
  /** Every scope a route may count against (`exempt` included), with who declared it. */
  readonly owners: ReadonlyMap<string, string>
  /** Adds a plugin's scopes, or refuses the first one malformed or already declared. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const rateLimitCatalog = (): RateLimitCatalog => {
  const rateLimits: Array<RateLimitDeclaration & { owner: string }> = builtInRateLimits.map((r) => ({ ...r, owner: "built-in" }))
  const scopeOwner = new Map<string, string>([...rateLimits.map((r) => [r.scope, r.owner] as const), [EXEMPT_SCOPE, "built-in"]])
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const declared of plugin.rateLimits) {
      if (!SCOPE_NAME.test(declared.scope)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}": use lower-case letters, digits and dashes`)
      }
      if (!Number.isInteger(declared.limit) || declared.limit < 1) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}" with limit ${declared.limit}: use a whole number of at least 1`)
      }
      const existing = scopeOwner.get(declared.scope)
      if (existing !== undefined) {
        return fail(
          "duplicate-rate-limit",
          `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}", already declared by ${describeOwner(existing)}`
        )
      }
      scopeOwner.set(declared.scope, plugin.id)
      rateLimits.push({ ...declared, owner: plugin.id })
    }
    return Either.void
  }
  return { declared: rateLimits, owners: scopeOwner, declare }
}
