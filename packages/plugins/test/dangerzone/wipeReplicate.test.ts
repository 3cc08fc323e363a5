/**
 * The dangerzone's wipe and replicate over the real servers and backups
 * plugins (fake processes) and real files: a wipe needs the server stopped
 * and its name typed back, makes a pre-wipe backup first (restoring it
 * undoes the wipe) and deletes only its preset's paths; a replicate copies
 * the chosen components from another server, keeps the target's hostname,
 * instanceId, BattlEye settings and persistence, backs the target up first,
 * and launches the source's mods. Every call is audited.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, eventually, fakeFleet, fakeInstall, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BackupsPlugin } from "../../src/backups/index.js"
import { DangerzonePlugin } from "../../src/dangerzone/index.js"

const ADMIN = "root:admin"

const setup = () => {
  const audit = auditRecorder()
  const backupDir = tempDir("garrison-dangerzone-backups-")
  return {
    audit,
    backupDir,
    layer: testController([audit.plugin, fakeFleet().plugin, BackupsPlugin, DangerzonePlugin], { dataPrefix: "garrison-dangerzone-", logLevel: LogLevel.Error, config: { BACKUP_DIR: backupDir } })
  }
}

const write = (dir: string, files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    Fs.mkdirSync(NodePath.dirname(NodePath.join(dir, path)), { recursive: true })
    Fs.writeFileSync(NodePath.join(dir, path), text)
  }
}

const server = (name: string, instanceId: number, files: Record<string, string>) =>
  Effect.gen(function* () {
    const dir = fakeInstall()
    write(dir, {
      "serverDZ.cfg": `hostname = "${name} host";\nmaxPlayers = ${instanceId === 1 ? 60 : 10};\ninstanceId = ${instanceId};\nclass Missions { class DayZ { template = "dayzOffline.chernarusplus"; }; };\n`,
      ...files
    })
    const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name, installDir: dir } })
    expect(created.status).toBe(201)
    return { id: String((created.body as { id: string }).id), dir }
  })

const read = (dir: string, path: string) => Fs.readFileSync(NodePath.join(dir, path), "utf8")
const exists = (dir: string, path: string) => Fs.existsSync(NodePath.join(dir, path))
const M = "mpmissions/dayzOffline.chernarusplus"

describe("dangerzone: wipe", () => {
  it.scopedLive("needs the server stopped and its name; backs up first; deletes the preset's paths only; the backup undoes it", () =>
    Effect.gen(function* () {
      const { audit, backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server("Main", 1, {
          [`${M}/storage_1/players.db`]: "characters",
          [`${M}/storage_1/data/vehicles.bin`]: "cars",
          [`${M}/db/types.xml`]: "<types/>"
        })
        const url = `/api/servers/${id}/dangerzone/wipe`
        const wrongName = yield* call("POST", url, { as: ADMIN, json: { preset: "players", confirmName: "main" } })
        expect(wrongName.status).toBe(400)
        expect(wrongName.text).toContain("confirmName")
        expect((yield* call("POST", url, { as: ADMIN, json: { preset: "everything", confirmName: "Main" } })).status).toBe(400)
        expect((yield* call("POST", url, { as: "mod:server.restart,server.config", json: { preset: "players", confirmName: "Main" } })).status).toBe(403)
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
        const running = yield* call("POST", url, { as: ADMIN, json: { preset: "players", confirmName: "Main" } })
        expect(running.status).toBe(409)
        expect(exists(dir, `${M}/storage_1/players.db`)).toBe(true)
        expect((yield* call("POST", `/api/servers/${id}/stop`, { as: ADMIN })).status).toBe(200)

        const players = yield* call("POST", url, { as: ADMIN, json: { preset: "players", confirmName: "Main" } })
        expect(players.status).toBe(200)
        expect(players.body).toMatchObject({ preset: "players", storage: `${M}/storage_1`, removed: [{ path: `${M}/storage_1/players.db`, sizeBytes: 10 }], freedBytes: 10 })
        const backup = (players.body as { backup: string }).backup
        expect(backup).toMatch(/^pre-wipe-/)
        expect(Fs.readdirSync(NodePath.join(backupDir, id))).toContain(backup)
        expect(exists(dir, `${M}/storage_1/players.db`)).toBe(false)
        expect(read(dir, `${M}/storage_1/data/vehicles.bin`)).toBe("cars")
        expect(read(dir, `${M}/db/types.xml`)).toBe("<types/>")

        const full = yield* call("POST", url, { as: ADMIN, json: { preset: "full", confirmName: "Main" } })
        expect(full.status).toBe(200)
        expect(Fs.readdirSync(NodePath.join(dir, `${M}/storage_1`))).toEqual([])
        expect(read(dir, `${M}/db/types.xml`)).toBe("<types/>")

        // The first pre-wipe backup puts the characters back.
        expect((yield* call("POST", `/api/servers/${id}/backups/${backup}/restore`, { as: ADMIN })).status).toBe(202)
        yield* eventually(Effect.map(call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN }), (r) => r.body as { state: string }), (s) => s.state === "done", 15_000)
        expect(read(dir, `${M}/storage_1/players.db`)).toBe("characters")
        expect(read(dir, `${M}/storage_1/data/vehicles.bin`)).toBe("cars")

        const wipes = audit.rows.filter((r) => r.action === "dangerzone.wipe")
        expect(wipes.map((r) => r.result)).toEqual(["failure", "failure", "success", "success"])
        // By id and name (a test caller's id is its name), the pre-wipe backups made on the server actor's operation too.
        const preWipe = audit.rows.filter((r) => r.action === "backup.created" && r.details?.["type"] === "pre-wipe")
        expect(preWipe).toHaveLength(2)
        for (const row of [...wipes, ...preWipe]) expect(row).toMatchObject({ actor: "root", actorName: "root" })
      }).pipe(Effect.provide(layer))
    }))
})

describe("dangerzone: replicate", () => {
  it.scopedLive("previews, then copies the chosen components; the target keeps its own name, world and BattlEye settings", () =>
    Effect.gen(function* () {
      const { audit, backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const source = yield* server("Source", 1, {
          [`${M}/storage_1/players.db`]: "source characters",
          [`${M}/db/types.xml`]: "<types source/>",
          [`${M}/init.c`]: "void main() {}",
          "@CF/addons/cf.pbo": "pbo bytes",
          "@CF/meta.cpp": "name = \"CF\";",
          "keys/cf.bikey": "key",
          "keys/readme.txt": "not a key",
          "profiles/settings.json": "{\"source\":true}",
          "profiles/DayZServer.RPT": "a log",
          "profiles/BattlEye/BEServer_x64.cfg": "RConPassword source\nRConPort 1111\n"
        })
        const target = yield* server("Target", 2, {
          [`${M}/storage_2/players.db`]: "target characters",
          [`${M}/db/types.xml`]: "<types target/>",
          [`${M}/target-only.txt`]: "mine",
          "profiles/BattlEye/BEServer_x64.cfg": "RConPassword target\nRConPort 2222\n"
        })
        // The source launches its mod.
        expect((yield* call("PATCH", `/api/servers/${source.id}`, { as: ADMIN, json: { mods: ["@CF"] } })).status).toBe(200)

        const body = { sourceServerId: source.id, components: ["config", "mpmissions", "mods", "profiles"] }
        const preview = yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate-preview`, { as: ADMIN, json: body })
        expect(preview.status).toBe(200)
        const plan = preview.body as { components: ReadonlyArray<{ component: string; files: number; skipped: ReadonlyArray<string> }>; blockers: ReadonlyArray<string> }
        expect(plan.blockers).toEqual([])
        const byComponent = Object.fromEntries(plan.components.map((c) => [c.component, c]))
        expect(byComponent["config"]!.files).toBe(1)
        expect(byComponent["mpmissions"]!.files).toBe(2)
        expect(byComponent["mpmissions"]!.skipped.join(" ")).toContain("storage_1: persistence is never copied")
        expect(byComponent["mods"]!.files).toBe(3)
        expect(byComponent["profiles"]!.skipped.join(" ")).toContain("a log")
        expect(byComponent["profiles"]!.skipped.join(" ")).toContain("BattlEye settings")
        // Looking changed nothing.
        expect(read(target.dir, `${M}/db/types.xml`)).toBe("<types target/>")

        expect((yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate`, { as: ADMIN, json: { ...body, confirmName: "Source" } })).status).toBe(400)
        expect((yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate`, { as: ADMIN, json: { ...body, sourceServerId: target.id, confirmName: "Target" } })).status).toBe(400)
        expect((yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate`, { as: ADMIN, json: { ...body, sourceServerId: "nope", confirmName: "Target" } })).status).toBe(400)
        const done = yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate`, { as: ADMIN, json: { ...body, confirmName: "Target" } })
        expect(done.status).toBe(200)
        const backup = (done.body as { backup: string }).backup
        expect(backup).toMatch(/^pre-restore-/)
        expect(Fs.readdirSync(NodePath.join(backupDir, target.id))).toContain(backup)

        const config = read(target.dir, "serverDZ.cfg")
        expect(config).toContain('hostname = "Target host";')
        expect(config).toContain("instanceId = 2;")
        expect(config).toContain("maxPlayers = 60;")
        expect(read(target.dir, `${M}/db/types.xml`)).toBe("<types source/>")
        expect(read(target.dir, `${M}/init.c`)).toBe("void main() {}")
        expect(read(target.dir, `${M}/target-only.txt`)).toBe("mine")
        expect(read(target.dir, `${M}/storage_2/players.db`)).toBe("target characters")
        expect(exists(target.dir, `${M}/storage_1`)).toBe(false)
        expect(read(target.dir, "@CF/addons/cf.pbo")).toBe("pbo bytes")
        expect(read(target.dir, "keys/cf.bikey")).toBe("key")
        expect(exists(target.dir, "keys/readme.txt")).toBe(false)
        expect(read(target.dir, "profiles/settings.json")).toBe("{\"source\":true}")
        expect(exists(target.dir, "profiles/DayZServer.RPT")).toBe(false)
        expect(read(target.dir, "profiles/BattlEye/BEServer_x64.cfg")).toContain("RConPort 2222")
        const entries = (yield* call("GET", "/api/backup/servers", { as: ADMIN })).body as { servers: ReadonlyArray<{ id: string; mods: ReadonlyArray<string> }> }
        expect(entries.servers.find((s) => s.id === target.id)?.mods).toEqual(["@CF"])

        // Running: the preview says so, the replicate refuses.
        expect((yield* call("POST", `/api/servers/${target.id}/start`, { as: ADMIN })).status).toBe(200)
        const blocked = (yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate-preview`, { as: ADMIN, json: body })).body as { blockers: ReadonlyArray<string> }
        expect(blocked.blockers.join(" ")).toContain("stop it first")
        expect((yield* call("POST", `/api/servers/${target.id}/dangerzone/replicate`, { as: ADMIN, json: { ...body, confirmName: "Target" } })).status).toBe(409)
        expect(audit.rows.filter((r) => r.action.startsWith("dangerzone.replicate")).map((r) => `${r.action}:${r.result}`)).toEqual([
          "dangerzone.replicate-preview:success",
          "dangerzone.replicate:failure",
          "dangerzone.replicate:failure",
          "dangerzone.replicate:failure",
          "dangerzone.replicate:success",
          "dangerzone.replicate-preview:success",
          "dangerzone.replicate:failure"
        ])
        // The target's entry changed on the server actor's operation: named by `by`, id and name.
        const entryRows = audit.rows.filter((r) => r.action === "server.update" && r.details?.["reason"] === "replicate")
        expect(entryRows.map((r) => [r.actor, r.actorName])).toEqual([["root", "root"]])
      }).pipe(Effect.provide(layer))
    }))
})
