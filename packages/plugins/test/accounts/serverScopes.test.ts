/**
 * Per-server roles, through the real accounts and servers plugins: a role
 * `mod-a` with `server.restart` and `server.rcon` scoped to server A and
 * `players.view` everywhere restarts A, gets 403 on B, and lists A only;
 * deleting A takes it out of the role's grants.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PlayersPlugin } from "../../src/players/index.js"
import { eventually, fakeFleet, fakeInstall } from "@garrison/testkit"
import { accountsController, call, createUser, signIn, signInAdmin } from "./support.js"

const controller = () =>
  accountsController({ plugins: [fakeFleet().plugin, PlayersPlugin] })

interface RoleBody {
  readonly permissions: ReadonlyArray<unknown>
}

describe("permissions scoped to servers", () => {
  it.scoped("mod-a restarts A, gets 403 on B naming the permission, sees A only; a deleted server leaves the grant", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const create = (name: string, gamePort: number) =>
        Effect.map(
          call("POST", "/api/servers", { json: { name, installDir: fakeInstall(), gamePort }, headers: admin.bearer }),
          (reply) => String((reply.body as { id: string }).id)
        )
      const a = yield* create("Server A", 2302)
      const b = yield* create("Server B", 2402)

      const role = yield* call("POST", "/api/roles", {
        json: {
          name: "mod-a",
          permissions: [
            "players.view",
            { permission: "server.restart", servers: [a] },
            { permission: "server.rcon", servers: [a] },
            // Merged with the grant above.
            { permission: "server.restart", servers: [a] }
          ]
        },
        headers: admin.bearer
      })
      expect(role.status, role.text).toBe(201)
      expect((role.body as RoleBody).permissions).toEqual([
        "players.view",
        { permission: "server.restart", servers: [a] },
        { permission: "server.rcon", servers: [a] }
      ])
      yield* createUser(admin, { username: "mod", password: "a long enough password", role: "mod-a" })
      const mod = yield* signIn("mod", "a long enough password")

      // Restart A: allowed (the fake server starts); restart B: 403 before anything about B is read.
      const restartA = yield* call("POST", `/api/servers/${a}/restart`, { headers: mod.bearer })
      expect(restartA.status, restartA.text).toBe(200)
      const restartB = yield* call("POST", `/api/servers/${b}/restart`, { headers: mod.bearer })
      expect(restartB.status).toBe(403)
      expect(restartB.body).toMatchObject({ error: "forbidden", details: { serverId: b, role: "mod-a" } })
      // Any signed-in caller may read a status, but not of a server outside the caller's scope.
      expect((yield* call("GET", `/api/servers/${a}/status`, { headers: mod.bearer })).status).toBe(200)
      expect((yield* call("GET", `/api/servers/${b}/status`, { headers: mod.bearer })).status).toBe(403)

      const listed = (yield* call("GET", "/api/servers", { headers: mod.bearer })).body as { items: Array<{ id: string }>; total: number }
      expect(listed.items.map((s) => s.id)).toEqual([a])
      expect(listed.total).toBe(1)
      // The admin still sees both.
      expect(((yield* call("GET", "/api/servers", { headers: admin.bearer })).body as { total: number }).total).toBe(2)

      // A scoped admin grant is refused, naming the field.
      const scopedAdmin = yield* call("POST", "/api/roles", {
        json: { name: "bad", permissions: [{ permission: "admin", servers: [a] }] },
        headers: admin.bearer
      })
      expect(scopedAdmin.status).toBe(400)
      expect(scopedAdmin.text).toContain("cannot be limited to servers")

      // Deleting A takes it out of the grants: a server made later with the same id would not inherit them.
      expect((yield* call("POST", `/api/servers/${a}/stop`, { headers: admin.bearer })).status).toBe(200)
      expect((yield* call("DELETE", `/api/servers/${a}`, { headers: admin.bearer })).status).toBe(200)
      // The event is handled on its own fiber: wait for the change itself.
      const modA = Effect.map(
        call("GET", "/api/roles", { headers: admin.bearer }),
        (reply) => (reply.body as { items: Array<{ name: string } & RoleBody> }).items.find((r) => r.name === "mod-a")!.permissions
      )
      expect(yield* eventually(modA, (permissions) => permissions.length === 1)).toEqual(["players.view"])
    }).pipe(Effect.provide(controller()))
  )
})
