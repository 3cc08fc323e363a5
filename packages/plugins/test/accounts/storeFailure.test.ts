/**
 * A database failure under the accounts plugin is a fault, not an answer:
 * a route (and the session authenticator, which every request passes) answers
 * 500 `internal` quoting the request id, and the database's message reaches
 * the log only.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import type { LogLine } from "@garrison/testkit"
import { Effect } from "effect"
import { accountsController, call, signInAdmin, type Reply } from "./support.js"

const expectInternal = (reply: Reply, databaseSays: string) => {
  expect(reply.status).toBe(500)
  const requestId = reply.headers["x-request-id"]
  expect(requestId).toMatch(/\S/)
  expect(reply.body).toEqual({ error: "internal", message: `internal error; quote request id ${requestId}` })
  expect(reply.text).not.toContain(databaseSays)
}

describe("store failures", () => {
  it.scoped("are 500 internal with the request id, the database's message in the log only", () => {
    const log: Array<LogLine> = []
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      // Not used yet, so the authenticator reads its session from the database below.
      const fresh = yield* signInAdmin
      const sql = yield* SqlClient.SqlClient

      // A users route: the insert fails, the reads (and the authenticator's) still work.
      // A trigger that refuses, on the run's engine (GARRISON_TEST_DATABASE): PostgreSQL's calls a function.
      yield* Effect.orDie(
        sql.onDialectOrElse({
          pg: () =>
            Effect.zipRight(
              sql`CREATE FUNCTION refuse_new_users() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`,
              sql`CREATE TRIGGER refuse_new_users BEFORE INSERT ON accounts_users FOR EACH ROW EXECUTE FUNCTION refuse_new_users()`
            ),
          orElse: () => sql`CREATE TRIGGER refuse_new_users BEFORE INSERT ON accounts_users
        BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`
        })
      )
      const created = yield* call("POST", "/api/users", {
        json: { username: "nora", password: "a long password here", role: "moderator" },
        headers: admin.bearer
      })
      expectInternal(created, "disk on fire")
      expect(log.some((line) => line.message.includes("create a user") && line.message.includes("disk on fire"))).toBe(true)

      // The authenticator: reading the session fails, and it is the same 500, not a 401 or the database's words.
      yield* Effect.orDie(sql`DROP TABLE accounts_sessions`)
      // What the engine says of a missing table.
      const noSuchTable = sql.onDialectOrElse({ pg: () => `relation "accounts_sessions" does not exist`, orElse: () => "no such table" })
      expectInternal(yield* call("GET", "/api/me", { headers: fresh.bearer }), noSuchTable)
      expect(log.some((line) => line.message.includes("read a session") && line.message.includes(noSuchTable))).toBe(true)
    }).pipe(Effect.provide(accountsController({ log })))
  })
})
