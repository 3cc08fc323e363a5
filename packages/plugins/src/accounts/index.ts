/**
 * The accounts plugin and what other plugins may use: `Users` and `Roles`
 * lookups (e.g. a role's permissions for chat-bot callers), `Sessions` to
 * end a user's sessions, and the HTTP contract for clients.
 */
export { AccountsPlugin } from "./AccountsPlugin.js"
export { AccountsApi } from "./contract/Api.js"
export * as AccountsContract from "./contract/Api.js"
export { AccountsConfig, accountsConfig } from "./config.js"
export type { AccountsSettings } from "./config.js"
/** What `Users`, `Roles` and `Sessions` fail with when the database does; answer it with `storeDefect`. */
export { AccountStoreError } from "./errors.js"
export { Users } from "./users/Users.js"
export type { UserRecord, UsersShape } from "./users/Users.js"
export { Roles } from "./roles/Roles.js"
export type { RoleRecord, RolesShape } from "./roles/Roles.js"
export { grantsBeyond, principalOfRole } from "./roles/principal.js"
export type { RoleCaller } from "./roles/principal.js"
export { ADMIN_ROLE, BUILT_IN_ROLES, CHAT_BOT_ROLE, MODERATOR_ROLE } from "./roles/builtIn.js"
export { Sessions } from "./sessions/Sessions.js"
export type { SessionsShape } from "./sessions/Sessions.js"
export { AUTH_COOKIE } from "./http/request.js"
export { CSRF_COOKIE, CSRF_HEADER } from "./sessions/Csrf.js"
export { resetAdminPassword, ResetRefused } from "./setup/ResetAdmin.js"
export type { AdminReset } from "./setup/ResetAdmin.js"
