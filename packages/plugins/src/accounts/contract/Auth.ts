/**
 * `/api/auth/*`: login and logout, MFA, and the forced password change.
 * The spec fixes the login request and response; the rest it leaves open
 * and is defined here.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadRequest,
  BodyExample,
  Conflict,
  CsrfExempt,
  DuringPasswordChange,
  Forbidden,
  RateLimit,
  Unauthenticated
} from "@garrison/runtime"
import { GivenPassword, NewPassword } from "./fields.js"

export class LoginRequest extends Schema.Class<LoginRequest>("LoginRequest")({
  username: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  password: GivenPassword,
  /** A TOTP code or a recovery code; needed when the user has MFA on. */
  code: Schema.optional(Schema.String.pipe(Schema.maxLength(64)))
}) {}

export class SessionUser extends Schema.Class<SessionUser>("SessionUser")({
  id: Schema.String,
  username: Schema.String,
  role: Schema.String,
  /** True until the user has called `POST /api/auth/change-password-forced`. */
  mustChangePassword: Schema.Boolean
}) {}

export class LoginResponse extends Schema.Class<LoginResponse>("LoginResponse")({
  /** The session JWT, for `Authorization: Bearer`; the same token is set as the `auth-token` cookie. */
  token: Schema.String,
  user: SessionUser
}) {}

export class MfaSetupResponse extends Schema.Class<MfaSetupResponse>("MfaSetupResponse")({
  /** Base32 secret, for typing into an authenticator app. */
  secret: Schema.String,
  /** `otpauth://totp/...`, for a QR code. */
  uri: Schema.String
}) {}

export class MfaVerifyRequest extends Schema.Class<MfaVerifyRequest>("MfaVerifyRequest")({
  code: Schema.String.pipe(Schema.maxLength(64))
}) {}

export class MfaVerifyResponse extends Schema.Class<MfaVerifyResponse>("MfaVerifyResponse")({
  enabled: Schema.Literal(true),
  /** Shown once; each signs in once in place of a code. */
  recoveryCodes: Schema.Array(Schema.String)
}) {}

export class MfaDisableRequest extends Schema.Class<MfaDisableRequest>("MfaDisableRequest")({
  /** A current TOTP code, or */
  code: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  /** the account password. */
  password: Schema.optional(GivenPassword)
}) {}

export class MfaDisableResponse extends Schema.Class<MfaDisableResponse>("MfaDisableResponse")({
  enabled: Schema.Literal(false)
}) {}

export class ChangePasswordRequest extends Schema.Class<ChangePasswordRequest>("ChangePasswordRequest")({
  currentPassword: GivenPassword,
  newPassword: NewPassword
}) {}

/** A permission granted on some servers only. */
export const ScopedPermission = Schema.Struct({ permission: Schema.String, servers: Schema.Array(Schema.String) }).annotations({
  identifier: "ScopedPermission"
})

export class MeResponse extends Schema.Class<MeResponse>("MeResponse")({
  user: Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    role: Schema.String,
    mustChangePassword: Schema.Boolean,
    mfaEnabled: Schema.Boolean
  }),
  /** Permissions the caller's role grants on every server (`admin` implies all). */
  permissions: Schema.Array(Schema.String),
  /** Permissions granted on some servers only. */
  scoped: Schema.Array(ScopedPermission)
}) {}

/**
 * `GET /api/me`: who the session belongs to and what it may do, for a panel
 * that hides what the caller cannot use. Outside `/api/auth/*` and its
 * group, so it is not under the sign-in rate limit (every page load asks).
 * Like every other route, it answers 403 `password-change-required` while
 * the password must change (the login response says so first).
 */
export class SessionGroup extends HttpApiGroup.make("session").annotate(OpenApi.Description, "The signed-in user and the permissions they hold.").add(
  HttpApiEndpoint.get("me", "/api/me")
    .addSuccess(MeResponse)
    .annotate(Access, Access.anyAuth)
    .annotate(OpenApi.Summary, "The signed-in user and their permissions")
    .annotate(
      OpenApi.Description,
      "The caller's user, whether MFA is on, the permissions of their role everywhere and those granted on some servers " +
        "only (`admin` implies every permission)."
    )
) {}

