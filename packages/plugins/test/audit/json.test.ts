/**
 * The audit list answers JSON written by the database (JsonRows,
 * `jsonColumns`), page by page through the cursors with each filter, over
 * hostile names and fields (quotes, backslashes, control characters,
 * emoji, lone surrogates and NUL made well-formed, as U+FFFD), details
 * that test the escaping, the numbers and the keys (nested objects and
 * arrays), rows with null fields, details edited in the database (valid or
 * not) and generated ones near what `append` writes.
 *
 * On either engine: each page held to the endpoint's schema and, parsed,
 * to what the decoded `query` answers (the JSON the route sent before,
 * field for field). On PostgreSQL (the controller's own `SqlClient` says
 * which), where the database writes every field but `details` and the
 * list writes `details` as the decoded list reads it: each page and each
 * `queryJson` row is also byte for byte the text the route wrote when it
 * encoded the decoded page (`JSON.stringify`). On SQLite, details embedded
 * with `json()` keep their stored key order and number spellings, so only
 * the parsed values are compared, and rows edited into text SQLite and
 * JavaScript read apart (read again the decoded way) have a test of their
 * own, pinned to SQLite.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Schema, TestClock } from "effect"
import { type AuditFilter, AuditLog, AuditPage, AuditRow } from "../../src/audit/index.js"
import { canonicalDetails } from "../../src/audit/internal/canonical.js"
import { type AuditPgJsonRow, jsonColumns } from "../../src/audit/internal/rows.js"
import { isPostgres } from "../support/engine.js"
import { ADMIN, auditController, call, HOSTILE, straddling } from "./support.js"

const strictPage = Schema.decodeUnknownSync(AuditPage, { onExcessProperty: "error" })
const encodePage = Schema.encodeSync(AuditPage)
const encodeRow = Schema.encodeSync(AuditRow)
const FIELDS = Object.keys(AuditRow.fields) as ReadonlyArray<keyof typeof AuditRow.fields>

/** What the route answered when it encoded the decoded page: the JSON text, parsed again. */
const asAnswered = (page: AuditPage): unknown => JSON.parse(JSON.stringify(encodePage(page)))

const T0 = Date.parse("2025-03-01T00:00:00.000Z")
const HOUR = 3_600_000

/** Details that test the escaping and the types: each goes in through `append`, as canonical JSON. */
const DETAILS: ReadonlyArray<Record<string, unknown> | undefined> = [
  { quote: 'say "hi"', backslash: "C:\\path\\to\\", both: '\\"\\' },
  { control: "\u0000\u0001\u0007\b\f\n\r\t\u001f\u007f", separators: "\u2028 \u2029" },
  { emoji: "🎯 😀 👨‍👩‍👧", astral: "𝔘𝔫𝔦", scripts: "Кириллица 漢字 عربى", html: "</script><b>&amp;", escape: "\\u0041 is not A" },
  { nested: { list: [1, 2.5, -3, 1e21, 1e-7, 0, -0.5, true, false, null, "x", [[]], {}], deep: { deeper: { deepest: ["🎯", { n: 1 }] } } } },
  { 'key "quoted"': 1, "\\key": 2, "🎯": 3, "": 4, "\u0001": 5, "10": 6, "2": 7 },
  { numbers: [0, -1, 1.5, 123456789012, Number.MAX_SAFE_INTEGER, -1e-7, 1e300, 0.1 + 0.2, 1e-6, 123.456] },
  // At the margins the SQL leaves to the decoded reading: near the ends of a double.
  { huge: 1.7976931348623157e308, tiny: 5e-324, negativeTiny: -5e-324 },
  // An own `__proto__` key (as JSON.parse makes one): stored, and dropped by the decoded record.
  JSON.parse('{"__proto__":{"x":1},"kept":true,"inner":{"__proto__":2}}') as Record<string, unknown>,
  {},
  undefined,
  { lone: "\ud800x", pair: "\ud83d\ude00", text: straddling },
  { big: "x".repeat(20_000) },
  { password: "hunter2", token: "t", safe: "s" },
  { date: "2025-01-01T00:00:00.000Z", id: "3e456789-0abc-4def-8123-0123456789ab", dash: "UTC-0 ", n: 42, ok: true, none: null },
  // Deeper than append keeps (16 levels): the innermost becomes "[too deep]".
  { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { k: { l: { m: { n: { o: { p: { q: 1 } } } } } } } } } } } } } } } } },
  { nul: "a\u0000b" }
]

