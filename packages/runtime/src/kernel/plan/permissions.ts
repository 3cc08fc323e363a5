/**
 * The permission catalog: the kernel's own permissions, then each plugin's,
 * in load order. A name is declared once, so a role granting it means one
 * thing; a second declaration names both owners. Routes may only require
 * permissions found here (see routes.ts).
 */
import * as Either from "effect/Either"
import { kernelPermissions, type PermissionDefinition } from "../../access/Permissions.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { fail } from "./failure.js"

export interface PermissionCatalog {
  /** Every permission (built-in first), with who declared it. */
  readonly declared: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  /** Each permission's name, with who declared it. */
  readonly owners: ReadonlyMap<string, string>
  /** Adds a plugin's permissions, or refuses the first one already declared. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const permissionCatalog = (): PermissionCatalog => {
  const permissions: Array<PermissionDefinition & { owner: string }> = kernelPermissions.map((p) => ({
    ...p,
    owner: "built-in"
  }))
  const permissionOwner = new Map(permissions.map((p) => [p.name, p.owner]))
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const permission of plugin.permissions) {
      const existing = permissionOwner.get(permission.name)
      if (existing !== undefined) {
        return fail(
          "duplicate-permission",
          `plugin "${plugin.id}" declares permission "${permission.name}", already declared by ${
            existing === "built-in" ? "the built-in catalog" : `plugin "${existing}"`
          }`
        )
      }
      permissionOwner.set(permission.name, plugin.id)
      permissions.push({ ...permission, owner: plugin.id })
    }
    return Either.void
  }
  return { declared: permissions, owners: permissionOwner, declare }
}
