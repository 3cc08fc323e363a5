/**
 * Who is calling. The HTTP host resolves it through the endpoint's
 * authentication schemes (`Authenticators`) before the handler runs and
 * makes it available as `CurrentPrincipal`.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { grants } from "./Permissions.js"

export interface Principal {
  readonly kind: "user" | "bot" | "service"
  readonly id: string
  readonly name: string
  readonly role: string
  /** Permissions of the caller's role on every server, read for this request (never frozen in a token). */
  readonly permissions: ReadonlySet<string>
  /**
   * Permissions the role grants on some servers only: permission name to
   * server ids. They count on routes about one of those servers, and make
   * the caller see only the servers they name (see `serverVisibility`).
   */
  readonly scoped?: ReadonlyMap<string, ReadonlySet<string>>
  /** Free-form facts the authenticator wants handlers to see (session id, auth method, ...). */
  readonly attributes?: Readonly<Record<string, string>>
}

/** Whether the caller holds `permission`: everywhere, or (scoped) on `serverId`. */
export const principalCan = (principal: Principal, permission: string, serverId?: string): boolean =>
  grants(principal.permissions, permission) ||
  (serverId !== undefined && principal.scoped?.get(permission)?.has(serverId) === true)

/**
 * Why a request could not be authenticated. The host maps it to the error
 * shape. 404 is for a scheme that hides its routes while it is off (the
 * metrics token: no `METRICS_TOKEN`, no `/metrics`).
 */
export class AuthenticationFailed extends Schema.TaggedError<AuthenticationFailed>()("AuthenticationFailed", {
  status: Schema.Literal(401, 403, 404, 429),
  code: Schema.String,
  message: Schema.String,
  retryAfterSeconds: Schema.optional(Schema.Number)
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
