/**
 * For tests only: the `session` scheme from a header instead of a sign-in,
 * `Authorization: Bearer test:<user>:<perm1,perm2>` (a permission
 * `perm@id1|id2` is granted on those servers only), so tests need no
 * accounts plugin. Load it with `PLUGINS=./test/dist/support/TestAuthPlugin.js`.
 */
import { AuthenticationFailed, Plugin, type Principal, scheme, SESSION_SCHEME } from "@garrison/runtime"
import { Effect, Option } from "effect"

export const parseTestToken = (header: string | undefined): Option.Option<Principal> => {
  if (header === undefined || !header.startsWith("Bearer test:")) return Option.none()
  const [name = "tester", permissions = ""] = header.slice("Bearer test:".length).split(":")
  const everywhere = new Set<string>()
  const scoped = new Map<string, Set<string>>()
  for (const grant of permissions.split(",").filter((p) => p.length > 0)) {
    const [permission = "", servers] = grant.split("@")
    if (servers === undefined) everywhere.add(permission)
    else scoped.set(permission, new Set([...(scoped.get(permission) ?? []), ...servers.split("|")]))
  }
  return Option.some({
    kind: "user",
    id: name,
    name,
    role: "test",
    permissions: everywhere,
    ...(scoped.size > 0 ? { scoped } : {})
  })
}

const carries = (header: string | undefined) => header !== undefined && (header.startsWith("Bearer test:") || header === "Bearer bad")

export const TestAuthPlugin = Plugin.make({
  id: "test-auth",
  description: "Header-driven authenticator for tests",
  authentication: [
    scheme({
      name: SESSION_SCHEME,
      // In place of the accounts plugin's sign-in, when both are loaded.
      replaces: true,
      methods: [{ schemes: { testToken: { type: "http", scheme: "bearer" } }, requires: () => ["testToken"] }],
      authenticator: Effect.succeed({
        carries: (request) => carries(request.headers["authorization"]),
        authenticate: (request) => {
          const header = request.headers["authorization"]
          if (header === "Bearer bad") {
            return Effect.fail(new AuthenticationFailed({ status: 401, code: "unauthenticated", message: "bad token" }))
          }
          return Effect.succeed(parseTestToken(header))
        }
      })
    })
  ]
})

export default TestAuthPlugin
