/**
 * The keys plugins keep under the data directory, in load order. A secret's
 * name becomes a file name, so it is lower-case letters, digits and dashes,
 * and it is declared once, so no two plugins read the same key.
 */
import * as Either from "effect/Either"
import type { AnyPlugin, PluginSecret } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { describeOwner, fail } from "./failure.js"

export interface SecretCatalog {
  /** Every key a plugin keeps, with who declared it. */
  readonly declared: ReadonlyArray<PluginSecret & { readonly owner: string }>
  /** Adds a plugin's secrets, or refuses the first one malformed or already declared. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const secretCatalog = (): SecretCatalog => {
  const secrets: Array<PluginSecret & { owner: string }> = []
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const secret of plugin.secrets) {
      if (!/^[a-z0-9-]+$/.test(secret.name)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares secret "${secret.name}": use lower-case letters, digits and dashes`)
      }
      const other = secrets.find((s) => s.name === secret.name)
      if (other !== undefined) {
        return fail("duplicate-secret", `plugin "${plugin.id}" declares secret "${secret.name}", already declared by ${describeOwner(other.owner)}`)
      }
      secrets.push({ ...secret, owner: plugin.id })
    }
    return Either.void
  }
  return { declared: secrets, declare }
}