/** Actors, hostile ones among them (a lone surrogate, control characters). */
const ACTORS: ReadonlyArray<string | null> = ["alice", 'q"\\uote', "alice", "bob 🎯", null, "\ud800x", "tab\tand\u0001"]
/** Names beside them (undefined: left out, stored null), hostile ones and one that is another row's actor among them. */
const NAMES: ReadonlyArray<string | null | undefined> = ["Alice A.", undefined, null, "bob 🎯", "alice", 'n"\\ame', "\ud800x", "\u2028"]
const ACTIONS = ["auth.login", "auth.logout", "auth.mfa.enable", "bans.add", "authz.check", "ab%.x"]
const RESULTS = ["success", "failure", "denied"] as const

/** Rows through `append`, an hour apart from T0, cycling actors, actions, results and details; nulls among them. */
const seed = (count: number) =>
  Effect.gen(function* () {
    const log = yield* AuditLog
    for (let i = 0; i < count; i++) {
      yield* TestClock.setTime(T0 + i * HOUR)
      const details = DETAILS[i % DETAILS.length]
      const actorName = NAMES[i % NAMES.length]
      yield* log.append({
        actor: ACTORS[i % ACTORS.length]!,
        ...(actorName === undefined ? {} : { actorName }),
        ip: i % 3 === 0 ? null : `10.0.0.${i}`,
        action: ACTIONS[i % ACTIONS.length]!,
        target: i % 4 === 0 ? null : i % 4 === 1 ? `thing/${i}` : HOSTILE[i % HOSTILE.length]!,
        result: RESULTS[i % RESULTS.length]!,
        ...(details === undefined ? {} : { details })
      })
    }
  })

/**
 * Every page of the list for `url` (and the same filter for `query`) as the
 * route answers it, each held to the schema and to the decoded page for the
 * same cursor (on PostgreSQL: its JSON byte for byte, over HTTP and from
 * `queryJson`); the ids in order.
 */
const walk = (url: Readonly<Record<string, string>>, filter: AuditFilter, limit: number) =>
  Effect.gen(function* () {
    const log = yield* AuditLog
    const postgres = yield* isPostgres
    const ids: Array<string> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const params = new URLSearchParams({ ...url, limit: String(limit), ...(cursor === undefined ? {} : { cursor }) })
      const reply = yield* request("GET", `/api/audit?${params.toString()}`, { as: ADMIN })
      expect(reply.status, params.toString()).toBe(200)
      expect(reply.headers["content-type"]).toContain("application/json")
      const body: unknown = JSON.parse(reply.text)
      const page = strictPage(body)
      const paged = { ...filter, limit, ...(cursor === undefined ? {} : { cursor }) }
      const decoded = yield* log.query(paged)
      const answered = asAnswered(decoded)
      expect(body, params.toString()).toEqual(answered)
      // Field for field, against the decoded rows as the route sent them (a blob's bytes only exist as JSON there).
      const expected = strictPage(answered).items
      expect(page.items.map((row) => row.id)).toEqual(expected.map((row) => row.id))
      for (const [i, row] of page.items.entries()) {
        for (const field of FIELDS) expect(encodeRow(row)[field], `${row.id}.${field}`).toEqual(encodeRow(expected[i]!)[field])
      }
      expect(page.nextCursor).toBe(decoded.nextCursor)
      if (postgres) {
        expect(reply.text, params.toString()).toBe(JSON.stringify(encodePage(decoded)))
        const json = yield* log.queryJson(paged)
        expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((row) => JSON.stringify(encodeRow(row))))
        expect(json.nextCursor).toBe(decoded.nextCursor)
      }
      ids.push(...page.items.map((row) => row.id))
      cursor = page.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 200)
    expect(cursor).toBeUndefined()
    return { ids, pages }
  })

const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => String(from - i))

/** PostgreSQL: the list's SQL over every row, oldest first: the JSON before and after `details`, and `details` as stored. */
const pgRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<AuditPgJsonRow>`SELECT ${sql.literal(jsonColumns(sql))} FROM audit_log ORDER BY seq`
})