export class AuthGroup extends HttpApiGroup.make("auth").annotate(OpenApi.Description, "Signing in and out, sessions, tokens and multi-factor authentication.")
  .add(
    HttpApiEndpoint.post("login", "/api/auth/login")
      .setPayload(LoginRequest)
      .addSuccess(LoginResponse)
      .addError(Unauthenticated)
      .annotate(Access, Access.none)
      .annotate(CsrfExempt, true)
      .annotate(OpenApi.Summary, "Sign in")
      .annotate(BodyExample, { username: "admin", password: "correct horse battery staple" })
      .annotate(
        OpenApi.Description,
        "Sets the auth-token (HttpOnly) and csrf-token cookies. 401 `unauthenticated` for a wrong username or password; " +
          "401 `mfa-required` when the user has MFA on and no `code` was sent; 429 with Retry-After while the (IP, username) " +
          "pair is locked: 5 failures within 10 minutes lock it for 60 s, then 5 min, then 1 h; a success clears it. " +
          "Each attempt is counted before the password is checked, so while 5 attempts of the pair are in the window " +
          "(failed or still being checked) the next is 429 without being checked."
      )
  )
  .add(
    HttpApiEndpoint.post("logout", "/api/auth/logout")
      .addSuccess(Schema.Void, { status: 204 })
      .annotate(Access, Access.anyAuth)
      .annotate(CsrfExempt, true)
      .annotate(DuringPasswordChange, true)
      .annotate(OpenApi.Summary, "Sign out")
      .annotate(OpenApi.Description, "Revokes the session token (refused on every route after) and clears the cookies. CSRF-exempt.")
  )
  .add(
    HttpApiEndpoint.post("mfaSetup", "/api/auth/mfa/setup")
      .addSuccess(MfaSetupResponse)
      .addError(Conflict)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Start setting up MFA")
      .annotate(
        OpenApi.Description,
        "Returns a new TOTP secret (and its otpauth:// URI for a QR code) for the caller. MFA is on only once " +
          "`POST /api/auth/mfa/verify` confirms a code. 409 when MFA is already on."
      )
  )
  .add(
    HttpApiEndpoint.post("mfaVerify", "/api/auth/mfa/verify")
      .setPayload(MfaVerifyRequest)
      .addSuccess(MfaVerifyResponse)
      .addError(Conflict)
      .addError(Forbidden)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Turn MFA on")
      .annotate(
        OpenApi.Description,
        "Confirms the secret from `POST /api/auth/mfa/setup` with a current code and turns MFA on. The answer lists " +
          "recovery codes, shown only this once."
      )
      .annotate(BodyExample, { code: "123456" })
  )
  .add(
    HttpApiEndpoint.post("mfaDisable", "/api/auth/mfa/disable")
      .setPayload(MfaDisableRequest)
      .addSuccess(MfaDisableResponse)
      .addError(Conflict)
      .addError(Forbidden)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Turn MFA off")
      .annotate(OpenApi.Description, "Proven with a current TOTP code or the account password.")
      .annotate(BodyExample, { code: "123456" })
  )
  .add(
    HttpApiEndpoint.post("changePasswordForced", "/api/auth/change-password-forced")
      .annotate(OpenApi.Summary, "Change a password that must be changed")
      .annotate(BodyExample, { currentPassword: "the one-time password", newPassword: "a long new passphrase" })
      .annotate(
        OpenApi.Description,
        "While a user must change their password, every other endpoint but logout and health answers 403 " +
          "`password-change-required`. Ends the user's other sessions."
      )
      .setPayload(ChangePasswordRequest)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(BadRequest)
      .addError(Forbidden)
      .annotate(Access, Access.anyAuth)
      .annotate(DuringPasswordChange, true)
  )
  // The spec's `/api/auth/*` limit: 15 requests in 15 minutes per client address.
  .annotate(RateLimit, "auth") {}
