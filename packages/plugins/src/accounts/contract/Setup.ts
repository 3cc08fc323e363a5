/** `/api/setup/*`: public, and CSRF-exempt as the spec says; open only while no user exists. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Access, BadRequest, Conflict } from "@garrison/runtime"
import { NewPassword, Username } from "./fields.js"
import { UserView } from "./Users.js"

export class SetupStatus extends Schema.Class<SetupStatus>("SetupStatus")({
  /** True while no user exists, so `POST /api/setup/admin` would create the first admin. */
  open: Schema.Boolean
}) {}

export class SetupAdminRequest extends Schema.Class<SetupAdminRequest>("SetupAdminRequest")({
  username: Username,
  password: NewPassword
}) {}

export class SetupGroup extends HttpApiGroup.make("setup")
  .add(HttpApiEndpoint.get("status", "/api/setup/status").addSuccess(SetupStatus).annotate(Access, Access.none))
  .add(
    HttpApiEndpoint.post("admin", "/api/setup/admin")
      .setPayload(SetupAdminRequest)
      .addSuccess(UserView, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(Access, Access.none)
  ) {}
