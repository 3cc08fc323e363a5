/**
 * The header authenticator for tests: the `session` scheme read from
 * `Authorization: Bearer test:<user>:<perm1,perm2>` instead of a sign-in,
 * so a test needs no accounts plugin and names its caller in one string.
 * A permission written `perm@id1|id2` is granted on those servers only;
 * `Bearer bad` is refused with 401 (a credential that fails).
 *
 * Declared with `replaces: true`: loaded beside the accounts plugin, it
 * stands in for its sign-in. A spawned controller loads this module on its
 * own (`PLUGINS=./packages/testkit/dist/TestAuthPlugin.js`, or the package
 * subpath `@garrison/testkit/TestAuthPlugin`): it imports nothing but the
 * runtime and `effect`.
 */
import { AuthenticationFailed, Plugin, type Principal, scheme, SESSION_SCHEME } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

const PREFIX = "test:"

/**
 * A caller as `call`'s `as` option and `testToken` take it: the user's
 * name and the permissions granted (`perm` everywhere, `perm@id1|id2` on
 * those servers only).
 */
export const caller = (user: string, permissions: ReadonlyArray<string> = []): string => `${user}:${permissions.join(",")}`

/** The bearer token for `user` with `permissions`: `test:<user>:<perm,perm>`. */
export const testToken = (user: string, permissions: ReadonlyArray<string> = []): string => PREFIX + caller(user, permissions)

/** The `Authorization` header for `user` with `permissions`, for clients other than `call`. */
export const testAuthorization = (user: string, permissions: ReadonlyArray<string> = []): { readonly authorization: string } => ({
  authorization: `Bearer ${testToken(user, permissions)}`
})

/** The principal an `Authorization` header names, or none when it holds no test token. */
export const parseTestToken = (header: string | undefined): Option.Option<Principal> => {
  if (header === undefined || !header.startsWith(`Bearer ${PREFIX}`)) return Option.none()
  const [name = "tester", permissions = ""] = header.slice(`Bearer ${PREFIX}`.length).split(":")
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

const carries = (header: string | undefined) => header !== undefined && (header.startsWith(`Bearer ${PREFIX}`) || header === "Bearer bad")

/** The plugin (`test-auth`): the `session` scheme from the test header. */
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
