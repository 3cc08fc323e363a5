/**
 * Accounts and access: first-run setup, passwords, sessions (cookie + CSRF
 * or Bearer), logout, login lockout, MFA, the forced password change, and
 * users and roles. It provides the `session` authentication scheme, which
 * every endpoint accepts unless it names other schemes.
 */
import { AuditTrail, type Job, on, Plugin, ServerDeleted } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { sessionScheme } from "./authenticator/AccountsAuthenticator.js"
import { AccountsConfig, checkAccountsSettings } from "./config.js"
import { AccountsApi } from "./contract/Api.js"
import { Lockout } from "./lockout/Lockout.js"
import { Login } from "./login/Login.js"
import { Mfa } from "./mfa/Mfa.js"
import { migrations } from "./migrations.js"
import { Passwords } from "./passwords/Passwords.js"
import { Roles } from "./roles/Roles.js"
import { AuthRoutes, SessionRoutes } from "./routes/auth.js"
import { BackupRoutes } from "./routes/backup.js"
import { SetupRoutes } from "./routes/setup.js"
import { RolesRoutes, UsersRoutes } from "./routes/users.js"
import { Sessions } from "./sessions/Sessions.js"
import { Setup } from "./setup/Setup.js"
import { Users } from "./users/Users.js"
import { AccountChanges } from "./authenticator/AccountChanges.js"

const foundation = Layer.mergeAll(AccountsConfig.layer, Passwords.layer, AccountChanges.layer)
const credentials = Layer.mergeAll(Sessions.layer, Mfa.layer).pipe(Layer.provideMerge(foundation))
const directory = Layer.mergeAll(Users.layer, Roles.layer, Lockout.layer).pipe(Layer.provideMerge(credentials))
const services = Layer.mergeAll(Login.layer, Setup.layer).pipe(Layer.provideMerge(directory))

const jobs: ReadonlyArray<Job<Sessions | Lockout>> = [
  // Revoked tokens are kept until they expire, then dropped with the expired ones.
  { name: "expire-sessions", every: "10 minutes", run: Effect.flatMap(Sessions, (s) => Effect.asVoid(s.cleanup)) },
  { name: "forget-login-failures", every: "10 minutes", run: Effect.flatMap(Lockout, (l) => l.cleanup) }
]

export const AccountsPlugin = Plugin.make({
  id: "accounts",
  permissions: [{ name: "users.manage", description: "Manage users, roles and chat-user role mappings" }],
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  description: "Users, roles, sign-in, sessions, CSRF, lockout and MFA",
  migrations,
  layer: services,
  http: Plugin.http(AccountsApi, Layer.mergeAll(AuthRoutes, SessionRoutes, SetupRoutes, UsersRoutes, RolesRoutes, BackupRoutes)),
  authentication: [sessionScheme],
  jobs,
  events: [
    // A deleted server leaves every role's scoped grants: an id reused later must not inherit them.
    on(
      ServerDeleted,
      (event) =>
        Effect.flatMap(Roles, (roles) => roles.forgetServer(event.serverId)).pipe(
          Effect.flatMap((changed) =>
            changed.length === 0
              ? Effect.void
              : Effect.logInfo(`accounts: server ${event.name} (${event.serverId}) removed from the grants of role(s) ${changed.join(", ")}`)
          )
        ),
      "forgetDeletedServer"
    )
  ],
  checkSettings: checkAccountsSettings,
  onStart: Effect.flatMap(Setup, (setup) => setup.bootstrap)
})
