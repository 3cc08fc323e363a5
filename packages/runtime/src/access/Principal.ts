/**
 * Who is calling. The HTTP host resolves it through the `Authenticator`
 * before the handler runs and makes it available as `CurrentPrincipal`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { grants } from "./Permissions.js"

export interface Principal {
  readonly kind: "user" | "bot" | "service"
  readonly id: string
  readonly name: string
  readonly role: string
  /** Permissions of the caller's role, read for this request (never frozen in a token). */
  readonly permissions: ReadonlySet<string>
  /** Free-form facts the authenticator wants handlers to see (session id, auth method, ...). */
  readonly attributes?: Readonly<Record<string, string>>
}

export const principalCan = (principal: Principal, permission: string): boolean =>
  grants(principal.permissions, permission)

/** Why a request could not be authenticated. The host maps it to the error shape. */
export class AuthenticationFailed extends Schema.TaggedError<AuthenticationFailed>()("AuthenticationFailed", {
  status: Schema.Literal(401, 403, 429),
  code: Schema.String,
  message: Schema.String,
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

export interface AuthenticatorShape {
  /**
   * Resolve the caller of a request: `None` when it carries no credentials,
   * a failure when it carries bad ones (expired, revoked, CSRF mismatch...).
   * `access` lets the authenticator skip work (CSRF, must-change checks) that
   * the route does not need.
   */
  readonly authenticate: (
    request: HttpServerRequest.HttpServerRequest,
    context: { readonly path: string; readonly method: string; readonly clientIp: string }
  ) => Effect.Effect<Option.Option<Principal>, AuthenticationFailed>
}

/**
 * The authenticator slot. Until an accounts plugin provides one, every caller
 * is anonymous, so only `None` endpoints answer and the rest get 401.
 */
export class Authenticator extends Context.Reference<Authenticator>()("@garrison/runtime/Authenticator", {
  defaultValue: (): AuthenticatorShape => ({ authenticate: () => Effect.succeed(Option.none()) })
}) {}

/**
 * The caller of the current request, set by the host. One per process, not per
 * copy of this module: the bundled controller and a plugin loaded from
 * PLUGINS import different copies of the runtime, and both must see one ref.
 */
export const currentPrincipalRef: FiberRef.FiberRef<Option.Option<Principal>> = globalValue(
  Symbol.for("@garrison/runtime/currentPrincipalRef"),
  () => FiberRef.unsafeMake(Option.none<Principal>())
)

/**
 * The authenticated caller. The host only runs a handler of an `AnyAuth` or
 * `Permission` endpoint after authenticating the caller, so there it always
 * succeeds; on a `None` endpoint use `CurrentPrincipalOption` (calling this
 * there is a programming error and dies).
 */
export const CurrentPrincipal: Effect.Effect<Principal> = Effect.flatMap(
  FiberRef.get(currentPrincipalRef),
  Option.match({
    onNone: () => Effect.dieMessage("CurrentPrincipal used on an endpoint that does not require authentication"),
    onSome: Effect.succeed
  })
)

/** The caller when the request carried valid credentials, on any endpoint. */
export const CurrentPrincipalOption: Effect.Effect<Option.Option<Principal>> = FiberRef.get(currentPrincipalRef)
