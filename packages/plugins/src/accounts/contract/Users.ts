/** `/api/users` and `/api/roles` (admin). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, Conflict, NotFound, pageFields, pageParams, totalField } from "@garrison/runtime"
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
  permissions: Schema.Array(Schema.String),
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

/** Built-in roles first, then by name. */
export class RolePage extends Schema.Class<RolePage>("RolePage")({ ...pageFields(RoleView), ...totalField }) {}

const admin = Access.permission(ADMIN)

export class UsersGroup extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("list", "/api/users").setUrlParams(AccountsListParams).addSuccess(UserPage))
  .add(HttpApiEndpoint.post("create", "/api/users").setPayload(NewUserRequest).addSuccess(UserView, { status: 201 }))
  .add(HttpApiEndpoint.patch("update", "/api/users/:id").setPath(IdPath).setPayload(UserPatchRequest).addSuccess(UserView))
  .add(HttpApiEndpoint.del("remove", "/api/users/:id").setPath(IdPath).addSuccess(Schema.Void, { status: 204 }))
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, admin) {}

export class RolesGroup extends HttpApiGroup.make("roles")
  .add(HttpApiEndpoint.get("list", "/api/roles").setUrlParams(AccountsListParams).addSuccess(RolePage))
  .add(HttpApiEndpoint.post("create", "/api/roles").setPayload(NewRoleRequest).addSuccess(RoleView, { status: 201 }))
  .add(HttpApiEndpoint.patch("update", "/api/roles/:id").setPath(IdPath).setPayload(RolePatchRequest).addSuccess(RoleView))
  .add(HttpApiEndpoint.del("remove", "/api/roles/:id").setPath(IdPath).addSuccess(Schema.Void, { status: 204 }))
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, admin) {}
