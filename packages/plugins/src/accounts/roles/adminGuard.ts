/**
 * "Deleting or demoting the last admin is 409": a change to users or roles
 * runs in a transaction that counts enabled users whose role grants `admin`
 * before and after, and rolls back when it would take the count to zero.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { SqlError } from "@effect/sql/SqlError"
import { ADMIN } from "@garrison/runtime"
import { LastAdmin } from "../errors.js"
import { parsePermissions } from "./permissions.js"

export const activeAdminCount = (sql: SqlClient.SqlClient): Effect.Effect<number, SqlError> =>
  Effect.gen(function* () {
    const roles = yield* sql<{ readonly name: string; readonly permissions: string }>`SELECT name, permissions FROM accounts_roles`
    const adminRoles = new Set(roles.filter((r) => parsePermissions(r.permissions).includes(ADMIN)).map((r) => r.name))
    const counts = yield* sql<{ readonly role: string; readonly n: number }>`
      SELECT role, COUNT(*) AS n FROM accounts_users WHERE disabled = 0 GROUP BY role`
    return counts.reduce((sum, c) => (adminRoles.has(c.role) ? sum + Number(c.n) : sum), 0)
  })

/** Runs `change` in a transaction that fails with `LastAdmin` (and rolls back) if it removed the last admin. */
export const keepingAnAdmin = <A, E, R>(
  sql: SqlClient.SqlClient,
  message: string,
  change: Effect.Effect<A, E, R>
): Effect.Effect<A, E | LastAdmin | SqlError, R> =>
  Effect.gen(function* () {
    const before = yield* activeAdminCount(sql)
    const result = yield* change
    const after = yield* activeAdminCount(sql)
    if (before > 0 && after === 0) return yield* new LastAdmin({ message })
    return result
  }).pipe(sql.withTransaction)
