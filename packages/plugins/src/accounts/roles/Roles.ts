/**
 * Roles: named permission sets, validated against the one permission
 * catalog. A role's name is its id (users refer to it by name, as the spec's
 * login response does). Exported for other plugins, e.g. the chat bot's
 * `chat-bot` floor role.
 */
import { AccountChanges, changingWrites } from "../authenticator/AccountChanges.js"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ADMIN, PermissionCatalog } from "@garrison/runtime"
import {
  type AccountStoreError,
  BuiltInRole,
  LastAdmin,
  RoleExists,
  RoleInUse,
  RoleNotFound,
  storeError,
  UnknownPermissions
} from "../errors.js"
import { keepingAnAdmin } from "./adminGuard.js"
import { ADMIN_ROLE, isBuiltInRole } from "./builtIn.js"
import { rolePaging } from "./paging.js"
import { type Grant, nameOf, normalizePermissions, parsePermissions, withoutServer } from "./permissions.js"

export interface RoleRecord {
  readonly name: string
  readonly description: string
  /** Permission names (everywhere) and `{permission, servers}` (on those servers only). */
  readonly permissions: ReadonlyArray<Grant>
  readonly builtIn: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export interface RoleInput {
  readonly name: string
  readonly description?: string | undefined
  readonly permissions: ReadonlyArray<Grant>
}

export interface RolePatch {
  readonly description?: string | undefined
  readonly permissions?: ReadonlyArray<Grant> | undefined
}

/** Where a role stands in the list's order: built-in roles first, then by name. */
export interface RolePosition {
  readonly builtIn: boolean
  readonly name: string
}

/** Every method fails with `AccountStoreError` when the database does. */
export interface RolesShape {
  /** Every role: built-in roles first, then by name. */
  readonly list: Effect.Effect<ReadonlyArray<RoleRecord>, AccountStoreError>
  /** Up to `limit` roles in list order after `after` (from the start when undefined), and how many there are. */
  readonly listAfter: (
    after: RolePosition | undefined,
    limit: number
  ) => Effect.Effect<{ readonly roles: ReadonlyArray<RoleRecord>; readonly total: number }, AccountStoreError>
  readonly get: (name: string) => Effect.Effect<Option.Option<RoleRecord>, AccountStoreError>
  /** The permissions a role grants everywhere now (not its server-scoped ones); None for an unknown role. */
  readonly permissionsOf: (name: string) => Effect.Effect<Option.Option<ReadonlySet<string>>, AccountStoreError>
  /** Takes a deleted server out of every role's scoped grants; answers the roles that changed. */
  readonly forgetServer: (serverId: string) => Effect.Effect<ReadonlyArray<string>, AccountStoreError>
  readonly create: (input: RoleInput) => Effect.Effect<RoleRecord, RoleExists | UnknownPermissions | AccountStoreError>
  readonly update: (
    name: string,
    patch: RolePatch
  ) => Effect.Effect<RoleRecord, RoleNotFound | UnknownPermissions | BuiltInRole | LastAdmin | AccountStoreError>
  readonly remove: (name: string) => Effect.Effect<void, RoleNotFound | BuiltInRole | RoleInUse | AccountStoreError>
  /**
   * Restore: creates the roles that do not exist and updates the others
   * (the `admin` role keeps `admin`); roles not in the list are kept.
   */
  readonly restore: (
    roles: ReadonlyArray<RoleInput>
  ) => Effect.Effect<
    { readonly created: ReadonlyArray<string>; readonly updated: ReadonlyArray<string> },
    UnknownPermissions | LastAdmin | AccountStoreError
  >
}

interface RoleRow {
  readonly name: string
  readonly description: string
  readonly permissions: string
  readonly built_in: number
  readonly created_at: string
  readonly updated_at: string
}

const toRecord = (row: RoleRow): RoleRecord => ({
  name: row.name,
  description: row.description,
  permissions: parsePermissions(row.permissions),
  builtIn: row.built_in === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export class Roles extends Context.Tag("@garrison/plugins/accounts/Roles")<Roles, RolesShape>() {
  static readonly make = Effect.gen(function* () {
    const changes = yield* AccountChanges
    const sql = yield* SqlClient.SqlClient
    const catalog = yield* PermissionCatalog
    const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

    const known = (grants: ReadonlyArray<Grant>) => {
      const unknown = catalog.unknown(grants.map(nameOf))
      return unknown.length > 0
        ? Effect.fail(new UnknownPermissions({ names: [...new Set(unknown)] }))
        : Effect.succeed(normalizePermissions(grants))
    }

    const getRow = (name: string) =>
      Effect.map(
        sql<RoleRow>`SELECT name, description, permissions, built_in, created_at, updated_at FROM accounts_roles WHERE name = ${name}`,
        (rows) => Option.map(Option.fromNullable(rows[0]), toRecord)
      )

    const list: RolesShape["list"] = sql<RoleRow>`
      SELECT name, description, permissions, built_in, created_at, updated_at FROM accounts_roles ORDER BY built_in DESC, name`.pipe(
      Effect.map((rows) => rows.map(toRecord)),
      Effect.mapError(storeError("list roles"))
    )

    // built_in DESC, name: after a built-in role come the later built-in ones, then every other role.
    const listAfter: RolesShape["listAfter"] = (after, limit) =>
      Effect.all({
        roles: sql<RoleRow>`SELECT name, description, permissions, built_in, created_at, updated_at FROM accounts_roles
          WHERE ${after === undefined ? sql`1 = 1` : rolePaging.after(sql, after)}
          ORDER BY ${sql.literal(rolePaging.orderBy)} LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toRecord))),
        total: Effect.map(sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_roles`, (rows) => Number(rows[0]?.n ?? 0))
      }).pipe(sql.withTransaction, Effect.mapError(storeError("list a page of roles")))

    const get: RolesShape["get"] = (name) => Effect.mapError(getRow(name), storeError("read a role"))

    const create: RolesShape["create"] = (input) =>
      Effect.gen(function* () {
        const permissions = yield* known(input.permissions)
        const now = yield* isoNow
        const inserted = yield* sql<{ readonly name: string }>`
          INSERT INTO accounts_roles (name, description, permissions, built_in, created_at, updated_at)
          VALUES (${input.name}, ${input.description ?? ""}, ${JSON.stringify(permissions)}, 0, ${now}, ${now})
          ON CONFLICT (name) DO NOTHING RETURNING name`.pipe(Effect.mapError(storeError("create a role")))
        if (inserted.length === 0) return yield* new RoleExists({ name: input.name })
        return { name: input.name, description: input.description ?? "", permissions, builtIn: false, createdAt: now, updatedAt: now }
      })

    const update: RolesShape["update"] = (name, patch) =>
      Effect.gen(function* () {
        const permissions = patch.permissions === undefined ? undefined : yield* known(patch.permissions)
        if (name === ADMIN_ROLE && permissions !== undefined && !(permissions.length === 1 && permissions[0] === ADMIN)) {
          return yield* new BuiltInRole({ name, message: `the "${ADMIN_ROLE}" role always grants exactly "${ADMIN}"` })
        }
        const now = yield* isoNow
        return yield* keepingAnAdmin(
          sql,
          `role "${name}" is held by the last enabled admin; it must keep "${ADMIN}"`,
          Effect.gen(function* () {
            const current = yield* getRow(name)
            if (Option.isNone(current)) return yield* new RoleNotFound({ name })
            const next = {
              ...current.value,
              description: patch.description ?? current.value.description,
              permissions: permissions ?? current.value.permissions,
              updatedAt: now
            }
            yield* sql`UPDATE accounts_roles
              SET description = ${next.description}, permissions = ${JSON.stringify(next.permissions)}, updated_at = ${now}
              WHERE name = ${name}`
            return next
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("update a role")(e))))
      })

    const remove: RolesShape["remove"] = (name) =>
      Effect.gen(function* () {
        if (isBuiltInRole(name)) return yield* new BuiltInRole({ name, message: `the built-in role "${name}" cannot be deleted` })
        const current = yield* getRow(name)
        if (Option.isNone(current)) return yield* new RoleNotFound({ name })
        const [held] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_users WHERE role = ${name}`
        if (Number(held?.n ?? 0) > 0) return yield* new RoleInUse({ name, users: Number(held?.n) })
        yield* sql`DELETE FROM accounts_roles WHERE name = ${name}`
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", (e) => Effect.fail(storeError("delete a role")(e)))
      )

    const restore: RolesShape["restore"] = (roles) =>
      Effect.gen(function* () {
        const unknown = catalog.unknown(roles.flatMap((r) => r.permissions.map(nameOf)))
        if (unknown.length > 0) return yield* new UnknownPermissions({ names: [...new Set(unknown)] })
        const now = yield* isoNow
        return yield* keepingAnAdmin(
          sql,
          "the restore would leave no enabled admin",
          Effect.gen(function* () {
            const created: Array<string> = []
            const updated: Array<string> = []
            for (const role of roles) {
              const permissions = role.name === ADMIN_ROLE ? [ADMIN] : normalizePermissions(role.permissions)
              const exists = Option.isSome(yield* getRow(role.name))
              if (exists) {
                yield* sql`UPDATE accounts_roles
                  SET description = ${role.description ?? ""}, permissions = ${JSON.stringify(permissions)}, updated_at = ${now}
                  WHERE name = ${role.name}`
                updated.push(role.name)
              } else {
                yield* sql`INSERT INTO accounts_roles (name, description, permissions, built_in, created_at, updated_at)
                  VALUES (${role.name}, ${role.description ?? ""}, ${JSON.stringify(permissions)}, 0, ${now}, ${now})`
                created.push(role.name)
              }
            }
            return { created, updated }
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("restore roles")(e))))
      })

    const forgetServer: RolesShape["forgetServer"] = (serverId) =>
      Effect.gen(function* () {
        const now = yield* isoNow
        const changed: Array<string> = []
        for (const role of yield* list) {
          const next = withoutServer(role.permissions, serverId)
          if (next === undefined) continue
          yield* sql`UPDATE accounts_roles SET permissions = ${JSON.stringify(next)}, updated_at = ${now} WHERE name = ${role.name}`
          changed.push(role.name)
        }
        return changed
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", (e) => Effect.fail(storeError("take a deleted server out of the roles")(e)))
      )

    return Roles.of(
      changingWrites(
        changes,
        {
      list,
      listAfter,
      get,
      permissionsOf: (name) =>
        Effect.map(get(name), Option.map((r) => new Set(r.permissions.filter((g): g is string => typeof g === "string")))),
      forgetServer,
      create,
      update,
      remove,
      restore
        },
        ["forgetServer", "create", "update", "remove", "restore"]
      )
    )
  })

  static readonly layer = Layer.effect(Roles, Roles.make)
}
