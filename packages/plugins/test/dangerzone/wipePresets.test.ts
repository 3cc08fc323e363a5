/**
 * The dangerzone's wipe presets over the real servers plugin and real
 * files: the persistence folder from the server's configuration (mission
 * and instance), what each preset would delete with its size, nothing
 * deleted by looking, and the look audited.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BackupsPlugin } from "../../src/backups/index.js"
import { DangerzonePlugin } from "../../src/dangerzone/index.js"

const ADMIN = "root:admin"
const STORAGE = "mpmissions/dayzOffline.enoch/storage_3"

interface Presets {
  readonly storage: string
  readonly presets: ReadonlyArray<{ readonly id: string; readonly sizeBytes: number; readonly available: boolean; readonly paths: ReadonlyArray<{ readonly path: string; readonly exists: boolean; readonly sizeBytes: number }> }>
}

describe("dangerzone: wipe presets", () => {
  it.scoped("say what each wipe would delete in the configured mission's storage, with sizes, and delete nothing", () =>
    Effect.gen(function* () {
      const audit = auditRecorder()
      const layer = testController([audit.plugin, fakeFleet().plugin, BackupsPlugin, DangerzonePlugin], { dataPrefix: "garrison-dangerzone-", logLevel: LogLevel.Error })
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "W";\ninstanceId = 3;\nclass Missions { class DayZ { template = "dayzOffline.enoch"; }; };\n')
        Fs.mkdirSync(NodePath.join(dir, STORAGE, "data"), { recursive: true })
        Fs.writeFileSync(NodePath.join(dir, STORAGE, "players.db"), Buffer.alloc(4096))
        Fs.writeFileSync(NodePath.join(dir, STORAGE, "data", "vehicles.bin"), Buffer.alloc(1000))
        Fs.writeFileSync(NodePath.join(dir, STORAGE, "data", "building.bin"), Buffer.alloc(500))
        const id = String(((yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "W", installDir: dir } })).body as { id: string }).id)

        const answer = (yield* call("GET", `/api/servers/${id}/dangerzone/wipe-presets`, { as: ADMIN })).body as Presets
        expect(answer.storage).toBe(STORAGE)
        const byId = Object.fromEntries(answer.presets.map((p) => [p.id, p]))
        expect(byId["players"]).toMatchObject({ sizeBytes: 4096, available: true, paths: [{ path: `${STORAGE}/players.db`, exists: true, sizeBytes: 4096 }, { exists: false }, { exists: false }, { exists: false }] })
        expect(byId["economy"]).toMatchObject({ sizeBytes: 1500, available: true, paths: [{ path: `${STORAGE}/data`, exists: true, sizeBytes: 1500 }] })
        expect(byId["full"]).toMatchObject({ sizeBytes: 5596, available: true })
        expect(Fs.readdirSync(NodePath.join(dir, STORAGE)).sort()).toEqual(["data", "players.db"])
        expect(audit.rows.map((r) => r.action)).toContain("dangerzone.wipe-presets")

        // No mission named: 409 saying so.
        Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "W";\n')
        expect((yield* call("GET", `/api/servers/${id}/dangerzone/wipe-presets`, { as: ADMIN })).status).toBe(409)
        expect((yield* call("GET", `/api/servers/${id}/dangerzone/wipe-presets`, { as: "m:server.config" })).status).toBe(403)
      }).pipe(Effect.provide(layer))
    }))
})
