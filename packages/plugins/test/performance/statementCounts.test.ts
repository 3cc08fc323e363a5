/**
 * What a request costs the database, counted at the driver (statements,
 * and commits: each one fsync with `synchronous = FULL`), with the real
 * audit chain and real sessions: a request that starts costing more fails
 * here, naming its SQL. The ceilings are today's figures; issue 29 sets
 * the goals (ban add ≤ 5, paged list ≤ 2, login ≤ 6).
 *
 * SQLite only, on every pass: the counts are better-sqlite3's statements
 * (the testkit's `countingStatements` counts at that driver), so the
 * controller is pinned to SQLite (`DATABASE_URL` empty in its settings)
 * even with `GARRISON_TEST_DATABASE=postgres`, where it would count nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Database } from "@garrison/runtime"
import { countingStatements, StubFleet } from "@garrison/testkit"
import { Effect } from "effect"
import { makeBansPlugin } from "../../src/bans/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { accountsController, ADMIN, call, login, signInAdmin } from "../accounts/support.js"

// `DATABASE_URL: ""`: SQLite whatever the pass (a test that names the database wins over the pass's, see the testkit).
const controller = () =>
  accountsController({ auditChain: true, env: { DATABASE_URL: "" }, plugins: [StubFleet.of({}).plugin(), PlayersPlugin, makeBansPlugin()] })

const STEAM = (n: number) => `7656119800000${String(n).padStart(4, "0")}`

describe("statements per request", () => {
  it.scopedLive("SQLite: login, ban add, paged ban list", () =>
    Effect.gen(function* () {
      expect((yield* Database).engine).toBe("sqlite")
      const admin = yield* signInAdmin
      // Counts take in what runs meanwhile: each request once before, so the start-up's own work is over.
      yield* login(ADMIN.username, ADMIN.password)
      const signedIn = yield* countingStatements(login(ADMIN.username, ADMIN.password))
      expect(signedIn.value.status).toBe(200)
      // The first write of a kind warms caches: count the second.
      yield* call("POST", "/api/bans", { json: { platformId: STEAM(1), playerName: "First", reason: "first" }, headers: admin.bearer })
      const added = yield* countingStatements(call("POST", "/api/bans", { json: { platformId: STEAM(2), playerName: "Aimer", reason: "aimbot" }, headers: admin.bearer }))
      expect(added.value.status).toBe(201)
      yield* call("GET", "/api/bans?limit=50", { headers: admin.bearer })
      const listed = yield* countingStatements(call("GET", "/api/bans?limit=50", { headers: admin.bearer }))
      expect(listed.value.status).toBe(200)
      // Ceilings: issue 29's goals (login ≤ 6, ban add ≤ 5, paged list ≤ 2 statements); a failure lists the SQL. Login's
      // commits: the attempt counted before the password is checked, the session, its audit row, the pair cleared.
      const ceilings = { login: [5, 4], "ban add": [5, 1], "paged list": [1, 0] } as const
      for (const [name, counted] of [["login", signedIn], ["ban add", added], ["paged list", listed]] as const) {
        const [statements, commits] = ceilings[name]
        const shown = `${name}: ${counted.tally.statements} statements, ${counted.tally.commits} commits\n  ${counted.tally.sql.join("\n  ")}`
        expect(counted.tally.statements, shown).toBeLessThanOrEqual(statements)
        expect(counted.tally.commits, shown).toBeLessThanOrEqual(commits)
      }
      // One acknowledged write, one commit: the ban and its audit row in one transaction, and no second row from the front door.
      expect(added.tally.commits).toBe(1)
      expect(added.tally.sql.at(-1)).toBe("COMMIT")
      expect(added.tally.sql.filter((sql) => sql.startsWith("INSERT INTO audit_log"))).toHaveLength(1)
    }).pipe(Effect.provide(controller()))
  )
})
