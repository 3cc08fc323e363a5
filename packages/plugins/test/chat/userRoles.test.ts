/**
 * The per chat user role routes: `users.manage`, audited, the role must
 * exist, and nobody hands out (or takes away) more than they hold: a
 * moderator with `users.manage` cannot map a chat user to `admin`, nor
 * unmap an admin's chat user.
 */
import { describe, expect, it } from "@effect/vitest"
import { call } from "@garrison/testkit"
import { Effect } from "effect"
import { ADMIN, chatController, makeRole } from "./support.js"

const MANAGER = "mgr:users.manage,server.view,players.view,server.restart"

const withController = <A, E, R>(body: (fleet: ReturnType<typeof chatController>["fleet"]) => Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const { fleet, layer } = chatController()
    return Effect.provide(body(fleet), layer)
  })

describe("chat user roles", () => {
  it.scopedLive("set, list, replace and remove; each change is an audit row naming the roles", () =>
    withController((fleet) =>
      Effect.gen(function* () {
        const set = yield* call("PUT", "/api/chat/user-roles/123456789012345678", { as: ADMIN, json: { role: "moderator", chatUserTag: "survivor#0001" } })
        expect(set.status, JSON.stringify(set.body)).toBe(200)
        expect(set.body).toMatchObject({ chatUserId: "123456789012345678", role: "moderator", chatUserTag: "survivor#0001", updatedBy: "root" })
        const replaced = yield* call("PUT", "/api/chat/user-roles/123456789012345678", { as: ADMIN, json: { role: "chat-bot" } })
        expect(replaced.status).toBe(200)
        const list = yield* call("GET", "/api/chat/user-roles", { as: ADMIN })
        expect(list.body).toEqual({
          items: [expect.objectContaining({ chatUserId: "123456789012345678", role: "chat-bot" })],
          fallbackRole: "chat-bot",
          assignableRoles: ["admin", "chat-bot", "moderator"]
        })
        const removed = yield* call("DELETE", "/api/chat/user-roles/123456789012345678", { as: ADMIN })
        expect(removed.body).toEqual({ chatUserId: "123456789012345678", removedRole: "chat-bot", fallbackRole: "chat-bot" })
        expect((yield* call("DELETE", "/api/chat/user-roles/123456789012345678", { as: ADMIN })).status).toBe(404)
        expect(fleet.audit.rows.filter((row) => row.action.startsWith("chat.user-role")).map((row) => [row.action, row.target, row.details])).toEqual([
          ["chat.user-role.set", "123456789012345678", { role: "moderator", previousRole: null }],
          ["chat.user-role.set", "123456789012345678", { role: "chat-bot", previousRole: "moderator" }],
          ["chat.user-role.remove", "123456789012345678", { role: "chat-bot" }]
        ])
      })
    )
  )

  it.scopedLive("a role that does not exist is 400 naming it; a malformed chat user id is 400; no users.manage is 403", () =>
    withController(() =>
      Effect.gen(function* () {
        const missing = yield* call("PUT", "/api/chat/user-roles/1234", { as: ADMIN, json: { role: "ghost" } })
        expect(missing.status).toBe(400)
        expect(missing.body).toMatchObject({ message: 'role: no role named "ghost"', details: [{ path: "role" }] })
        for (const id of ["a b", "...", "x".repeat(65)]) {
          const badId = yield* call("PUT", `/api/chat/user-roles/${encodeURIComponent(id)}`, { as: ADMIN, json: { role: "moderator" } })
          expect(badId.status, id).toBe(400)
        }
        const viewer = yield* call("PUT", "/api/chat/user-roles/1234", { as: "v:server.view", json: { role: "chat-bot" } })
        expect(viewer.status).toBe(403)
        expect((yield* call("GET", "/api/chat/user-roles", { as: "v:server.view" })).status).toBe(403)
      })
    )
  )

  it.scopedLive("users.manage alone cannot hand out admin, a role beyond the caller, nor take one away; a role within the caller's grants it can", () =>
    withController(() =>
      Effect.gen(function* () {
        const toAdmin = yield* call("PUT", "/api/chat/user-roles/1234", { as: MANAGER, json: { role: "admin" } })
        expect(toAdmin.status).toBe(403)
        expect(toAdmin.body).toMatchObject({ details: { role: "admin", missing: ["admin"] } })
        const toModerator = yield* call("PUT", "/api/chat/user-roles/1234", { as: MANAGER, json: { role: "moderator" } })
        expect(toModerator.status).toBe(403)
        expect((toModerator.body as { details: { missing: Array<string> } }).details.missing).toContain("server.rcon")
        // A role scoped to a server the caller holds it on nowhere: beyond them too.
        expect((yield* makeRole("s1-restarter", [{ permission: "server.restart", servers: ["s1"] }, "server.view"])).status).toBe(201)
        expect((yield* call("PUT", "/api/chat/user-roles/1234", { as: MANAGER, json: { role: "s1-restarter" } })).status).toBe(200)
        expect((yield* call("PUT", "/api/chat/user-roles/1234", { as: "m2:users.manage,server.view", json: { role: "chat-bot" } })).status).toBe(403)
        // An admin's mapping: the manager may not remove or replace it.
        expect((yield* call("PUT", "/api/chat/user-roles/9999", { as: ADMIN, json: { role: "admin" } })).status).toBe(200)
        expect((yield* call("DELETE", "/api/chat/user-roles/9999", { as: MANAGER })).status).toBe(403)
        expect((yield* call("PUT", "/api/chat/user-roles/9999", { as: MANAGER, json: { role: "chat-bot" } })).status).toBe(403)
        const list = yield* call("GET", "/api/chat/user-roles", { as: MANAGER })
        // What the manager may hand out: the floor role and the role within their grants, not admin or moderator.
        expect((list.body as { assignableRoles: Array<string> }).assignableRoles).toEqual(["chat-bot", "s1-restarter"])
        expect((list.body as { items: Array<{ chatUserId: string; role: string }> }).items).toEqual([
          expect.objectContaining({ chatUserId: "1234", role: "s1-restarter" }),
          expect.objectContaining({ chatUserId: "9999", role: "admin" })
        ])
      })
    )
  )
})
