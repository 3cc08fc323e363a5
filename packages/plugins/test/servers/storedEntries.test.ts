/**
 * Entries that evolve: rows written by earlier versions (fewer fields) read
 * back with today's defaults after a restart, and are written back whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { ServerEntry, serverEntryDefaults } from "@garrison/runtime"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { makeServersPlugin, ServerEntries } from "../../src/servers/index.js"
import { startKernel } from "../support/controller.js"
import { makeFakeLauncher } from "../support/fakeServers.js"
import { tempDir } from "../support/tempDir.js"

const kernel = (dataDir: string) => startKernel([makeServersPlugin({ launcher: makeFakeLauncher().layer })], dataDir)

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
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.forEach(
          OLDER_SHAPES,
          ({ id, json }) =>
            sql`INSERT INTO servers (id, name, entry, created_at, updated_at)
              VALUES (${id}, ${String(json["name"])}, ${JSON.stringify(json)}, ${"2026-01-01T00:00:00.000Z"}, ${"2026-01-01T00:00:00.000Z"})`
        )
      ).pipe(Effect.provide(first.context))
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
})
