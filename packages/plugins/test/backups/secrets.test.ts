/**
 * Backups keep their secrets. A moderator (`server.restart` on this server
 * only) who widens the backup paths to the BattlEye folder and downloads
 * gets a zip whose `serverDZ.cfg` and BattlEye config show `********`, the
 * manifest naming them and vouching for the masked bytes; asking for the
 * secrets is 403. An admin gets the zip as kept with `?secrets=include`
 * (audited). Restoring a masked copy keeps the server's current values.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, fakeFleet, fakeInstall, requestBytes, tempDir, testController, unzipEntries } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BackupsPlugin } from "../../src/backups/index.js"

const ADMIN = "root:admin"
const CONFIG = 'hostname = "Main";\npassword = "join-secret";\npasswordAdmin = "admin-secret";\ninstanceId = 1;\nclass Missions { class DayZ { template = "m"; }; };\n'
const BATTLEYE = "RConPassword be-secret\nRConPort 2306\n"

const setup = () => {
  const audit = auditRecorder()
  const backupDir = tempDir("garrison-backups-secrets-")
  return {
    audit,
    backupDir,
    layer: testController([audit.plugin, fakeFleet().plugin, BackupsPlugin], { dataPrefix: "garrison-backups-", logLevel: LogLevel.Error, config: { BACKUP_DIR: backupDir } })
  }
}

const done = (id: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1_000; i++) {
      const status = (yield* call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN })).body as { state: string; filename: string }
      if (status.state !== "running") return status
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    return yield* Effect.dieMessage("the backup did not end")
  })

describe("backup downloads", () => {
  it.scopedLive("mask the game's secrets for everyone; the whole zip is an admin's, audited; a masked copy restores keeping the values", () => {
    const { audit, backupDir, layer } = setup()
    return Effect.gen(function* () {
      const dir = fakeInstall()
      Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), CONFIG)
      Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64.cfg"), BATTLEYE)
      const id = String(((yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })).body as { id: string }).id)
      const moderator = `mod:server.restart@${id}`
      expect((yield* call("PUT", `/api/servers/${id}/backup-config`, { as: moderator, json: { paths: ["battleye", "serverDZ.cfg"] } })).status).toBe(200)
      expect((yield* call("POST", `/api/servers/${id}/backups`, { as: moderator })).status).toBe(202)
      const { filename } = yield* done(id)

      const masked = yield* requestBytes("GET", `/api/servers/${id}/backups/${filename}/download`, { as: moderator })
      expect(masked.status).toBe(200)
      expect(Buffer.from(masked.bytes).includes("secret")).toBe(false)
      const entries = yield* Effect.promise(() => unzipEntries(Buffer.from(masked.bytes)))
      expect(entries.get("install/serverDZ.cfg")!.toString("utf8")).toBe(CONFIG.replace("join-secret", "********").replace("admin-secret", "********"))
      expect(entries.get("install/battleye/beserver_x64.cfg")!.toString("utf8")).toBe("RConPassword ********\nRConPort 2306\n")
      const manifest = JSON.parse(entries.get("garrison-backup.json")!.toString("utf8")) as {
        files: ReadonlyArray<{ path: string; size: number; sha256: string }>
        secretsMasked: ReadonlyArray<{ path: string; keys: ReadonlyArray<string> }>
      }
      expect([...manifest.secretsMasked].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
        { root: "install", path: "battleye/beserver_x64.cfg", keys: ["RConPassword"] },
        { root: "install", path: "serverDZ.cfg", keys: ["password", "passwordAdmin"] }
      ])
      // The manifest vouches for the bytes the copy holds.
      for (const file of manifest.files) {
        const bytes = entries.get(`install/${file.path}`)!
        expect({ path: file.path, size: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") }).toEqual({ path: file.path, size: file.size, sha256: file.sha256 })
      }

      // The secrets are an admin's, and asking is audited.
      const asked = yield* call("GET", `/api/servers/${id}/backups/${filename}/download?secrets=include`, { as: moderator })
      expect(asked.status).toBe(403)
      const whole = yield* requestBytes("GET", `/api/servers/${id}/backups/${filename}/download?secrets=include`, { as: ADMIN })
      expect(Buffer.from(whole.bytes).equals(Fs.readFileSync(NodePath.join(backupDir, id, filename)))).toBe(true)
      expect(audit.rows.find((row) => row.action === "backup.downloaded")).toMatchObject({ actor: "root", actorName: "root", target: id, details: { filename, secrets: "included" } })

      // A masked copy, put in the server's backup folder by hand and restored: the server keeps its current values.
      Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), CONFIG.replace("join-secret", "changed-since").replace("instanceId = 1", "instanceId = 2"))
      const copyName = filename.replace(/^manual-/, "manual-").replace(/(\d{3})\.zip$/, (_, ms: string) => `${String((Number(ms) + 1) % 1000).padStart(3, "0")}.zip`)
      Fs.writeFileSync(NodePath.join(backupDir, id, copyName), masked.bytes)
      const restoring = yield* call("POST", `/api/servers/${id}/backups/${copyName}/restore`, { as: ADMIN })
      expect(restoring.status, restoring.text).toBe(202)
      expect(yield* done(id)).toMatchObject({ state: "done" })
      expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toBe(CONFIG.replace("join-secret", "changed-since"))
      expect(Fs.readFileSync(NodePath.join(dir, "battleye", "beserver_x64.cfg"), "utf8")).toBe(BATTLEYE)
    }).pipe(Effect.provide(layer))
  })
})
