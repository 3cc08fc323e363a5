/**
 * Users and roles (admin): the built-in roles cannot be deleted, unknown
 * permission names are 400, the last admin cannot be deleted, demoted or
 * disabled (409), a role held by users cannot be deleted, and everything
 * needs the `admin` permission (403 naming it).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { accountsController, auditRecorder, call, createUser, login, signIn, signInAdmin } from "./support.js"

interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
  readonly total: number
}

interface RoleBody {
  readonly id: string
  readonly name: string
  readonly permissions: ReadonlyArray<string>
  readonly builtIn: boolean
}

describe("roles", () => {
  it.scoped("admin, moderator and chat-bot are built in and cannot be deleted; admin keeps exactly `admin`", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      // Sorts before every built-in name, yet is listed after them.
      const custom = yield* call("POST", "/api/roles", { json: { name: "aaa-custom", permissions: ["server.view"] }, headers: admin.bearer })
      expect(custom.status).toBe(201)
      const roles = ((yield* call("GET", "/api/roles", { headers: admin.bearer })).body as { items: Array<RoleBody> }).items
      expect(roles.map((r) => r.name)).toEqual(["admin", "chat-bot", "moderator", "aaa-custom"])
      // Built-in roles first, then by name, one page or many.
      const paged: Array<string> = []
      for (let cursor: string | null | undefined; cursor !== null; ) {
        const page = (yield* call("GET", `/api/roles?limit=1${cursor === undefined ? "" : `&cursor=${cursor}`}`, { headers: admin.bearer }))
          .body as Page<RoleBody>
        paged.push(...page.items.map((r) => r.name))
        cursor = page.nextCursor
      }
      expect(paged).toEqual(roles.map((r) => r.name))
      const builtIn = roles.filter((r) => r.builtIn)
      expect(builtIn.map((r) => r.name).sort()).toEqual(["admin", "chat-bot", "moderator"])
      expect(builtIn.find((r) => r.name === "admin")?.permissions).toEqual(["admin"])
      const moderator = builtIn.find((r) => r.name === "moderator")?.permissions ?? []
      expect(moderator).toEqual(expect.arrayContaining(["server.view", "server.restart", "players.kick", "players.ban", "bans.manage"]))
      expect(moderator).not.toEqual(expect.arrayContaining(["admin"]))
      expect(moderator).not.toContain("users.manage")
      expect(moderator).not.toContain("server.deploy")
      expect(builtIn.find((r) => r.name === "chat-bot")?.permissions).toEqual(["server.view", "players.view"])

      for (const name of ["admin", "moderator", "chat-bot"]) {
        const reply = yield* call("DELETE", `/api/roles/${name}`, { headers: admin.bearer })
        expect(reply.status, name).toBe(409)
        expect(reply.body).toMatchObject({ error: "conflict", message: expect.stringContaining("built-in") })
      }
      const editAdmin = yield* call("PATCH", "/api/roles/admin", { json: { permissions: ["server.view"] }, headers: admin.bearer })
      expect(editAdmin.status).toBe(409)
      // The others' permissions may be edited.
      const editBot = yield* call("PATCH", "/api/roles/chat-bot", { json: { permissions: ["server.view"] }, headers: admin.bearer })
      expect(editBot.status).toBe(200)
      expect(editBot.body).toMatchObject({ id: "chat-bot", permissions: ["server.view"], builtIn: true })
    }).pipe(Effect.provide(accountsController())))

  it.scoped("GET /api/permissions lists what the loaded plugins declare, with their owners (admin only)", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const reply = yield* call("GET", "/api/permissions", { headers: admin.bearer })
      expect(reply.status).toBe(200)
      const items = (reply.body as { items: ReadonlyArray<{ name: string; owner: string; description: string }> }).items
      expect(items[0]).toEqual({ name: "admin", owner: "built-in", description: "Everything, including system settings" })
      expect(items).toEqual(expect.arrayContaining([
        expect.objectContaining({ name: "users.manage", owner: "accounts" }),
        expect.objectContaining({ name: "server.view", owner: "default-permissions" })
      ]))
      expect(new Set(items.map((p) => p.name)).size).toBe(items.length)
      yield* createUser(admin, { username: "perm-viewer", password: "a long password here", role: "moderator" })
      const moderator = yield* signIn("perm-viewer", "a long password here")
      const refused = yield* call("GET", "/api/permissions", { headers: moderator.bearer })
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ error: "forbidden" })
    }).pipe(Effect.provide(accountsController())))

  it.scoped("unknown permission names are 400 listing them; known ones (built-in or plugin-declared) pass", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const bad = yield* call("POST", "/api/roles", {
        json: { name: "ops", permissions: ["server.view", "server.explode", "root"] },
        headers: admin.bearer
      })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ error: "invalid-request", details: { unknown: ["server.explode", "root"] } })
      const badPatch = yield* call("PATCH", "/api/roles/moderator", { json: { permissions: ["nope"] }, headers: admin.bearer })
      expect(badPatch.status).toBe(400)

      const ok = yield* call("POST", "/api/roles", {
        json: { name: "ops", description: "Operators", permissions: ["server.view", "server.start", "server.view"] },
        headers: admin.bearer
      })
      expect(ok.status).toBe(201)
      expect(ok.body).toMatchObject({ id: "ops", name: "ops", description: "Operators", permissions: ["server.view", "server.start"], builtIn: false })
      expect((yield* call("POST", "/api/roles", { json: { name: "ops", permissions: [] }, headers: admin.bearer })).status).toBe(409)
      const badName = yield* call("POST", "/api/roles", { json: { name: "Bad Name", permissions: [] }, headers: admin.bearer })
      expect(badName.status).toBe(400)
      expect((yield* call("PATCH", "/api/roles/missing", { json: {}, headers: admin.bearer })).status).toBe(404)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a role description with a NUL is 400 naming description, on create, update and restore (PostgreSQL text cannot hold one)", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const rule = "description must not contain a NUL character (U+0000)"
      const created = yield* call("POST", "/api/roles", { json: { name: "nul", description: "a\u0000b", permissions: [] }, headers: admin.bearer })
      expect(created.status).toBe(400)
      expect(created.body).toMatchObject({ error: "invalid-request" })
      expect(String((created.body as { message: unknown }).message)).toContain(rule)
      const patched = yield* call("PATCH", "/api/roles/moderator", { json: { description: "\u0000" }, headers: admin.bearer })
      expect(patched.status).toBe(400)
      expect(String((patched.body as { message: unknown }).message)).toContain(rule)
      const restored = yield* call("POST", "/api/restore/roles", {
        json: { kind: "garrison.roles", version: 1, roles: [{ name: "nul", description: "x\u0000", permissions: [] }] },
        headers: admin.bearer
      })
      expect(restored.status).toBe(400)
      expect(String((restored.body as { message: unknown }).message)).toContain("description")
      const roles = yield* call("GET", "/api/roles?limit=100", { headers: admin.bearer })
      expect((roles.body as { items: ReadonlyArray<{ name: string }> }).items.map((role) => role.name)).not.toContain("nul")
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a role held by users cannot be deleted; an unused one can", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* call("POST", "/api/roles", { json: { name: "ops", permissions: ["server.view"] }, headers: admin.bearer })
      const id = yield* createUser(admin, { username: "olga", password: "amber-falcon-teapot-17", role: "ops" })
      expect((yield* call("DELETE", "/api/roles/ops", { headers: admin.bearer })).status).toBe(409)
      yield* call("PATCH", `/api/users/${id}`, { json: { role: "moderator" }, headers: admin.bearer })
      expect((yield* call("DELETE", "/api/roles/ops", { headers: admin.bearer })).status).toBe(204)
      expect((yield* call("DELETE", "/api/roles/ops", { headers: admin.bearer })).status).toBe(404)
    }).pipe(Effect.provide(accountsController())))
})

describe("users", () => {
  it.scoped("create, list, update and delete, with audit rows that name fields, never passwords", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      const created = yield* call("POST", "/api/users", {
        json: { username: "Mia", password: "copper-meadow-violin-62", role: "moderator" },
        headers: admin.bearer
      })
      expect(created.status).toBe(201)
      const mia = created.body as { id: string }
      expect(created.body).toEqual({
        id: expect.any(String),
        username: "Mia",
        role: "moderator",
        disabled: false,
        mustChangePassword: true,
        mfaEnabled: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String)
      })
      // Usernames are unique ignoring case; roles must exist; passwords follow the policy.
      const dup = yield* call("POST", "/api/users", { json: { username: "mia", password: "another-velvet-orchard-95", role: "moderator" }, headers: admin.bearer })
      expect(dup.status).toBe(409)
      const noRole = yield* call("POST", "/api/users", { json: { username: "ned", password: "silver-tundra-kettle-38", role: "ghosts" }, headers: admin.bearer })
      expect(noRole.status).toBe(400)
      const short = yield* call("POST", "/api/users", { json: { username: "ned", password: "1234567", role: "moderator" }, headers: admin.bearer })
      expect(short.status).toBe(400)
      const long = yield* call("POST", "/api/users", { json: { username: "ned", password: "x".repeat(129), role: "moderator" }, headers: admin.bearer })
      expect(long.status).toBe(400)
      const longest = "tangerine glacier mosaic harbour walnut cinema lilac bramble tractor copper meadow violin amber falcon teapot silver tundra kettle and more".slice(0, 128)
      expect([...longest].length).toBe(128)
      const edge = yield* call("POST", "/api/users", { json: { username: "ned", password: longest, role: "moderator" }, headers: admin.bearer })
      expect(edge.status).toBe(201)

      const renamed = yield* call("PATCH", `/api/users/${mia.id}`, { json: { username: "mia2", mustChangePassword: false }, headers: admin.bearer })
      expect(renamed.body).toMatchObject({ username: "mia2", mustChangePassword: false })
      expect((yield* login("mia2", "copper-meadow-violin-62")).status).toBe(200)
      expect((yield* call("PATCH", "/api/users/nope", { json: {}, headers: admin.bearer })).status).toBe(404)

      const list = ((yield* call("GET", "/api/users", { headers: admin.bearer })).body as { items: Array<{ username: string }> }).items
      expect(list.map((u) => u.username)).toEqual(["mia2", "ned", "root"])
      // Pages in the same order: limit, then nextCursor until it is null; the total on each page.
      const first = (yield* call("GET", "/api/users?limit=2", { headers: admin.bearer })).body as Page<{ username: string }>
      expect([first.items.map((u) => u.username), first.total]).toEqual([["mia2", "ned"], 3])
      const second = (yield* call("GET", `/api/users?limit=2&cursor=${first.nextCursor}`, { headers: admin.bearer })).body as Page<{ username: string }>
      expect([second.items.map((u) => u.username), second.nextCursor]).toEqual([["root"], null])
      const forged = yield* call("GET", "/api/users?cursor=bm90LWEtY3Vyc29y", { headers: admin.bearer })
      expect([forged.status, (forged.body as { details: unknown }).details]).toEqual([400, [{ path: "cursor", message: "is not one this list returned" }]])
      expect((yield* call("DELETE", `/api/users/${mia.id}`, { headers: admin.bearer })).status).toBe(204)
      expect((yield* call("DELETE", `/api/users/${mia.id}`, { headers: admin.bearer })).status).toBe(404)

      const actions = audit.rows.filter((r) => r.action.startsWith("users.")).map((r) => r.action)
      expect(actions).toEqual(["users.create", "users.create", "users.update", "users.delete"])
      expect(audit.rows.find((r) => r.action === "users.update")?.details).toMatchObject({ fields: ["username", "mustChangePassword"] })
      expect(JSON.stringify(audit.rows)).not.toContain("copper-meadow-violin-62")
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("the last enabled admin cannot be deleted, demoted or disabled (409); with a second admin they can", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const self = admin.userId
      for (const [method, json] of [
        ["DELETE", undefined],
        ["PATCH", { role: "moderator" }],
        ["PATCH", { disabled: true }]
      ] as const) {
        const reply = yield* call(method, `/api/users/${self}`, { json, headers: admin.bearer })
        expect(reply.status, `${method} ${JSON.stringify(json)}`).toBe(409)
        expect(reply.body).toMatchObject({ error: "conflict", message: expect.stringContaining("admin") })
      }
      // Nor by taking `admin` away from the role the last admin holds.
      yield* call("POST", "/api/roles", { json: { name: "superusers", permissions: ["admin"] }, headers: admin.bearer })
      yield* call("PATCH", `/api/users/${self}`, { json: { role: "superusers" }, headers: admin.bearer })
      const strip = yield* call("PATCH", "/api/roles/superusers", { json: { permissions: ["server.view"] }, headers: admin.bearer })
      expect(strip.status).toBe(409)
      // Nothing changed.
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)

      // A disabled admin does not count; an enabled one does.
      const other = yield* createUser(admin, { username: "second", password: "hazel-compass-ribbon-48", role: "admin" })
      yield* call("PATCH", `/api/users/${other}`, { json: { disabled: true }, headers: admin.bearer })
      expect((yield* call("PATCH", `/api/users/${self}`, { json: { role: "moderator" }, headers: admin.bearer })).status).toBe(409)
      yield* call("PATCH", `/api/users/${other}`, { json: { disabled: false }, headers: admin.bearer })
      const demoted = yield* call("PATCH", `/api/users/${self}`, { json: { role: "moderator" }, headers: admin.bearer })
      expect(demoted.status).toBe(200)
      // Now the other is the last admin.
      const second = yield* signIn("second", "hazel-compass-ribbon-48")
      expect((yield* call("DELETE", `/api/users/${other}`, { headers: second.bearer })).status).toBe(409)
      expect((yield* call("DELETE", `/api/users/${self}`, { headers: second.bearer })).status).toBe(204)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("every users, roles and backup endpoint needs `admin`: 403 naming it", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "mod", password: "quiet-harbour-lantern-41", role: "moderator" })
      const mod = yield* signIn("mod", "quiet-harbour-lantern-41")
      const endpoints = [
        ["GET", "/api/users"],
        ["POST", "/api/users"],
        ["PATCH", `/api/users/${admin.userId}`],
        ["DELETE", `/api/users/${admin.userId}`],
        ["GET", "/api/roles"],
        ["POST", "/api/roles"],
        ["PATCH", "/api/roles/moderator"],
        ["DELETE", "/api/roles/moderator"],
        ["GET", "/api/backup/users"],
        ["GET", "/api/backup/roles"],
        ["POST", "/api/restore/users"],
        ["POST", "/api/restore/roles"]
      ] as const
      for (const [method, path] of endpoints) {
        const reply = yield* call(method, path, { json: method === "GET" || method === "DELETE" ? undefined : {}, headers: mod.browser })
        expect(reply.status, `${method} ${path}`).toBe(403)
        expect(reply.body).toMatchObject({ error: "forbidden", message: 'missing permission "admin"' })
      }
    }).pipe(Effect.provide(accountsController())))
})
