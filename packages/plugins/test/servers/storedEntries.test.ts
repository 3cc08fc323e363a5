/**
 * Entries that evolve: rows written by earlier versions (fewer fields) read
 * back with today's defaults after a restart, and are written back whole; a
 * row that cannot be read at all is listed as `invalid` with the reason,
 * and can be deleted.
 */
import { describe, expect, it } from "@effect/vitest"
import { ServerEntry, serverEntryDefaults } from "@garrison/runtime"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { fakeFleet, startKernel, tempDir } from "@garrison/testkit"
import { ServerEntries } from "../../src/servers/index.js"
import { ADMIN, call, serversController } from "./support.js"

const insertRow = (id: string, name: string, json: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`INSERT INTO servers (id, name, entry, created_at, updated_at)
      VALUES (${id}, ${name}, ${json}, ${"2026-01-01T00:00:00.000Z"}, ${"2026-01-01T00:00:00.000Z"})`
  )

const kernel = (dataDir: string) => startKernel([fakeFleet().plugin], dataDir)

/** Rows as earlier versions wrote them: the first release had no serverMods, extraArgs or stop policy. */
const OLDER_SHAPES: ReadonlyArray<{ readonly id: string; readonly json: Record<string, unknown> }> = [
  {
    id: "v0-minimal",
    json: { id: "v0-minimal", name: "Oldest", installDir: "/srv/oldest" }
  },
  {
    id: "v1-first-release",
    json: {
      id: "v1-first-release",
      name: "First release",
      installDir: "/srv/first",
      executable: "DayZServer",
      configFile: "serverDZ.cfg",
      gamePort: 2402,
      profilesDir: "profiles",
      battleyeDir: "battleye",
      mods: ["@CF"],
      watchdog: false
    }
  }
]

describe("stored entries of earlier versions", () => {
  it.effect("read back with today's defaults for the fields they lack, and are written back whole", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-stored-entries-")
      const first = yield* kernel(dataDir)
      yield* Effect.forEach(OLDER_SHAPES, ({ id, json }) => insertRow(id, String(json["name"]), JSON.stringify(json))).pipe(
        Effect.provide(first.context)
      )
      yield* first.stop

      const second = yield* kernel(dataDir)
      const listed = yield* Effect.flatMap(ServerEntries, (entries) => entries.list).pipe(Effect.provide(second.context))
      expect(listed.map((entry) => entry.id)).toEqual(["v0-minimal", "v1-first-release"])
      expect(listed[0]).toEqual(new ServerEntry({ ...serverEntryDefaults, id: "v0-minimal", name: "Oldest", installDir: "/srv/oldest" }))
      expect(listed[1]).toEqual(
        new ServerEntry({
          ...serverEntryDefaults,
          id: "v1-first-release",
          name: "First release",
          installDir: "/srv/first",
          gamePort: 2402,
          mods: ["@CF"],
          watchdog: false
        })
      )

      // The next write stores the whole entry, in today's shape.
      yield* Effect.flatMap(ServerEntries, (entries) => entries.update(new ServerEntry({ ...listed[0]!, name: "Oldest, renamed" }))).pipe(
        Effect.provide(second.context)
      )
      const [row] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly entry: string }>`SELECT entry FROM servers WHERE id = 'v0-minimal'`).pipe(
        Effect.provide(second.context)
      )
      expect(JSON.parse(row!.entry)).toMatchObject({ name: "Oldest, renamed", serverMods: [], extraArgs: [], stop: serverEntryDefaults.stop })
      yield* second.stop
    }))

  it.effect("a row that cannot be read is listed as invalid with the reason, starts nothing, and can be deleted", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-stored-entries-")
      const first = yield* kernel(dataDir)
      yield* insertRow("good", "Good", JSON.stringify({ id: "good", name: "Good", installDir: "/srv/good" })).pipe(Effect.provide(first.context))
      // As a newer version or a damaged disk might leave it: a port that is not a number.
      yield* insertRow("broken", "Broken", JSON.stringify({ id: "broken", name: "Broken", installDir: "/srv/broken", gamePort: "2302x" })).pipe(
        Effect.provide(first.context)
      )
      yield* first.stop

      yield* Effect.gen(function* () {
        const listed = yield* call("GET", "/api/servers", { as: ADMIN })
        expect(listed.status).toBe(200)
        expect(listed.body["total"]).toBe(2)
        const items = listed.body["items"] as ReadonlyArray<Record<string, unknown>>
        expect(items.map((item) => [item["id"], item["status"]])).toEqual([["good", "stopped"], ["broken", "invalid"]])
        expect(items[1]).toMatchObject({ name: "Broken", gamePort: 0, pid: null })
        expect(items[1]!["lastError"]).toMatch(/^cannot be read: .*gamePort/s)
        // Nothing can run it; deleting it is how it leaves the list.
        const start = yield* call("POST", "/api/servers/broken/start", { as: ADMIN })
        expect(start.status).toBe(409)
        expect(start.body).toMatchObject({ error: "conflict", details: { reason: "invalid-entry" } })
        expect(start.body["message"]).toMatch(/^server "Broken" \(broken\) cannot be read/)
        const deleted = yield* call("DELETE", "/api/servers/broken", { as: ADMIN })
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
        const after = yield* call("GET", "/api/servers", { as: ADMIN })
        expect((after.body["items"] as ReadonlyArray<Record<string, unknown>>).map((item) => item["id"])).toEqual(["good"])
      }).pipe(Effect.provide(serversController([], undefined, dataDir)))
    }))
})
