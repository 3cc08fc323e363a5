/** `Keyset`: one list's cursor decoding, "after this position" in SQL and in memory, and its pages. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Keyset from "../../src/http/Keyset.js"
import { cursorCodec, InvalidCursor } from "../../src/http/Page.js"

interface Thing {
  readonly rank: number
  readonly name: string
}

const things: ReadonlyArray<Thing> = [3, 1, 2, 3, 1, 2, 3].map((rank, i) => ({ rank, name: `n${(i * 5) % 7}` }))

const byKey = (directions: readonly ["asc" | "desc", "asc" | "desc"]) =>
  Keyset.make({
    cursor: cursorCodec("things", Schema.Struct({ rank: Schema.Int, name: Schema.String })),
    key: [
      { column: "rank", direction: directions[0], value: (p) => p.rank },
      { column: "name", direction: directions[1], value: (p) => p.name }
    ],
    positionOf: (thing: Thing) => ({ rank: thing.rank, name: thing.name })
  })

const withThings = <A, E>(use: (sql: SqlClient.SqlClient) => Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE things (rank INTEGER NOT NULL, name TEXT NOT NULL)`
    yield* sql`INSERT INTO things ${sql.insert(things.map((t) => ({ ...t })))}`
    return yield* use(sql)
  }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })))

describe("Keyset", () => {
  it.effect("writes the SQL condition each list wrote by hand", () =>
    withThings((sql) =>
      Effect.sync(() => {
        const bans = Keyset.make({
          cursor: cursorCodec("bans", Schema.Struct({ bannedAt: Schema.String, id: Schema.String })),
          key: [
            { column: "banned_at", direction: "desc", value: (p) => p.bannedAt },
            { column: "id", direction: "desc", value: (p) => p.id }
          ],
          positionOf: (row: { bannedAt: string; id: string }) => row
        })
        const audit = Keyset.make({
          cursor: cursorCodec("audit", Schema.Int),
          key: [{ column: "seq", direction: "desc", value: (seq) => seq }],
          positionOf: (n: number) => n
        })
        expect(sql`WHERE ${bans.after(sql, { bannedAt: "T", id: "x" })}`.compile()).toEqual([
          "WHERE (banned_at < ? OR (banned_at = ? AND id < ?))",
          ["T", "T", "x"]
        ])
        expect(sql`WHERE ${audit.after(sql, 7)}`.compile()).toEqual(["WHERE seq < ?", [7]])
        expect([bans.orderBy, audit.orderBy]).toEqual(["banned_at DESC, id DESC", "seq DESC"])
      })
    ))

  it.effect.each([
    ["asc", "asc"],
    ["asc", "desc"],
    ["desc", "asc"],
    ["desc", "desc"]
  ] as const)("pages %s, %s alike in SQL and in memory: every row once, in the key's order", (directions) =>
    withThings((sql) =>
      Effect.gen(function*() {
        const paging = byKey(directions)
        const order = (d: "asc" | "desc", x: number | string, y: number | string) => (x === y ? 0 : (x < y) === (d === "asc") ? -1 : 1)
        const sorted = [...things].sort((a, b) => order(directions[0], a.rank, b.rank) || order(directions[1], a.name, b.name))
        const viaSql: Array<Thing> = []
        const inMemory: Array<Thing> = []
        for (const [seen, read] of [
          [viaSql, (after: Thing | undefined, limit: number) =>
            sql<Thing>`SELECT rank, name FROM things WHERE ${after === undefined ? sql`1 = 1` : paging.after(sql, after)}
              ORDER BY ${sql.literal(paging.orderBy)} LIMIT ${limit + 1}`.pipe(Effect.map((rows) => paging.page(rows, limit)))],
          [inMemory, (after: Thing | undefined, limit: number) => Effect.succeed(paging.pageOf(sorted, limit, after))]
        ] as const) {
          let cursor: string | undefined
          do {
            const after = yield* paging.decode(cursor)
            const page = yield* read(after, 2)
            seen.push(...page.items)
            cursor = page.nextCursor ?? undefined
          } while (cursor !== undefined)
        }
        expect(viaSql).toEqual(sorted)
        expect(inMemory).toEqual(sorted)
        expect(new Set(viaSql.map((t) => `${t.rank}/${t.name}`)).size).toBe(things.length)
      })
    ))

  it.effect("decodes no cursor as the first page and refuses one it did not issue with InvalidCursor", () =>
    Effect.gen(function*() {
      const paging = byKey(["asc", "asc"])
      expect(yield* paging.decode(undefined)).toBeUndefined()
      const refused = yield* Effect.flip(paging.decode("bm90LWEtY3Vyc29y"))
      expect(refused).toEqual(new InvalidCursor({ cursor: "bm90LWEtY3Vyc29y" }))
    }))
})
