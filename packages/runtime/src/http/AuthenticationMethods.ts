/**
 * How callers sign in, as the OpenAPI document tells generated clients and
 * the docs page's "try it". A plugin that fills the `Authenticator` slot
 * declares the ways its authenticator accepts (`Plugin.make({ authentication })`);
 * the host turns them into `components.securitySchemes` and each
 * operation's `security`. A plugin adding another way to sign in (a chat
 * bot's signature, a partner key) declares one more entry: nothing in the
 * host changes.
 *
 *   const bearer: AuthenticationMethod = {
 *     schemes: { bearer: { type: "http", scheme: "bearer" } },
 *     requires: ({ access }) => (access._tag === "None" ? undefined : ["bearer"])
 *   }
 */
import type * as OpenApi from "@effect/platform/OpenApi"
import type { AccessRule } from "../access/Access.js"

/** What a method can see of an operation to decide whether it applies. */
export interface OperationFacts {
  /** Upper case: `GET`, `POST`, ... */
  readonly method: string
  /** As declared, with `:params`. */
  readonly path: string
  readonly access: AccessRule
}

export interface AuthenticationMethod {
  /** The OpenAPI security schemes this method is made of, by name (`components.securitySchemes`). */
  readonly schemes: Readonly<Record<string, OpenApi.OpenAPISecurityScheme>>
  /**
   * The names of the schemes a caller sends together to call `operation` this
   * way (one OpenAPI security requirement: a session cookie and its CSRF
   * header, say), or undefined when this method is not accepted there.
   */
  readonly requires: (operation: OperationFacts) => ReadonlyArray<string> | undefined
}
