/**
 * Backups over the real servers plugin (fake processes) and real files: a
 * manual backup streams a zip with its manifest (logs left out), is listed,
 * previewed without unpacking, downloaded byte for byte, and restored with
 * the server stopped (a pre-restore backup first; files made since are
 * removed, logs kept); hostile zips are refused whole; deletes check the
 * type; the config validates its paths and numbers.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, eventually, fakeFleet, fakeInstall, requestBytes, serverPort, tempDir, testAuthorization, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as NodePath from "node:path"
import { type AnyPlugin, on, Plugin } from "@garrison/runtime"
import { BackupCreated, BackupFailed, BackupsPlugin } from "../../src/backups/index.js"

const ADMIN = "root:admin"
const STORAGE = "mpmissions/dayzOffline.chernarusplus/storage_1"

interface Status {
  readonly state: string
  readonly filename: string | null
  readonly error: string | null
  readonly operation: string | null
}
interface Page {
  readonly items: ReadonlyArray<{ readonly filename: string; readonly type: string; readonly sizeBytes: number; readonly tier: string | null }>
  readonly total: number
}

/** The backups' events, as a webhook plugin would get them. */
const eventRecorder = () => {
  const seen: Array<BackupCreated | BackupFailed> = []
  const plugin = Plugin.make({
    id: "backup-events",
    events: [on(BackupCreated, (e) => Effect.sync(() => void seen.push(e))), on(BackupFailed, (e) => Effect.sync(() => void seen.push(e)))]
  }) as AnyPlugin
  return { seen, plugin }
}

const setup = () => {
  const audit = auditRecorder()
  const events = eventRecorder()
  const backupDir = tempDir("garrison-backups-store-")
  return {
    audit,
    backupDir,
    events,
    layer: testController([audit.plugin, fakeFleet().plugin, BackupsPlugin, events.plugin], { dataPrefix: "garrison-backups-", logLevel: LogLevel.Error, config: { BACKUP_DIR: backupDir } })
  }
}

/** An install with a config naming its mission, a world and characters, profiles with a log. */
const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "Main";\ninstanceId = 1;\nclass Missions { class DayZ { template = "dayzOffline.chernarusplus"; }; };\n')
  Fs.mkdirSync(NodePath.join(dir, STORAGE, "data"), { recursive: true })
  Fs.writeFileSync(NodePath.join(dir, STORAGE, "players.db"), Buffer.from("characters"))
  Fs.writeFileSync(NodePath.join(dir, STORAGE, "data", "vehicles.bin"), Buffer.alloc(300_000, 7))
  Fs.mkdirSync(NodePath.join(dir, STORAGE, "data", "empty"))
  Fs.mkdirSync(NodePath.join(dir, "profiles"), { recursive: true })
  Fs.writeFileSync(NodePath.join(dir, "profiles", "settings.json"), "{}")
  Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64.RPT"), "a log\n")
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

const done = (id: string) =>
  eventually(
    Effect.map(call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN }), (r) => r.body as Status),
    (s) => s.state !== "running",
    15_000
  )

const sha = (path: string) => createHash("sha256").update(Fs.readFileSync(path)).digest("hex")

