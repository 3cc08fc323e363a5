/**
 * Rows name their actor as well as its id: the host names the caller of the
 * rows it writes, `AuditTrail.record` names the request's caller (in fibers
 * forked from the request too) when the actor is that caller, `?actor=`
 * matches the id or the name, and the name is in the hash (version 2) while
 * rows hashed before names (version 1) still verify after the migration.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { AuditTrail, currentPrincipalRef, type Principal, SealedSecrets } from "@garrison/runtime"
import { Effect, Fiber, Option } from "effect"
import { createHash } from "node:crypto"
import { AUDIT_GENESIS_HASH, AUDIT_HASH_VERSION, AuditLog } from "../../src/audit/index.js"
import { migrations } from "../../src/audit/migrations.js"
import { accountsController, call as accountsCall, createUser, signIn, signInAdmin } from "../accounts/support.js"
import { ADMIN, auditController, call } from "./support.js"

interface Row {
  readonly id: string
  readonly actor: string | null
  readonly actorName: string | null
  readonly action: string
  readonly hashVersion: number
  readonly prevHash: string
  readonly hash: string
}
interface Page {
  readonly items: ReadonlyArray<Row>
  readonly nextCursor: string | null
}

const audit = (query: string) =>
  Effect.map(call("GET", `/api/audit${query}`, { as: ADMIN }), (reply) => {
    expect(reply.status, query).toBe(200)
    return reply.body as Page
  })
const ids = (page: Page) => page.items.map((row) => row.id)

const verify = Effect.map(call("GET", "/api/audit/verify", { as: ADMIN }), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as Record<string, unknown>
})

/** A caller whose id is not its name, as the accounts plugin's users are. */
const alice: Principal = { kind: "user", id: "u-1", name: "Alice Smith", role: "admin", permissions: new Set() }
const asAlice = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.locally(self, currentPrincipalRef, Option.some(alice))

