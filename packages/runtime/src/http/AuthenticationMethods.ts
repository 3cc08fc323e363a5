/**
 * How callers send an authentication scheme's credentials, as the OpenAPI
 * document tells generated clients and the docs page's "try it". Each
 * scheme a plugin declares (`Plugin.make({ authentication: [scheme] })`)
 * lists its methods; the host turns them into `components.securitySchemes`
 * and, for every operation, the requirements of the schemes it accepts.
 *
 *   const bearer: AuthenticationMethod = {
 *     schemes: { bearer: { type: "http", scheme: "bearer" } },
 *     requires: () => ["bearer"]
 *   }
 */
import type * as OpenApi from "@effect/platform/OpenApi"
import type { AccessRule } from "../access/Access.js"

/** What a method can see of an operation to decide what a caller sends there. */
export interface OperationFacts {
  /** Upper case: `GET`, `POST`, ... */
  readonly method: string
  /** As declared, with `:params`. */
  readonly path: string
  readonly access: AccessRule
  /** Its writes need no CSRF token (`CsrfExempt`). */
  readonly csrfExempt: boolean
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