/** A deterministic generator (so a failure repeats). */
const generator = (seed: number) => {
  let state = seed
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff
    return state / 0x7fffffff
  }
  return { next, pick: <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]! }
}

describe("audit JSON from the database", () => {
  it.scoped("list pages match the decoded query, field for field, cursor for cursor, with each filter", () =>
    Effect.gen(function* () {
      yield* seed(84)
      // Rows from the host too: details with a request id (a UUID), nulls for anonymous callers.
      yield* TestClock.setTime(T0 + 100 * HOUR)
      expect((yield* call("POST", "/api/probe/one", { as: "carol:probe.use", ip: "10.9.9.9" })).status).toBe(200)
      expect((yield* call("POST", "/api/probe/busy", { as: "carol:probe.use" })).status).toBe(409)
      expect((yield* call("POST", "/api/probe/two", { as: "dave:server.view" })).status).toBe(403)

      const all = yield* walk({}, {}, 7)
      expect(all.ids).toEqual(range(87, 1))
      expect(all.pages).toBe(13)
      expect((yield* walk({}, {}, 500)).pages).toBe(1)
      expect((yield* walk({}, {}, 87)).pages).toBe(1)

      const day = (n: number) => new Date(T0 + n * 24 * HOUR)
      const cases: ReadonlyArray<readonly [Record<string, string>, AuditFilter]> = [
        [{ actor: "alice" }, { actor: "alice" }],
        [{ actor: 'q"\\uote' }, { actor: 'q"\\uote' }],
        // A lone surrogate, as stored (U+FFFD).
        [{ actor: "\ufffdx" }, { actor: "\ufffdx" }],
        [{ actor: "carol" }, { actor: "carol" }],
        // Names: one no actor has, one some actors have too.
        [{ actor: "Alice A." }, { actor: "Alice A." }],
        [{ actor: 'n"\\ame' }, { actor: 'n"\\ame' }],
        [{ actor: "bob 🎯" }, { actor: "bob 🎯" }],
        [{ action: "auth.login" }, { action: "auth.login" }],
        [{ action: "auth." }, { action: "auth." }],
        [{ action: "auth.*" }, { action: "auth.*" }],
        [{ action: "ab%." }, { action: "ab%." }],
        [{ action: "http.POST /api/probe/:id" }, { action: "http.POST /api/probe/:id" }],
        [{ from: "2025-03-02" }, { from: day(1) }],
        [{ to: "2025-03-03T06:00:00" }, { to: new Date(T0 + 54 * HOUR) }],
        [{ from: "2025-03-02", to: "2025-03-03" }, { from: day(1), to: day(2) }],
        [{ result: "success" }, { result: "success" }],
        [{ result: "failure" }, { result: "failure" }],
        [{ result: "denied" }, { result: "denied" }],
        [{ actor: "alice", action: "auth.", result: "success", from: "2025-03-01T12:00:00" }, {
          actor: "alice",
          action: "auth.",
          result: "success",
          from: new Date(T0 + 12 * HOUR)
        }]
      ]
      for (const [url, filter] of cases) {
        const { ids } = yield* walk(url, filter, 4)
        expect(ids.length, JSON.stringify(url)).toBeGreaterThan(0)
      }
      expect((yield* walk({ action: "nothing.matches" }, { action: "nothing.matches" }, 4)).ids).toEqual([])

      // PostgreSQL writes every field but `details`, in the schema's order.
      if (yield* isPostgres) {
        for (const row of yield* pgRows) {
          expect(row.head).toMatch(/^\{"id":"\d+","at":"[^"]+","actor":.*,"result":"[a-z]+"\}$/s)
          expect(row.tail).toMatch(/^\{"hashVersion":2,"prevHash":"[0-9a-f]{64}","hash":"[0-9a-f]{64}"\}$/)
        }
      }
    }).pipe(Effect.provide(auditController())))

  it.scoped("details are embedded JSON, numbers are numbers, absent fields null, text escaped", () =>
    Effect.gen(function* () {
      yield* seed(DETAILS.length)
      const reply = yield* request("GET", "/api/audit?limit=500", { as: ADMIN })
      expect(reply.status).toBe(200)
      const { items } = strictPage(JSON.parse(reply.text))
      const byId = (id: number) => items.find((row) => row.id === String(id))!
      // Oldest is id 1, with DETAILS[0].
      expect(byId(1).details).toEqual(DETAILS[0])
      expect(byId(1)).toMatchObject({ actor: "alice", ip: null, target: null, result: "success" })
      // NUL is stored as U+FFFD (PostgreSQL text cannot hold it), the other control characters as they are.
      expect(byId(2).details).toEqual({ ...DETAILS[1], control: "\ufffd\u0001\u0007\b\f\n\r\t\u001f\u007f" })
      expect(byId(3).details).toEqual(DETAILS[2])
      expect(byId(4).details).toEqual(DETAILS[3])
      expect(byId(5).details).toEqual(DETAILS[4])
      expect(byId(6).details).toEqual({ numbers: [0, -1, 1.5, 123456789012, Number.MAX_SAFE_INTEGER, -1e-7, 1e300, 0.1 + 0.2, 1e-6, 123.456] })
      expect(byId(7).details).toEqual({ huge: 1.7976931348623157e308, tiny: 5e-324, negativeTiny: -5e-324 })
      expect(byId(8).details).toEqual({ kept: true, inner: JSON.parse('{"__proto__":2}') })
      expect(Object.keys(byId(8).details!)).toEqual(["inner", "kept"])
      expect(byId(9).details).toEqual({})
      expect(byId(10).details).toBeNull()
      expect(byId(11).details).toEqual({ lone: "\ufffdx", pair: "\ud83d\ude00", text: straddling })
      expect(byId(12).details).toEqual({ truncated: true, length: 20_010 })
      expect(byId(13).details).toEqual({ password: "[redacted]", safe: "s", token: "[redacted]" })
      // Embedded as JSON, not as a string holding JSON; the id a string; nulls written as null.
      const { backslash, both, quote } = DETAILS[0]!
      expect(reply.text).toContain(`"details":${JSON.stringify({ backslash, both, quote })}`)
      expect(reply.text).toContain(
        '{"id":"10","at":"2025-03-01T09:00:00.000Z","actor":"alice","actorName":null,"ip":null,"action":"bans.add","target":"thing/9",' +
          '"result":"success","details":null,"hashVersion":2,"prevHash":'
      )
      expect(byId(4)).toMatchObject({ actor: "bob 🎯", actorName: "bob 🎯", hashVersion: 2 })
      expect(byId(7)).toMatchObject({ actorName: "\ufffdx" })
      expect(reply.text).toMatch(new RegExp(`^\\{"items":\\[\\{"id":"${DETAILS.length}",`))
      expect(reply.text).toMatch(/\],"nextCursor":null\}$/)
    }).pipe(Effect.provide(auditController())))

  // SQLite's own reading of edited rows (blobs, WTF-8 bytes, raw NUL, `char(0)`): PostgreSQL text cannot hold
  // what these edits write, and its list reads details its own way (the next test edits what both can hold, on
  // the pass's engine). So this one runs on SQLite on both passes (`databaseUrl: undefined` wins over the pass's database).
  it.scoped("SQLite: rows edited in the database answer as the decoded list reads them, whichever side writes them", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const deep = (n: number) => "[".repeat(n) + "]".repeat(n)
      const EDITED: ReadonlyArray<string> = [
        // Numbers JavaScript writes otherwise: beyond a double (null), negative zeros (0).
        '{"a":1e400}', '{"a":-1e400}', `{"a":1${"0".repeat(400)}}`, '{"a":-0}', '{"a":[1,-0]}', '{"a":-0 }', '{"a":-0.0}',
        '{"a":-0e5}', '{"a":-1e-400}', '{"a":1e-400}', '{"a":0,"a":-0}', '{"a":-4e-324}',
        // Valid for both and kept: duplicates (the last wins), whitespace, escapes, long numbers, a nested __proto__.
        '{"a":1,"a":2}', ' { "a" : [ 1 , 2 ] }\n', '{"u":"\\ud800","s":"\\/","e":"\\u00e9"}', '{"n":12345678901234567890,"f":1.50,"e":1E+2}',
        '{"n":{"__proto__":1}}', '{"\\u005f_proto__":1,"c":3}', '{"t":" -0.5","d":"2025-01-01","x":"3e456"}', '{"a":-0.5,"b":-10.5e1}',
        `{"d":${deep(1100)}}`, '{}',
        // Unreadable: not JSON, or not an object.
        '[1,2]', '"text"', '42', "null", "true", "not json", "{a:1}", '{"a":1,}', '{"a":"\u0007"}', "\ufeff{}", "{\"a\":1}\u0000junk",
        "x\u0000y", `{"d":${deep(1100)}`, "x".repeat(3000), ""
      ]
      const log = yield* AuditLog
      for (let i = 0; i < EDITED.length + 3; i++) {
        yield* log.append({ actor: `user${i}`, ip: null, action: "test.edit", target: null, result: "success", details: { n: i } })
      }
      for (const [i, text] of EDITED.entries()) yield* sql`UPDATE audit_log SET details = ${text} WHERE seq = ${i + 1}`
      const n = EDITED.length
      // A blob; text stored as WTF-8 (as rows from before well-formed text), in a field and in details; NUL in a field.
      yield* sql`UPDATE audit_log SET details = X'7B7D' WHERE seq = ${n + 1}`
      yield* sql`UPDATE audit_log SET actor = CAST(X'EDA08078' AS TEXT), details = CAST(X'7B2261223A22EDA08078227D' AS TEXT) WHERE seq = ${n + 2}`
      yield* sql`UPDATE audit_log SET actor = 'a' || char(0) || 'b', action = 123, details = CAST(X'EDA080' AS TEXT) WHERE seq = ${n + 3}`
      // The version edited into what is not one (text, a fraction, beyond a double, a blob), the name into WTF-8 and NUL.
      const VERSIONS = ["'two'", "2.5", "9007199254740993", "-1", "X'02'"]
      for (const [i, version] of VERSIONS.entries()) yield* sql`UPDATE audit_log SET hash_version = ${sql.literal(version)} WHERE seq = ${i + 1}`
      yield* sql`UPDATE audit_log SET actor_name = CAST(X'EDA08078' AS TEXT) WHERE seq = ${n + 2}`
      yield* sql`UPDATE audit_log SET actor_name = 'a' || char(0) || 'b' WHERE seq = ${n + 3}`

      const all = yield* walk({}, {}, 5)
      expect(all.ids).toEqual(range(n + 3, 1))
      expect(yield* walk({ actor: "user3" }, { actor: "user3" }, 5)).toEqual({ ids: ["4"], pages: 1 })

      // Spot checks that the comparison above is not vacuous.
      const { items } = strictPage(JSON.parse((yield* request("GET", "/api/audit?limit=500", { as: ADMIN })).text))
      const details = (text: string) => items.find((row) => row.id === String(EDITED.indexOf(text) + 1))!.details
      expect(details('{"a":1e400}')).toEqual({ a: null })
      expect(Object.is(details('{"a":-0}')!.a, 0)).toBe(true)
      expect(Object.is(details('{"a":-1e-400}')!.a, 0)).toBe(true)
      expect(Object.is(details('{"a":0,"a":-0}')!.a, 0)).toBe(true)
      expect(details('{"a":1,"a":2}')).toEqual({ a: 2 })
      expect(details('{"\\u005f_proto__":1,"c":3}')).toEqual({ c: 3 })
      expect(details('[1,2]')).toEqual({ unreadable: "[1,2]" })
      expect(details("{\"a\":1}\u0000junk")).toEqual({ unreadable: "{\"a\":1}\u0000junk" })
      expect(details(`{"d":${deep(1100)}}`)).toEqual(JSON.parse(`{"d":${deep(1100)}}`))
      expect(details("")).toEqual({ unreadable: "" })
      expect(items.find((row) => row.id === String(n + 2))).toMatchObject({ actor: "\ufffd\ufffd\ufffdx", details: { a: "\ufffd\ufffd\ufffdx" } })
      expect(items.find((row) => row.id === String(n + 3))).toMatchObject({ actor: "a\u0000b", actorName: "a\u0000b", action: "123" })
      expect(items.find((row) => row.id === String(n + 2))).toMatchObject({ actorName: "\ufffd\ufffd\ufffdx" })
      expect(["1", "2", "4", "5"].map((id) => items.find((row) => row.id === id)!.hashVersion)).toEqual([0, 2.5, -1, 0])
    }).pipe(Effect.provide(auditController({ databaseUrl: undefined }))))

  // What both engines' text can hold, edited on the pass's engine (the test above pins SQLite for what only it holds).
  it.scoped("details and fields edited in the database, valid or not, answer as the decoded list reads them", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const deep = (n: number) => "[".repeat(n) + "]".repeat(n)
      const EDITED: ReadonlyArray<string> = [
        '{"a":1e400}', '{"a":-1e400}', `{"a":1${"0".repeat(400)}}`, '{"a":-0}', '{"a":[1,-0]}', '{"a":-0 }', '{"a":-0.0}',
        '{"a":-0e5}', '{"a":-1e-400}', '{"a":1e-400}', '{"a":0,"a":-0}', '{"a":-4e-324}',
        '{"a":1,"a":2}', '{"a":{"b":1,"b":2}}', '{"a":{"b":1},"c":{"b":2}}', ' { "a" : [ 1 , 2 ] }\n', '{"u":"\\ud800","s":"\\/","e":"\\u00e9"}',
        '{"n":12345678901234567890,"f":1.50,"e":1E+2}', '{"n":{"__proto__":1}}', '{"\\u005f_proto__":1,"c":3}', '{"__proto__":1,"c":3}',
        '{"t":" -0.5","d":"2025-01-01","x":"3e456"}', '{"a":-0.5,"b":-10.5e1}', '{"a":"\\u0000"}', '{"a":"\\u001F"}', '{"a":"\\u001f"}',
        '{"a":1e21,"b":1e+21,"c":1e-7,"d":1.5e-7,"e":0.000001,"f":0.0000001}', '{"10":1,"2":2}', '{"a":{"10":1,"2":2}}',
        `{"d":${deep(1100)}}`, `{"d":${deep(15)}}`, `{"d":${deep(16)}}`, `{"d":${deep(17)}}`, '{}', '{"":""}',
        '[1,2]', '"text"', '42', "null", "true", "not json", "{a:1}", '{"a":1,}', '{"a":"\u0007"}', "\ufeff{}", '{"a":1}junk',
        '{"a":1}{"b":2}', '{"a":"}', '{"a":"b":"c"}', '{"a":[1:2]}', '{"a":{"b":1]}', '{"a" :1}', `{"d":${deep(1100)}`, "x".repeat(3000), "",
        "{\"a\":\"" + "y".repeat(17_000) + "\"}"
      ]
      const log = yield* AuditLog
      for (let i = 0; i < EDITED.length + 3; i++) {
        yield* log.append({ actor: `user${i}`, ip: null, action: "test.edit", target: null, result: "success", details: { n: i } })
      }
      for (const [i, text] of EDITED.entries()) yield* sql`UPDATE audit_log SET details = ${text} WHERE seq = ${i + 1}`
      // Versions edited (any integer, read as it is), and the fields into odd text.
      const n = EDITED.length
      for (const [i, version] of [-1, 0, 2147483647].entries()) yield* sql`UPDATE audit_log SET hash_version = ${version} WHERE seq = ${n + 1 + i}`
      yield* sql`UPDATE audit_log SET actor = ${"\u0001\u001f\"\\"}, actor_name = ${"🎯\u2028"}, action = ${"123"} WHERE seq = ${n + 1}`

      const all = yield* walk({}, {}, 9)
      expect(all.ids).toEqual(range(n + 3, 1))
      expect(yield* walk({ actor: "user3" }, { actor: "user3" }, 5)).toEqual({ ids: ["4"], pages: 1 })

      // Spot checks that the comparison above is not vacuous.
      const { items } = strictPage(JSON.parse((yield* request("GET", "/api/audit?limit=500", { as: ADMIN })).text))
      const detailsOf = (text: string) => items.find((row) => row.id === String(EDITED.indexOf(text) + 1))!.details
      expect(detailsOf('{"a":1e400}')).toEqual({ a: null })
      expect(detailsOf('{"a":1,"a":2}')).toEqual({ a: 2 })
      expect(detailsOf('{"__proto__":1,"c":3}')).toEqual({ c: 3 })
      expect(detailsOf('[1,2]')).toEqual({ unreadable: "[1,2]" })
      expect(detailsOf('{"a" :1}')).toEqual({ a: 1 })
      expect(items.find((row) => row.id === String(n + 1))).toMatchObject({ actor: "\u0001\u001f\"\\", actorName: "🎯\u2028", hashVersion: -1 })
      expect(items.find((row) => row.id === String(n + 3))).toMatchObject({ hashVersion: 2147483647 })
    }).pipe(Effect.provide(auditController())), 120_000)

  it.scoped("generated details, what append writes and edits of it, answer as the decoded list reads them", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const log = yield* AuditLog
      const random = generator(20_250_301)
      const numbers = [0, -0, 1, -1, 7, 1.5, -2.25, 0.1, 0.1 + 0.2, 1e21, 1e-7, 1.5e-7, 1e-6, 123456789012345, 1234567890123456, 9007199254740991,
        1e300, 5e-324, 1234567.1234567, 2.5e22, -3.75e-9, 100, 1e20, Math.PI]
      const strings = ["", "a", 'q"uote', "back\\slash", "\u0001\u0007\b\f\n\r\t\u001f\u007f", "🎯", "\u2028", "10", "é", "a\u0000b", "/", '{"a":1}', ',"x":', "a,", "{"]
      const keys = ["a", "b", "c", "10", "2", 'k"', "__proto__", "z,", "{", "", "é", "\u0001"]
      const value = (depth: number): unknown => {
        const roll = random.next()
        if (depth > 3 || roll < 0.4) return random.pick<() => unknown>([() => random.pick(numbers), () => random.pick(strings), () => random.pick([true, false, null])])()
        if (roll < 0.6) return Array.from({ length: Math.floor(random.next() * 4) }, () => value(depth + 1))
        return object(depth + 1)
      }
      const object = (depth: number): Record<string, unknown> => {
        const made: Record<string, unknown> = {}
        for (let i = Math.floor(random.next() * 4); i > 0; i--) made[random.pick(keys)] = value(depth)
        return made
      }
      const mutate = (text: string): string => {
        const at = Math.floor(random.next() * text.length)
        const roll = random.next()
        if (roll < 0.3) return text.slice(0, at) + text.slice(at + 1)
        if (roll < 0.6) return text.slice(0, at) + random.pick([" ", ",", ":", '"', "{", "}", "[", "]", "0", "-", "e", "\\", ".", "\\u0000", "\\/"]) + text.slice(at)
        return text.slice(0, at) + random.pick(['"a":1,', ',"a":2', "-0", "1.50", "E5", '"\\u00e9"']) + text.slice(at)
      }
      const texts: Array<string> = []
      for (let i = 0; i < 150; i++) {
        const made = object(0)
        // As `append` stores it (keys sorted, secrets redacted), and as JSON.stringify writes it.
        texts.push(canonicalDetails(made)!, JSON.stringify(made))
        texts.push(mutate(texts[texts.length - 1]!))
      }
      for (let i = 0; i < texts.length; i++) {
        yield* log.append({ actor: `gen${i}`, ip: null, action: "test.generated", target: null, result: "success", details: { n: i } })
      }
      // NUL cannot be stored in PostgreSQL text; `\u0000` escaped can.
      for (const [i, text] of texts.entries()) yield* sql`UPDATE audit_log SET details = ${text.replaceAll("\u0000", "")} WHERE seq = ${i + 1}`
      const all = yield* walk({}, {}, 100)
      expect(all.ids).toEqual(range(texts.length, 1))
    }).pipe(Effect.provide(auditController())), 120_000)

  it.scoped("an empty list, a foreign cursor and from after to", () =>
    Effect.gen(function* () {
      const empty = yield* request("GET", "/api/audit", { as: ADMIN })
      expect(empty.status).toBe(200)
      expect(empty.text).toBe('{"items":[],"nextCursor":null}')
      const foreign = yield* call("GET", "/api/audit?cursor=YmFuczp7fQ", { as: ADMIN })
      expect(foreign.status).toBe(400)
      expect(JSON.stringify(foreign.body)).toContain("cursor")
      const backwards = yield* call("GET", "/api/audit?from=2025-02-01&to=2025-01-01", { as: ADMIN })
      expect(backwards.status).toBe(400)
      expect(JSON.stringify(backwards.body)).toContain("from")
    }).pipe(Effect.provide(auditController())))
})
