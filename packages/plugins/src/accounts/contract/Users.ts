/** `/api/users` and `/api/roles` (admin). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, NotFound, pageFields, pageParams, totalField } from "@garrison/runtime"
import { Description, IdPath, NewPassword, PermissionNames, RoleName, Username } from "./fields.js"

/** A user as the API shows it: never a password hash or an MFA secret. */
export class UserView extends Schema.Class<UserView>("UserView")({
  id: Schema.String,
  username: Schema.String,
  role: Schema.String,
  disabled: Schema.Boolean,
  mustChangePassword: Schema.Boolean,
  mfaEnabled: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
}) {}

export class NewUserRequest extends Schema.Class<NewUserRequest>("NewUserRequest")({
  username: Username,
  password: NewPassword,
  role: RoleName,
  /** Default true: the user picks their own password at first sign-in. */
  mustChangePassword: Schema.optional(Schema.Boolean)
}) {}

export class UserPatchRequest extends Schema.Class<UserPatchRequest>("UserPatchRequest")({
  username: Schema.optional(Username),
  role: Schema.optional(RoleName),
  /** Disabling ends the user's sessions. */
  disabled: Schema.optional(Schema.Boolean),
  /** Ends the user's sessions; they must change it at next sign-in unless `mustChangePassword` is false. */
  password: Schema.optional(NewPassword),
  mustChangePassword: Schema.optional(Schema.Boolean),
  /** `false` turns the user's MFA off (a lost device); only the user can turn it on. */
  mfaEnabled: Schema.optional(Schema.Literal(false))
}) {}

export class RoleView extends Schema.Class<RoleView>("RoleView")({
  /** The role's name, which is also its id. */
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  /** Permission names (everywhere) and `{permission, servers}` (on those servers only). */
  permissions: PermissionNames,
  builtIn: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
}) {}

export class NewRoleRequest extends Schema.Class<NewRoleRequest>("NewRoleRequest")({
  name: RoleName,
  description: Schema.optional(Description),
  permissions: PermissionNames
}) {}

export class RolePatchRequest extends Schema.Class<RolePatchRequest>("RolePatchRequest")({
  description: Schema.optional(Description),
  permissions: Schema.optional(PermissionNames)
}) {}

/** `limit` and `cursor` of `GET /api/users` and `GET /api/roles`. */
export const ACCOUNTS_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const
export const AccountsListParams = Schema.Struct(pageParams(ACCOUNTS_PAGE))

/** In username order (ignoring case). */
export class UserPage extends Schema.Class<UserPage>("UserPage")({ ...pageFields(UserView), ...totalField }) {}

/** A permission a role may grant, and the plugin that declares it (`built-in`: the kernel's `admin`). */
export class PermissionView extends Schema.Class<PermissionView>("PermissionView")({
  name: Schema.String,
  description: Schema.String,
  owner: Schema.String
}) {}

/** Every permission the loaded plugins declare, in one page. */
export class PermissionList extends Schema.Class<PermissionList>("PermissionList")({ items: Schema.Array(PermissionView) }) {}

/** Built-in roles first, then by name. */
export class RolePage extends Schema.Class<RolePage>("RolePage")({ ...pageFields(RoleView), ...totalField }) {}

const admin = Access.permission(ADMIN)

export class UsersGroup extends HttpApiGroup.make("users").annotate(OpenApi.Description, "User accounts: list, create, change and delete.")
  .add(
    HttpApiEndpoint.get("list", "/api/users").setUrlParams(AccountsListParams).addSuccess(UserPage)
      .annotate(OpenApi.Summary, "List users")
  )
  .add(
    HttpApiEndpoint.post("create", "/api/users").setPayload(NewUserRequest).addSuccess(UserView, { status: 201 })
      .annotate(OpenApi.Summary, "Create a user")
      .annotate(OpenApi.Description, "400 naming an unknown role; 409 when the username is taken.")
      .annotate(BodyExample, { username: "moderator1", password: "a long first passphrase", role: "moderator", mustChangePassword: true })
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/users/:id").setPath(IdPath).setPayload(UserPatchRequest).addSuccess(UserView)
      .annotate(OpenApi.Summary, "Change a user")
      .annotate(
        OpenApi.Description,
        "Only the fields sent change. Disabling a user or setting their password ends their sessions; 409 when the " +
          "change would leave no enabled admin."
      )
      .annotate(BodyExample, { role: "moderator", disabled: false })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/users/:id").setPath(IdPath).addSuccess(Schema.Void, { status: 204 })
      .annotate(OpenApi.Summary, "Delete a user")
      .annotate(OpenApi.Description, "Ends the user's sessions. 409 for the last enabled admin.")
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, admin) {}

export class RolesGroup extends HttpApiGroup.make("roles").annotate(OpenApi.Description, "Roles and the permissions they grant.")
  .add(
    HttpApiEndpoint.get("list", "/api/roles").setUrlParams(AccountsListParams).addSuccess(RolePage)
      .annotate(OpenApi.Summary, "List roles")
  )
  .add(
    HttpApiEndpoint.get("permissions", "/api/permissions").addSuccess(PermissionList)
      .annotate(OpenApi.Summary, "List the permissions a role may grant")
      .annotate(OpenApi.Description, "Each loaded plugin's permissions with what they allow and which plugin declares them; `admin` implies all.")
  )
  .add(
    HttpApiEndpoint.post("create", "/api/roles").setPayload(NewRoleRequest).addSuccess(RoleView, { status: 201 })
      .annotate(OpenApi.Summary, "Create a role")
      .annotate(
        OpenApi.Description,
        "Each permission is granted everywhere (its name) or on some servers only (`{permission, servers: [ids]}`): a moderator " +
          "of one server. A caller whose `server.*` permissions are all scoped sees only those servers; `admin` cannot be scoped. " +
          "A deleted server leaves every grant. 400 naming any unknown permission; 409 when the name is taken."
      )
      .annotate(BodyExample, {
        name: "mod-chernarus",
        description: "Moderates the Chernarus server",
        permissions: ["players.view", { permission: "server.restart", servers: ["0b7c1c4e-1d7e-4a6b-9d1e-5b0f4c9e7a11"] }]
      })
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/roles/:id").setPath(IdPath).setPayload(RolePatchRequest).addSuccess(RoleView)
      .annotate(OpenApi.Summary, "Change a role")
      .annotate(OpenApi.Description, "`id` is the role's name. Users of the role get the new permissions on their next request.")
      .annotate(BodyExample, { permissions: ["chat.send", "players.view", "players.kick"] })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/roles/:id").setPath(IdPath).addSuccess(Schema.Void, { status: 204 })
      .annotate(OpenApi.Summary, "Delete a role")
      .annotate(OpenApi.Description, "409 for a built-in role or one that users still have.")
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, admin) {}
