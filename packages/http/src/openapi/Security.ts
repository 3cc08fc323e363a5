/**
 * Each operation's `security`, from the authentication schemes it accepts
 * (`AuthSchemes`, default `session`) and the ways the plugins providing them
 * say callers send them: a list of alternatives, each the OpenAPI schemes
 * sent together (`[{bearer}, {cookie, csrf}]` for a session write,
 * `[{bearer}, {cookie}]` for a read, `[]` for a public route), in the order
 * the route names its schemes and each scheme its methods (clients and the
 * docs page try the first). Generated clients and the docs page's "try it"
 * read it to sign requests.
 */
import type * as OpenApi from "@effect/platform/OpenApi"
import { type AuthenticationMethod, needsCaller, type PluginPlan, type RouteEntry } from "@garrison/runtime"

export type SecurityRequirement = Record<string, Array<string>>

/** Every scheme of every method, by name; a name declared twice with different definitions keeps the first. */
export const securitySchemesOf = (
  methods: ReadonlyArray<AuthenticationMethod>
): Record<string, OpenApi.OpenAPISecurityScheme> => {
  const schemes: Record<string, OpenApi.OpenAPISecurityScheme> = {}
  for (const method of methods) {
    for (const [name, scheme] of Object.entries(method.schemes)) {
      if (!(name in schemes)) schemes[name] = scheme
    }
  }
  return schemes
}

/**
 * The alternatives an operation accepts. Undefined when it needs a caller
 * but no loaded plugin says how to sign in (a controller without an
 * authenticator): the document then does not claim it is public.
 */
export const securityFor = (route: RouteEntry, schemes: PluginPlan["schemes"]): Array<SecurityRequirement> | undefined => {
  if (!needsCaller(route.access)) return []
  const alternatives: Array<SecurityRequirement> = []
  const seen = new Set<string>()
  const methods = route.schemes.flatMap((name) => schemes.find((scheme) => scheme.name === name)?.methods ?? [])
  for (const method of methods) {
    const names = method.requires({
      method: route.method.toUpperCase(),
      path: route.path,
      access: route.access,
      csrfExempt: route.csrfExempt
    })
    if (names === undefined || names.length === 0) continue
    const key = [...names].sort().join(" ")
    if (seen.has(key)) continue
    seen.add(key)
    alternatives.push(Object.fromEntries(names.map((name) => [name, []])))
  }
  return alternatives.length > 0 ? alternatives : undefined
}
