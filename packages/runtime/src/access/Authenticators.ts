/**
 * Authentication by scheme. A plugin that lets callers sign in declares its
 * schemes (`Plugin.make({ authentication: [...] })`): the session (cookie,
 * then bearer token; the accounts plugin), and later the chat bot's
 * signature, a partner key, a payment provider's webhook signature. Each
 * endpoint names the schemes it accepts (`AuthSchemes`, default
 * `session`); the host asks those authenticators in order and uses the
 * first caller one of them recognizes.
 *
 * A request that carries credentials of a scheme the endpoint does not
 * accept (and none of one it does) is 401: a partner key sent to a
 * session route is a client mistake to report, not an anonymous call.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { AuthenticationMethod } from "../http/AuthenticationMethods.js"
import type { AuthenticationFailed, Principal } from "./Principal.js"

/** What an authenticator may know of the route it authenticates for. */
export interface AuthenticationContext {
  readonly path: string
  /** Upper case. */
  readonly method: string
  readonly clientIp: string
  /** The endpoint's writes need no CSRF token (`CsrfExempt`). */
  readonly csrfExempt: boolean
  /** A user who must change their password may call it (`DuringPasswordChange`). */
  readonly duringPasswordChange: boolean
}

export interface SchemeAuthenticator {
  /**
   * Whether the request carries this scheme's credentials at all, good or
   * bad (a cookie by name, a header, a token of this shape): cheap, no I/O.
   */
  readonly carries: (request: HttpServerRequest.HttpServerRequest) => boolean
  /**
   * The caller: `None` when the request carries none of this scheme's
   * credentials, a failure when it carries bad ones (expired, revoked,
   * CSRF mismatch, stale signature, ...).
   */
  readonly authenticate: (
    request: HttpServerRequest.HttpServerRequest,
    context: AuthenticationContext
  ) => Effect.Effect<Option.Option<Principal>, AuthenticationFailed>
}

/** A scheme as a plugin declares it: its name, how callers send it (OpenAPI), and its authenticator. */
export interface AuthenticationScheme<R = never> {
  /** Lower-case letters, digits and dashes: `session`, `chat-signature`, `partner-key`. */
  readonly name: string
  /** The ways a caller sends it, for the OpenAPI document's `securitySchemes` and each operation's `security`. */
  readonly methods: ReadonlyArray<AuthenticationMethod>
  /** Built once the plugin's services exist. */
  readonly authenticator: Effect.Effect<SchemeAuthenticator, never, R>
  /**
   * Takes the place of the scheme an earlier plugin declares under this name
   * (a test authenticator, or an embedder's single sign-on instead of the
   * sign-in's session). Without it, a name declared twice stops the start.
   */
  readonly replaces?: boolean
}

export interface AuthenticatorsShape {
  /** The authenticator of a scheme, when a loaded plugin provides it. */
  readonly get: (scheme: string) => SchemeAuthenticator | undefined
  /** Every scheme with its authenticator, in plugin load order. */
  readonly all: ReadonlyArray<readonly [string, SchemeAuthenticator]>
}

export class Authenticators extends Context.Tag("@garrison/runtime/Authenticators")<Authenticators, AuthenticatorsShape>() {
  static readonly make = (entries: ReadonlyArray<readonly [string, SchemeAuthenticator]>): AuthenticatorsShape => {
    const byScheme = new Map(entries)
    return { get: (scheme) => byScheme.get(scheme), all: entries }
  }
}

/** Declares a scheme (a helper for the type parameter). */
export const scheme = <R>(spec: AuthenticationScheme<R>): AuthenticationScheme<R> => spec
