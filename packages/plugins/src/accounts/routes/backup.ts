/**
 * Config backups of users and roles (admin). The export has no password
 * hashes and no MFA secrets; see contract/Backup.ts for the restore rules.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { CurrentPrincipal } from "@garrison/runtime"
import { AccountsApi } from "../contract/Api.js"
import { Roles } from "../roles/Roles.js"
import { Users } from "../users/Users.js"
import { audit } from "./context.js"
import { asHttp, roleAsBadRequest } from "./httpErrors.js"

const restored = (action: string, report: { readonly created: ReadonlyArray<string>; readonly updated: ReadonlyArray<string> }) =>
  Effect.flatMap(CurrentPrincipal, (principal) =>
    audit({
      actor: principal.id,
      ip: principal.attributes?.ip ?? null,
      action,
      target: null,
      result: "success",
      details: { created: report.created, updated: report.updated }
    })
  )

const exportedAt = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

export const BackupRoutes = HttpApiBuilder.group(AccountsApi, "accountsBackup", (handlers) =>
  Effect.gen(function* () {
    const users = yield* Users
    const roles = yield* Roles
    return handlers
      .handle("backupUsers", () =>
        Effect.all({ list: users.list, at: exportedAt }).pipe(
          Effect.map(({ list, at }) => ({
            kind: "garrison.users" as const,
            version: 1 as const,
            exportedAt: at,
            users: list.map((u) => ({ id: u.id, username: u.username, role: u.role, disabled: u.disabled }))
          })),
          asHttp
        )
      )
      .handle("backupRoles", () =>
        Effect.all({ list: roles.list, at: exportedAt }).pipe(
          Effect.map(({ list, at }) => ({
            kind: "garrison.roles" as const,
            version: 1 as const,
            exportedAt: at,
            roles: list.map((r) => ({ name: r.name, description: r.description, permissions: r.permissions, builtIn: r.builtIn }))
          })),
          asHttp
        )
      )
      .handle("restoreUsers", ({ payload }) =>
        users.restore(payload.users).pipe(roleAsBadRequest, asHttp, Effect.tap((report) => restored("backup.restore.users", report)))
      )
      .handle("restoreRoles", ({ payload }) =>
        roles.restore(payload.roles).pipe(asHttp, Effect.tap((report) => restored("backup.restore.roles", report)))
      )
  })
)
