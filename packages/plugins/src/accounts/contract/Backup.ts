/**
 * Config backups of users and roles (admin): `GET /api/backup/users|roles`
 * and `POST /api/restore/users|roles`. A backup never carries a password
 * hash or an MFA secret. A restore keeps the credentials of users that
 * exist; users new to this controller get a random one-time password
 * (returned once, in the restore's response) and must change it.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, StoredText } from "@garrison/runtime"
import { Description, PermissionNames, RoleName, Username } from "./fields.js"

// Items are Structs, not Classes: a refined array of Classes only accepts class instances when encoding.
export const BackupUser = Schema.Struct({
  id: Schema.optional(StoredText.pipe(Schema.maxLength(64))),
  username: Username,
  role: RoleName,
  disabled: Schema.Boolean
}).annotations({ identifier: "BackupUser" })

export class UsersBackup extends Schema.Class<UsersBackup>("UsersBackup")({
  kind: Schema.Literal("garrison.users"),
  version: Schema.Literal(1),
  exportedAt: Schema.optional(Schema.String),
  users: Schema.Array(BackupUser).pipe(Schema.maxItems(10_000))
}) {}

export const BackupRole = Schema.Struct({
  name: RoleName,
  description: Schema.optionalWith(Description, { default: () => "" }),
  permissions: PermissionNames,
  builtIn: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "BackupRole" })

export class RolesBackup extends Schema.Class<RolesBackup>("RolesBackup")({
  kind: Schema.Literal("garrison.roles"),
  version: Schema.Literal(1),
  exportedAt: Schema.optional(Schema.String),
  roles: Schema.Array(BackupRole).pipe(Schema.maxItems(1_000))
}) {}

export const TemporaryPassword = Schema.Struct({
  username: Schema.String,
  password: Schema.String
}).annotations({ identifier: "TemporaryPassword" })

export class UsersRestored extends Schema.Class<UsersRestored>("UsersRestored")({
  created: Schema.Array(Schema.String),
  updated: Schema.Array(Schema.String),
  /** One-time passwords of the created users; shown only here. */
  temporaryPasswords: Schema.Array(TemporaryPassword)
}) {}

export class RolesRestored extends Schema.Class<RolesRestored>("RolesRestored")({
  created: Schema.Array(Schema.String),
  updated: Schema.Array(Schema.String)
}) {}

export class BackupGroup extends HttpApiGroup.make("accountsBackup").annotate(OpenApi.Description, "Backing up and restoring users and roles.")
  .add(
    HttpApiEndpoint.get("backupUsers", "/api/backup/users").addSuccess(UsersBackup)
      .annotate(OpenApi.Summary, "Back up users")
      .annotate(OpenApi.Description, "Every user with role and disabled state; never a password hash or an MFA secret.")
  )
  .add(
    HttpApiEndpoint.get("backupRoles", "/api/backup/roles").addSuccess(RolesBackup)
      .annotate(OpenApi.Summary, "Back up roles")
  )
  .add(
    HttpApiEndpoint.post("restoreUsers", "/api/restore/users")
      .setPayload(UsersBackup)
      .addSuccess(UsersRestored)
      .annotate(OpenApi.Summary, "Restore users")
      .annotate(BodyExample, {
        kind: "garrison.users",
        version: 1,
        exportedAt: "2026-01-31T12:00:00.000Z",
        users: [{ username: "moderator1", role: "moderator", disabled: false }]
      })
      .annotate(
        OpenApi.Description,
        "Users are matched by username. Existing users keep their password and MFA; their role and disabled state come " +
          "from the backup. Users new to this controller get a random one-time password, returned once in " +
          "`temporaryPasswords`, and must change it at first sign-in. Users not in the backup are kept. 409 if the " +
          "result would have no enabled admin."
      )
  )
  .add(
    HttpApiEndpoint.post("restoreRoles", "/api/restore/roles")
      .setPayload(RolesBackup)
      .addSuccess(RolesRestored)
      .annotate(OpenApi.Summary, "Restore roles")
      .annotate(BodyExample, {
        kind: "garrison.roles",
        version: 1,
        exportedAt: "2026-01-31T12:00:00.000Z",
        roles: [{ name: "event-team", description: "Runs the weekend events", permissions: ["chat.send", "players.view"] }]
      })
      .annotate(
        OpenApi.Description,
        "Roles are matched by name and created or updated; roles not in the backup are kept; the admin role keeps " +
          "`admin`. 400 naming any unknown permission."
      )
  )
  .addError(BadRequest)
  .addError(Conflict)
  .annotate(Access, Access.permission(ADMIN)) {}
