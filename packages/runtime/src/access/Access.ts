/**
 * What an endpoint requires, declared on the endpoint itself and enforced by
 * the HTTP host before the handler runs. Every endpoint must carry one: the
 * host refuses to start when a plugin forgets.
 *
 *   HttpApiEndpoint.get("list", "/api/greetings").annotate(Access, Access.permission("greetings.read"))
 *
 * Groups may carry a default with `HttpApiGroup.annotate(Access, ...)`; the
 * endpoint's own annotation wins.
 */
import * as Context from "effect/Context"

export type AccessRule =
  /** Public: no credentials needed. */
  | { readonly _tag: "None" }
  /** Any authenticated caller. */
  | { readonly _tag: "AnyAuth" }
  /** An authenticated caller whose role grants this permission (or `admin`). */
  | { readonly _tag: "Permission"; readonly permission: string }

export class Access extends Context.Tag("@garrison/runtime/Access")<Access, AccessRule>() {
  static readonly none: AccessRule = { _tag: "None" }
  static readonly anyAuth: AccessRule = { _tag: "AnyAuth" }
  static readonly permission = (permission: string): AccessRule => ({ _tag: "Permission", permission })
}

export const describeAccess = (rule: AccessRule): string =>
  rule._tag === "None" ? "None" : rule._tag === "AnyAuth" ? "Any auth" : rule.permission
