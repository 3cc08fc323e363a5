/**
 * For tests only: fills the authenticator slot with a header-driven one,
 * `Authorization: Bearer test:<user>:<perm1,perm2>`, until the accounts
 * plugin exists. Load it with `PLUGINS=./test/dist/support/TestAuthPlugin.js`.
 */
import { Authenticator, AuthenticationFailed, Plugin, type Principal } from "@garrison/runtime"
import { Effect, Layer, Option } from "effect"

export const parseTestToken = (header: string | undefined): Option.Option<Principal> => {
  if (header === undefined || !header.startsWith("Bearer test:")) return Option.none()
  const [name = "tester", permissions = ""] = header.slice("Bearer test:".length).split(":")
  return Option.some({
    kind: "user",
    id: name,
    name,
    role: "test",
    permissions: new Set(permissions.split(",").filter((p) => p.length > 0))
  })
}

export const TestAuthPlugin = Plugin.make({
  id: "test-auth",
  description: "Header-driven authenticator for tests",
  layer: Layer.succeed(Authenticator, {
    authenticate: (request) => {
      const header = request.headers["authorization"]
      if (header === "Bearer bad") {
        return Effect.fail(new AuthenticationFailed({ status: 401, code: "unauthenticated", message: "bad token" }))
      }
      return Effect.succeed(parseTestToken(header))
    }
  })
})

export default TestAuthPlugin