describe("the actor's name", () => {
  it.scoped("the host names the caller of the rows it writes; a handler's row names the caller only when the caller is its actor", () =>
    Effect.gen(function* () {
      expect((yield* call("POST", "/api/probe/one", { as: "alice:probe.use" })).status).toBe(200)
      expect((yield* call("POST", "/api/probe/two", { as: "bob:server.view" })).status).toBe(403)
      // The probe records its own row with the actor "probe", not the caller.
      expect((yield* call("POST", "/api/probe/audited", { as: "alice:probe.use" })).status).toBe(200)
      const page = yield* audit("")
      expect(page.items.map((row) => [row.action, row.actor, row.actorName, row.hashVersion])).toEqual([
        ["probe.poke", "probe", null, 2],
        ["access.denied", "bob", "bob", 2],
        ["http.POST /api/probe/:id", "alice", "alice", 2]
      ])
      expect(yield* verify).toEqual({ ok: true, checked: 3 })
    }).pipe(Effect.provide(auditController())))

  it.scoped("AuditTrail.record names the request's caller, in fibers forked from the request too; a given name is kept", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      const log = yield* AuditLog
      const record = (actor: string | null, more: { readonly actorName?: string | null } = {}) =>
        trail.record({ actor, ip: null, action: "test.name", target: null, result: "success", ...more })
      yield* asAlice(record("u-1"))
      yield* asAlice(record("bot:7"))
      yield* asAlice(record(null))
      yield* asAlice(record("u-1", { actorName: "Given" }))
      yield* asAlice(record("u-1", { actorName: null }))
      // Background work a request started (a rollout, an update) outlives it: forked as a daemon, it still names the caller.
      yield* Fiber.join(yield* asAlice(Effect.forkDaemon(record("u-1"))))
      // Outside a request: no caller to name.
      yield* record("u-1")
      const page = yield* log.query({})
      expect(page.items.map((row) => [row.actor, row.actorName]).reverse()).toEqual([
        ["u-1", "Alice Smith"],
        ["bot:7", null],
        [null, null],
        ["u-1", "Given"],
        ["u-1", null],
        ["u-1", "Alice Smith"],
        ["u-1", null]
      ])
      expect(yield* verify).toEqual({ ok: true, checked: 7 })
    }).pipe(Effect.provide(auditController())))

  it.scoped("?actor= finds rows by the actor's id and by its name, page by page, with the other filters", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const rows: ReadonlyArray<readonly [actor: string, actorName: string | null, action: string]> = [
        ["u-1", "alice", "test.a"],
        ["u-2", "bob", "test.a"],
        // A plugin that records a username as the actor.
        ["alice", null, "test.a"],
        ["u-1", "alice", "test.a"],
        ["u-1", null, "test.a"],
        // Another user since named alice.
        ["u-3", "alice", "test.a"],
        ["u-1", "alice", "other.b"]
      ]
      for (const [actor, actorName, action] of rows) {
        yield* log.append({ actor, actorName, ip: null, action, target: null, result: "success" })
      }
      expect(ids(yield* audit("?actor=alice"))).toEqual(["7", "6", "4", "3", "1"])
      expect(ids(yield* audit("?actor=u-1"))).toEqual(["7", "5", "4", "1"])
      expect(ids(yield* audit("?actor=bob"))).toEqual(["2"])
      expect(ids(yield* audit("?actor=u-2"))).toEqual(["2"])
      expect(ids(yield* audit("?actor=Alice"))).toEqual([])
      expect(ids(yield* audit("?actor=alice&action=test."))).toEqual(["6", "4", "3", "1"])

      // Pages of two: the newest of the id's rows and of the name's rows, merged, then the next page below the cursor.
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: Page = yield* audit(`?actor=alice&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)
        expect(page.items.length).toBeLessThanOrEqual(2)
        seen.push(...ids(page))
        cursor = page.nextCursor
      } while (cursor !== null)
      expect(seen).toEqual(["7", "6", "4", "3", "1"])
    }).pipe(Effect.provide(auditController())))

  it.scoped("signed-in users: rows carry the username, and ?actor= finds them by username and by user id", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const janeId = yield* createUser(admin, { username: "jane", password: "a-good-password", role: "moderator" })
      const jane = yield* signIn("jane", "a-good-password")
      // Refused: the front door's row names her.
      expect((yield* accountsCall("GET", "/api/audit", { headers: jane.bearer })).status).toBe(403)

      const list = (actor: string) =>
        Effect.map(accountsCall("GET", `/api/audit?actor=${encodeURIComponent(actor)}`, { headers: admin.bearer }), (reply) => {
          expect(reply.status).toBe(200)
          return (reply.body as Page).items
        })
      // The user was created inside the admin's request: the accounts plugin gave the id, the trail the name.
      const byName = yield* list("root")
      expect(byName.map((row) => [row.action, row.actor, row.actorName])).toContainEqual(["users.create", admin.userId, "root"])
      expect(byName.every((row) => row.actor === admin.userId && row.actorName === "root")).toBe(true)
      const byId = (yield* list(admin.userId)).map((row) => row.id)
      for (const row of byName) expect(byId).toContain(row.id)

      // Her sign-in is named by the accounts plugin (no caller yet for the trail to name it after).
      const denied = yield* list("jane")
      expect(denied.map((row) => [row.action, row.actor, row.actorName])).toEqual([
        ["access.denied", janeId, "jane"],
        ["auth.login", janeId, "jane"]
      ])
      expect((yield* list(janeId)).map((row) => row.id)).toContain(denied[0]!.id)

      const report = yield* accountsCall("GET", "/api/audit/verify", { headers: admin.bearer })
      expect(report.body).toMatchObject({ ok: true })
    }).pipe(Effect.provide(accountsController({ auditChain: true }))))
})

describe("hash versions", () => {
  it.scoped("the name is in the hash: an edited name, a changed hash version or an unknown one is found", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const sql = yield* SqlClient.SqlClient
      for (const name of ["Ann", "Bo", "Cy"]) {
        yield* log.append({ actor: `id-${name}`, actorName: name, ip: null, action: "test.version", target: null, result: "success" })
      }
      expect(yield* verify).toEqual({ ok: true, checked: 3 })
      const edits: ReadonlyArray<readonly [string, string]> = [
        ["actor_name = 'Mallory'", "actor_name = 'Bo'"],
        ["actor_name = NULL", "actor_name = 'Bo'"],
        // Version 1 over the same fields: as if the row came from before names.
        ["hash_version = 1", "hash_version = 2"],
        ["hash_version = 1, actor_name = NULL", "hash_version = 2, actor_name = 'Bo'"],
        ["hash_version = 3", "hash_version = 2"]
      ]
      for (const [edit, undo] of edits) {
        yield* Effect.orDie(sql`UPDATE audit_log SET ${sql.literal(edit)} WHERE seq = 2`)
        expect(yield* verify, edit).toMatchObject({ ok: false, checked: 1, firstBrokenId: "2", reason: "altered-row" })
        if (edit === "hash_version = 3") expect((yield* verify).message).toContain("hash version this controller does not know (3)")
        yield* Effect.orDie(sql`UPDATE audit_log SET ${sql.literal(undo)} WHERE seq = 2`)
        expect(yield* verify, undo).toEqual({ ok: true, checked: 3 })
      }
    }).pipe(Effect.provide(auditController())))

  it.effect("rows hashed before names still verify once migrated; rows appended after are version 2 and chain onto them", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      for (const migration of migrations.slice(0, 2)) yield* migration.up
      // The old append: version 1, the hash over the eight fields.
      let prev = AUDIT_GENESIS_HASH
      for (let seq = 1; seq <= 3; seq++) {
        const row = [prev, `2024-01-0${seq}T00:00:00.000Z`, `u-${seq}`, "10.0.0.1", "test.old", null, "success", `{"n":${seq}}`] as const
        const hash = createHash("sha256").update(JSON.stringify(row), "utf8").digest("hex")
        yield* sql`INSERT INTO audit_log (seq, at, actor, ip, action, target, result, details, prev_hash, hash)
          VALUES (${seq}, ${row[1]}, ${row[2]}, ${row[3]}, ${row[4]}, ${row[5]}, ${row[6]}, ${row[7]}, ${prev}, ${hash})`
        prev = hash
      }
      yield* migrations[2]!.up

      const log = yield* AuditLog.make
      expect(yield* log.verify).toMatchObject({ ok: true, checked: 3 })
      const appended = yield* log.append({ actor: "u-9", actorName: "nina", ip: null, action: "test.new", target: null, result: "success" })
      expect(appended).toMatchObject({ id: "4", actorName: "nina", hashVersion: AUDIT_HASH_VERSION, prevHash: prev })
      yield* log.append({ actor: "u-9", ip: null, action: "test.new", target: null, result: "success" })
      expect(yield* log.verify).toMatchObject({ ok: true, checked: 5 })
      const page = yield* log.query({})
      expect(page.items.map((row) => [row.id, row.actorName, row.hashVersion])).toEqual([
        ["5", null, 2],
        ["4", "nina", 2],
        ["3", null, 1],
        ["2", null, 1],
        ["1", null, 1]
      ])

      // A version 1 hash cannot cover a name: a name on such a row was put there afterwards.
      yield* sql`UPDATE audit_log SET actor_name = 'Mallory' WHERE seq = 2`
      expect(yield* log.verify).toMatchObject({ ok: false, checked: 1, firstBrokenId: "2", reason: "altered-row" })
    }).pipe(
      // Migrations may seal values; these seal nothing.
      Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
      Effect.provide(SqliteClient.layer({ filename: ":memory:" })),
      Effect.orDie
    ))
})
