/** `/api/users` and `/api/roles` (admin). Changes are audit rows naming the fields, never their values. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, cursorBadRequest, PermissionCatalog } from "@garrison/runtime"
import { ACCOUNTS_PAGE, AccountsApi } from "../contract/Api.js"
import { rolePaging } from "../roles/paging.js"
import { type RoleRecord, Roles } from "../roles/Roles.js"
import { userPaging } from "../users/paging.js"
import { Users } from "../users/Users.js"
import { audit } from "./context.js"
import { asHttp, roleAsBadRequest } from "./httpErrors.js"

export const roleView = (role: RoleRecord) => ({ id: role.name, ...role })

/** An audit row for an admin change, after it succeeded. */
const changed = (action: string, target: string, details?: Record<string, unknown>) =>
  Effect.flatMap(CurrentPrincipal, (principal) =>
    audit({ actor: principal.id, ip: principal.attributes?.ip ?? null, action, target, result: "success", ...(details ? { details } : {}) })
  )

const fieldsOf = (patch: object) => Object.entries(patch).filter(([, v]) => v !== undefined).map(([k]) => k)

export const UsersRoutes = HttpApiBuilder.group(AccountsApi, "users", (handlers) =>
  Effect.gen(function* () {
    const users = yield* Users
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = yield* userPaging.decode(urlParams.cursor)
          const limit = urlParams.limit ?? ACCOUNTS_PAGE.defaultLimit
          // One more than asked says whether another page follows.
          const { users: rows, total } = yield* users.listAfter(after, limit + 1)
          return { ...userPaging.page(rows, limit), total }
        }).pipe(Effect.catchTag("InvalidCursor", cursorBadRequest), asHttp)
      )
      .handle("create", ({ payload }) =>
        users.create({ ...payload, mustChangePassword: payload.mustChangePassword ?? true }).pipe(
          roleAsBadRequest,
          asHttp,
          Effect.tap((user) => changed("users.create", user.id, { username: user.username, role: user.role }))
        )
      )
      .handle("update", ({ path, payload }) =>
        users.update(path.id, payload).pipe(
          roleAsBadRequest,
          asHttp,
          Effect.tap((user) => changed("users.update", user.id, { username: user.username, fields: fieldsOf(payload) }))
        )
      )
      .handle("remove", ({ path }) =>
        users.remove(path.id).pipe(
          asHttp,
          Effect.tap(() => changed("users.delete", path.id)),
          Effect.as(HttpServerResponse.empty({ status: 204 }))
        )
      )
  })
)

export const RolesRoutes = HttpApiBuilder.group(AccountsApi, "roles", (handlers) =>
  Effect.gen(function* () {
    const roles = yield* Roles
    const catalog = yield* PermissionCatalog
    return handlers
      .handle("permissions", () => Effect.succeed({ items: catalog.all.map(({ name, description, owner }) => ({ name, description, owner })) }))
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = yield* rolePaging.decode(urlParams.cursor)
          const limit = urlParams.limit ?? ACCOUNTS_PAGE.defaultLimit
          const { roles: rows, total } = yield* roles.listAfter(after, limit + 1)
          const page = rolePaging.page(rows, limit)
          return { items: page.items.map(roleView), nextCursor: page.nextCursor, total }
        }).pipe(Effect.catchTag("InvalidCursor", cursorBadRequest), asHttp)
      )
      .handle("create", ({ payload }) =>
        roles.create(payload).pipe(
          asHttp,
          Effect.tap((role) => changed("roles.create", role.name, { permissions: role.permissions })),
          Effect.map(roleView)
        )
      )
      .handle("update", ({ path, payload }) =>
        roles.update(path.id, payload).pipe(
          asHttp,
          Effect.tap((role) => changed("roles.update", role.name, { permissions: role.permissions })),
          Effect.map(roleView)
        )
      )
      .handle("remove", ({ path }) =>
        roles.remove(path.id).pipe(
          asHttp,
          Effect.tap(() => changed("roles.delete", path.id)),
          Effect.as(HttpServerResponse.empty({ status: 204 }))
        )
      )
  })
)