describe("backups", () => {
  it.scopedLive("a manual backup: zip with manifest, listed, previewed, downloaded, restored over a wipe; deleted with its type", () =>
    Effect.gen(function* () {
      const { audit, backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const before = { players: sha(NodePath.join(dir, STORAGE, "players.db")), vehicles: sha(NodePath.join(dir, STORAGE, "data", "vehicles.bin")) }

        const started = yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })
        expect(started.status).toBe(202)
        expect(started.body).toMatchObject({ operation: "backup", state: "running", type: "manual" })
        const finished = yield* done(id)
        expect(finished).toMatchObject({ state: "done", error: null })
        const filename = finished.filename!
        expect(filename).toMatch(/^manual-\d{8}-\d{6}-\d{3}\.zip$/)

        const list = (yield* call("GET", `/api/servers/${id}/backups`, { as: "viewer:" })).body as Page
        expect(list.total).toBe(1)
        expect(list.items[0]).toMatchObject({ filename, type: "manual" })
        expect(list.items[0]!.tier).toBe("monthly")

        const contents = (yield* call("GET", `/api/servers/${id}/backups/${filename}/contents`, { as: ADMIN })).body as {
          manifest: { fileCount: number; excluded: ReadonlyArray<string>; paths: ReadonlyArray<{ path: string }> }
          problem: string | null
          items: ReadonlyArray<{ name: string; kind: string; sha256: string | null }>
        }
        expect(contents.problem).toBeNull()
        expect(contents.manifest.paths.map((p) => p.path)).toEqual(["profiles", "serverDZ.cfg", STORAGE])
        const names = contents.items.map((e) => e.name)
        expect(names).toContain(`install/${STORAGE}/players.db`)
        expect(names).toContain(`install/${STORAGE}/data/empty/`)
        expect(names).toContain("install/profiles/settings.json")
        expect(names.some((n) => n.endsWith(".RPT"))).toBe(false)
        expect(contents.items.find((e) => e.name === `install/${STORAGE}/data/vehicles.bin`)?.sha256).toBe(before.vehicles)

        const download = yield* requestBytes("GET", `/api/servers/${id}/backups/${filename}/download?secrets=include`, { as: ADMIN })
        expect(download.status).toBe(200)
        expect(download.headers["content-type"]).toBe("application/zip")
        expect(download.headers["content-disposition"]).toBe(`attachment; filename="${filename}"`)
        expect(Buffer.from(download.bytes).equals(Fs.readFileSync(NodePath.join(backupDir, id, filename)))).toBe(true)
        // A client that goes after the headers leaves no open file behind.
        const zipPath = NodePath.join(backupDir, id, filename)
        const port = yield* serverPort
        yield* Effect.promise(
          () =>
            new Promise<void>((resolve, reject) => {
              const req = Http.get({ host: "127.0.0.1", port, path: `/api/servers/${id}/backups/${filename}/download?secrets=include`, headers: testAuthorization("root", ["admin"]) }, (res) => {
                res.destroy()
                req.destroy()
                resolve()
              })
              req.on("error", (error) => ((error as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve() : reject(error)))
            })
        )
        const openOn = () =>
          Fs.readdirSync("/proc/self/fd").filter((fd) => {
            try {
              return Fs.readlinkSync(`/proc/self/fd/${fd}`) === zipPath
            } catch {
              return false
            }
          }).length
        expect(yield* eventually(Effect.sync(openOn), (n) => n === 0)).toBe(0)

        // A wipe, a new file since the backup, a log written meanwhile.
        Fs.rmSync(NodePath.join(dir, STORAGE), { recursive: true })
        Fs.mkdirSync(NodePath.join(dir, STORAGE, "data"), { recursive: true })
        Fs.writeFileSync(NodePath.join(dir, STORAGE, "data", "new.bin"), "made after the backup")
        Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64_2.RPT"), "a newer log\n")
        // What a restore interrupted by a crash left behind.
        Fs.mkdirSync(NodePath.join(dir, ".garrison", "restore-crashed"), { recursive: true })
        Fs.writeFileSync(NodePath.join(dir, ".garrison", "restore-crashed", "0"), "half")

        // Running: refused.
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
        const refused = yield* call("POST", `/api/servers/${id}/backups/${filename}/restore`, { as: ADMIN })
        expect(refused.status).toBe(409)
        expect(refused.text).toContain("stop it")
        expect((yield* call("POST", `/api/servers/${id}/stop`, { as: ADMIN })).status).toBe(200)

        const restoring = yield* call("POST", `/api/servers/${id}/backups/${filename}/restore`, { as: ADMIN })
        expect(restoring.status).toBe(202)
        expect((yield* done(id))).toMatchObject({ state: "done", operation: "restore" })
        expect(sha(NodePath.join(dir, STORAGE, "players.db"))).toBe(before.players)
        expect(sha(NodePath.join(dir, STORAGE, "data", "vehicles.bin"))).toBe(before.vehicles)
        expect(Fs.existsSync(NodePath.join(dir, STORAGE, "data", "empty"))).toBe(true)
        expect(Fs.existsSync(NodePath.join(dir, STORAGE, "data", "new.bin"))).toBe(false)
        expect(Fs.existsSync(NodePath.join(dir, "profiles", "DayZServer_x64_2.RPT"))).toBe(true)
        expect(Fs.existsSync(NodePath.join(dir, ".garrison"))).toBe(true)
        expect(Fs.readdirSync(NodePath.join(dir, ".garrison"))).toEqual([])

        const after = (yield* call("GET", `/api/servers/${id}/backups`, { as: ADMIN })).body as Page
        expect(after.items.map((b) => b.type).sort()).toEqual(["manual", "pre-restore"])
        const pre = after.items.find((b) => b.type === "pre-restore")!.filename
        // The pre-restore backup holds the wiped world as it was: the new file.
        const preContents = (yield* call("GET", `/api/servers/${id}/backups/${pre}/contents`, { as: ADMIN })).body as { items: ReadonlyArray<{ name: string }> }
        expect(preContents.items.map((e) => e.name)).toContain(`install/${STORAGE}/data/new.bin`)

        expect((yield* call("DELETE", `/api/servers/${id}/backups/${filename}?type=scheduled`, { as: ADMIN })).status).toBe(400)
        expect((yield* call("DELETE", `/api/servers/${id}/backups/${filename}?type=manual`, { as: "mod:server.config" })).status).toBe(403)
        expect((yield* call("DELETE", `/api/servers/${id}/backups/${filename}?type=manual`, { as: ADMIN })).body).toEqual({ filename, type: "manual" })
        expect((yield* call("GET", `/api/servers/${id}/backups/${filename}/download`, { as: ADMIN })).status).toBe(404)
        for (const hostile of ["..%2F..%2Fdata.db", "..", "manual-20261125-033000-123.zip%00.txt", "%2Fetc%2Fpasswd"]) {
          expect([400, 404]).toContain((yield* call("GET", `/api/servers/${id}/backups/${hostile}/download`, { as: ADMIN })).status)
        }

        const actions = audit.rows.map((r) => r.action)
        expect(actions).toEqual(expect.arrayContaining(["backup.created", "backup.restored", "backup.deleted"]))
        // Every row names the caller by id and name (a test caller's id is its name), those written after the
        // request too: the backup beside it, the pre-restore backup and the restore on the server actor's operation.
        const backupRows = audit.rows.filter((r) => r.action.startsWith("backup."))
        for (const row of backupRows) expect(row, row.action).toMatchObject({ actor: "root", actorName: "root" })
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("a backup that finds nothing to take fails: the status says why, BackupFailed is published, nothing is listed", () =>
    Effect.gen(function* () {
      const { audit, backupDir, events, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        expect((yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })).status).toBe(202)
        const made = yield* done(id)
        expect(made.state).toBe("done")
        yield* eventually(Effect.sync(() => events.seen.length), (n) => n === 1)
        expect(events.seen[0]).toMatchObject({ _tag: "BackupCreated", serverId: id, filename: made.filename, type: "manual", by: "root" })

        // The server's folder is gone (a disk unmounted); put back however the test ends, interrupted too.
        yield* Effect.acquireUseRelease(
          Effect.sync(() => Fs.renameSync(dir, `${dir}-away`)),
          () =>
            Effect.gen(function* () {
              expect((yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })).status).toBe(202)
              const failed = yield* done(id)
              expect(failed.state).toBe("failed")
              expect(failed.error).toContain("cannot be reached")
              yield* eventually(Effect.sync(() => events.seen.length), (n) => n === 2)
              expect(events.seen[1]).toMatchObject({ _tag: "BackupFailed", serverId: id, type: "manual" })
              expect(Fs.readdirSync(NodePath.join(backupDir, id))).toEqual([made.filename])
              expect(audit.rows.map((r) => `${r.action}:${r.result}`)).toEqual(expect.arrayContaining(["backup.created:success", "backup.failed:failure"]))
            }),
          () => Effect.sync(() => Fs.renameSync(`${dir}-away`, dir))
        )
        // Paths that hold nothing: refused too, rather than an empty backup the retention would count.
        expect((yield* call("PUT", `/api/servers/${id}/backup-config`, { as: ADMIN, json: { paths: ["no-such-folder"] } })).status).toBe(200)
        expect((yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })).status).toBe(202)
        const empty = yield* done(id)
        expect(empty.state).toBe("failed")
        expect(empty.error).toContain("none of the paths")
        expect(Fs.readdirSync(NodePath.join(backupDir, id))).toEqual([made.filename])
      }).pipe(Effect.provide(layer))
    }))
})

