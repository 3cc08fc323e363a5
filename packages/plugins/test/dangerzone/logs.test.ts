/**
 * The dangerzone's log files over the real servers plugin (fake processes)
 * and real files: scanned by category (BattlEye's in both places it
 * writes), cleared by category with what a running server writes now kept,
 * admins only, and every call audited.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BackupsPlugin } from "../../src/backups/index.js"
import { DangerzonePlugin } from "../../src/dangerzone/index.js"

const ADMIN = "root:admin"

const setup = () => {
  const audit = auditRecorder()
  return { audit, layer: testController([audit.plugin, fakeFleet().plugin, BackupsPlugin, DangerzonePlugin], { dataPrefix: "garrison-dangerzone-", logLevel: LogLevel.Error }) }
}

/** An install whose profiles hold a log of every kind, all a day old, and a file that is no log. */
const server = Effect.gen(function* () {
  const dir = fakeInstall()
  const profiles = NodePath.join(dir, "profiles")
  Fs.mkdirSync(NodePath.join(profiles, "BattlEye"), { recursive: true })
  const files: Record<string, string> = {
    "profiles/DayZServer_x64_2026-11-24_18-00-00.RPT": "rpt\n",
    "profiles/DayZServer_x64_2026-11-24_18-00-00.ADM": "adm\n",
    "profiles/script_2026-11-24_18-00-00.log": "script\n",
    "profiles/crash_2026-11-24_18-00-00.log": "crash\n",
    "profiles/dump.mdmp": "dump",
    "profiles/BattlEye/scripts.log": "be\n",
    "battleye/BEServer_x64.log": "be2\n",
    "profiles/notes.txt": "not a log"
  }
  const dayAgo = new Date(Date.now() - 24 * 3_600_000)
  for (const [path, text] of Object.entries(files)) {
    Fs.writeFileSync(NodePath.join(dir, path), text)
    Fs.utimesSync(NodePath.join(dir, path), dayAgo, dayAgo)
  }
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

interface Scan {
  readonly categories: ReadonlyArray<{ readonly id: string; readonly fileCount: number; readonly files: ReadonlyArray<{ readonly path: string }> }>
  readonly totalFiles: number
}

describe("dangerzone: logs", () => {
  it.scopedLive("scans by category, clears the chosen ones, keeps what a running server writes now, audits every call", () =>
    Effect.gen(function* () {
      const { audit, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const scan = (yield* call("GET", `/api/servers/${id}/dangerzone/logs-scan`, { as: ADMIN })).body as Scan
        expect(scan.categories.map((c) => [c.id, c.fileCount])).toEqual([["rpt", 1], ["adm", 1], ["script", 1], ["crash", 2], ["battleye", 2]])
        expect(scan.totalFiles).toBe(7)
        expect(scan.categories.find((c) => c.id === "battleye")?.files.map((f) => f.path).sort()).toEqual(["battleye/BEServer_x64.log", "profiles/BattlEye/scripts.log"])

        const cleared = yield* call("POST", `/api/servers/${id}/dangerzone/clear-logs`, { as: ADMIN, json: { categories: ["script", "crash"] } })
        expect(cleared.body).toMatchObject({ removedFiles: 3, freedBytes: 17, kept: [] })
        expect(Fs.readdirSync(NodePath.join(dir, "profiles")).sort()).toEqual(["BattlEye", "DayZServer_x64_2026-11-24_18-00-00.ADM", "DayZServer_x64_2026-11-24_18-00-00.RPT", "notes.txt"])

        // Running now: its current engine log is kept, the old ones go.
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
        Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64_2026-11-25_02-00-00.RPT"), "now\n")
        const running = yield* call("POST", `/api/servers/${id}/dangerzone/clear-logs`, { as: ADMIN, json: { categories: ["rpt"] } })
        expect(running.body).toMatchObject({ removedFiles: 1, kept: ["profiles/DayZServer_x64_2026-11-25_02-00-00.RPT"] })
        expect(Fs.existsSync(NodePath.join(dir, "profiles", "DayZServer_x64_2026-11-25_02-00-00.RPT"))).toBe(true)

        expect((yield* call("POST", `/api/servers/${id}/dangerzone/clear-logs`, { as: ADMIN, json: { categories: ["everything"] } })).status).toBe(400)
        expect((yield* call("POST", `/api/servers/${id}/dangerzone/clear-logs`, { as: ADMIN, json: { categories: [] } })).status).toBe(400)
        expect((yield* call("GET", `/api/servers/${id}/dangerzone/logs-scan`, { as: "mod:server.config,server.restart" })).status).toBe(403)
        const actions = audit.rows.map((e) => e.action)
        expect(actions.filter((a) => a === "dangerzone.logs-scan")).toHaveLength(1)
        expect(actions.filter((a) => a === "dangerzone.clear-logs")).toHaveLength(2)
      }).pipe(Effect.provide(layer))
    }))
})
