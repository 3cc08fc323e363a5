/**
 * The one permission catalog: each plugin declares the permissions it owns
 * (`Plugin.make({ permissions })`), the kernel only `admin`, which implies
 * every permission. A route naming a permission no loaded plugin declares
 * stops the start.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export interface PermissionDefinition {
  readonly name: string
  readonly description: string
}

export const ADMIN = "admin"

/** The kernel's own permissions: `admin` alone. */
export const kernelPermissions: ReadonlyArray<PermissionDefinition> = [{ name: ADMIN, description: "Everything, including system settings" }]

export interface PermissionCatalogShape {
  /** Every known permission: the kernel's first, then each plugin's in load order. */
  readonly all: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  readonly has: (name: string) => boolean
  /** Names in `names` that the catalog does not know. */
  readonly unknown: (names: Iterable<string>) => ReadonlyArray<string>
}

export class PermissionCatalog extends Context.Tag("@garrison/runtime/PermissionCatalog")<
  PermissionCatalog,
  PermissionCatalogShape
>() {
  static readonly make = (
    entries: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  ): PermissionCatalogShape => {
    const names = new Set(entries.map((e) => e.name))
    return {
      all: entries,
      has: (name) => names.has(name),
      unknown: (candidates) => [...candidates].filter((n) => !names.has(n))
    }
  }
  static readonly layer = (entries: ReadonlyArray<PermissionDefinition & { readonly owner: string }>) =>
    Layer.succeed(PermissionCatalog, PermissionCatalog.make(entries))
}

/** Whether a set of granted permissions satisfies `required`; `admin` satisfies everything. */
export const grants = (granted: ReadonlySet<string>, required: string): boolean =>
  granted.has(ADMIN) || granted.has(required)
