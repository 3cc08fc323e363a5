/**
 * `GET /api/me`: the signed-in user and their permissions (everywhere
 * and on some servers only), for a panel that hides what the caller cannot
 * use; not under the sign-in rate limit; 403 `password-change-required`
 * while the password must change, like every other route; 401 without a
 * session.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { accountsController, call, createUser, signIn, signInAdmin } from "./support.js"

describe("GET /api/me", () => {
  it.scoped("names the user, their role's permissions and the scoped ones; 401 signed out", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const mine = yield* call("GET", "/api/me", { headers: admin.browser })
      expect(mine.status, mine.text).toBe(200)
      expect(mine.body).toMatchObject({ user: { username: "root", role: "admin", mustChangePassword: false, mfaEnabled: false }, permissions: ["admin"], scoped: [] })

      const role = yield* call("POST", "/api/roles", {
        json: { name: "mod-a", permissions: ["players.view", { permission: "server.restart", servers: ["srv-b", "srv-a"] }] },
        headers: admin.bearer
      })
      expect(role.status, role.text).toBe(201)
      yield* createUser(admin, { username: "moddy", password: "a long first passphrase", role: "mod-a", mustChangePassword: false })
      const moddy = yield* signIn("moddy", "a long first passphrase")
      const theirs = yield* call("GET", "/api/me", { headers: moddy.bearer })
      expect(theirs.status, theirs.text).toBe(200)
      expect(theirs.body).toMatchObject({
        user: { username: "moddy", role: "mod-a", mustChangePassword: false },
        permissions: ["players.view"],
        scoped: [{ permission: "server.restart", servers: ["srv-a", "srv-b"] }]
      })

      // Not the sign-in rate limit (15 in 15 minutes): a panel asks at every page load.
      for (let i = 0; i < 20; i++) expect((yield* call("GET", "/api/me", { headers: admin.bearer })).status).toBe(200)

      expect((yield* call("GET", "/api/me")).status).toBe(401)

      // A password that must change: the same 403 as every other route, until it is changed.
      yield* createUser(admin, { username: "fresh", password: "a long first passphrase", role: "mod-a", mustChangePassword: true })
      const fresh = yield* signIn("fresh", "a long first passphrase")
      const pending = yield* call("GET", "/api/me", { headers: fresh.bearer })
      expect(pending.status).toBe(403)
      expect(pending.body).toMatchObject({ error: "password-change-required" })
    }).pipe(Effect.provide(accountsController()))
  )
})
