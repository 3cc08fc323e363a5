/** `/api/setup/*`: public, and CSRF-exempt as the spec says; open only while no user exists. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, CsrfExempt } from "@garrison/runtime"
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

export class SetupGroup extends HttpApiGroup.make("setup").annotate(OpenApi.Description, "First-run setup: creating the first admin account.")
  .add(
    HttpApiEndpoint.get("status", "/api/setup/status").addSuccess(SetupStatus).annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Whether first-run setup is open")
      .annotate(OpenApi.Description, "`open` is true while no user exists.")
  )
  .add(
    HttpApiEndpoint.post("admin", "/api/setup/admin")
      .setPayload(SetupAdminRequest)
      .addSuccess(UserView, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Create the first admin")
      .annotate(
        OpenApi.Description,
        "Only while no user exists (409 after); CSRF-exempt. The controller also creates the first admin itself at its " +
          "first start (from ADMIN_USERNAME and ADMIN_PASSWORD, or with a one-time password printed to the log)."
      )
      .annotate(BodyExample, { username: "admin", password: "correct horse battery staple" })
  )
  // The spec's list: all of /api/setup/* is CSRF-exempt.
  .annotate(CsrfExempt, true) {}
