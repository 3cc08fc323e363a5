/**
 * What a restore refuses before anything is written, and the config and
 * retention rules: zips with an entry climbing out (`../`), a symbolic
 * link, a file the manifest does not name, no manifest, or a damaged file
 * (checksum) leave the server's files exactly as they were; the config
 * names the field it refuses; retention keeps the newest N per type.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, eventually, fakeFleet, fakeInstall, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import * as Yazl from "yazl"
import { BackupsPlugin } from "../../src/backups/index.js"

const ADMIN = "root:admin"

const setup = () => {
  const backupDir = tempDir("garrison-backups-store-")
  return { backupDir, layer: testController([fakeFleet().plugin, BackupsPlugin], { dataPrefix: "garrison-backups-", logLevel: LogLevel.Error, config: { BACKUP_DIR: backupDir } }) }
}

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.mkdirSync(NodePath.join(dir, "mpmissions", "m", "storage_1"), { recursive: true })
  Fs.writeFileSync(NodePath.join(dir, "mpmissions", "m", "storage_1", "players.db"), "as it is")
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

/** Every file under `dir` with its bytes. */
const tree = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const entry of Fs.readdirSync(at, { withFileTypes: true })) {
      const path = NodePath.join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else out[NodePath.relative(dir, path)] = entry.isSymbolicLink() ? `-> ${Fs.readlinkSync(path)}` : Fs.readFileSync(path, "base64")
    }
  }
  walk(dir)
  return out
}

interface Entry {
  readonly name: string
  readonly data?: string
  readonly mode?: number
}

/**
 * A zip written by hand with a manifest naming `vouched` (path, bytes,
 * optional wrong checksum); names may hold `ZZ` where the bytes get `..`
 * afterwards (yazl itself refuses to write such a name).
 */
const handMade = (
  path: string,
  entries: ReadonlyArray<Entry>,
  vouched: ReadonlyArray<{ path: string; data: string; sha256?: string }>,
  withManifest = true,
  paths: ReadonlyArray<{ root: string; path: string; kind: string }> = [{ root: "install", path: "mpmissions", kind: "folder" }]
) =>
  new Promise<void>((resolve, reject) => {
    const zip = new Yazl.ZipFile()
    for (const e of entries) zip.addBuffer(Buffer.from(e.data ?? ""), e.name, e.mode === undefined ? {} : { mode: e.mode })
    if (withManifest) {
      const files = vouched.map((f) => ({
        root: "install",
        path: f.path,
        size: Buffer.byteLength(f.data),
        sha256: f.sha256 ?? createHash("sha256").update(f.data).digest("hex"),
        modified: new Date().toISOString()
      }))
      const manifest = {
        format: "garrison-backup",
        version: 1,
        server: { id: "x", name: "x" },
        type: "manual",
        createdAt: new Date().toISOString(),
        running: false,
        paths,
        excluded: ["logs"],
        files,
        folders: [],
        totalBytes: files.reduce((s, f) => s + f.size, 0),
        warnings: []
      }
      zip.addBuffer(Buffer.from(JSON.stringify(manifest).replaceAll("ZZ", "..")), "garrison-backup.json")
    }
    zip.end()
    const chunks: Array<Buffer> = []
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c))
    zip.outputStream.on("error", reject)
    zip.outputStream.on("end", () => {
      // Names only: the entry's checksum covers its data, not its name.
      Fs.writeFileSync(path, Buffer.from(Buffer.concat(chunks).toString("latin1").replaceAll("ZZ/ZZ/", "../../"), "latin1"))
      resolve()
    })
  })

describe("backups: refusals", () => {
  it.scopedLive("a hostile or damaged zip is refused whole: nothing in the server's folder changes, nothing outside is written", () =>
    Effect.gen(function* () {
      const { backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const folder = NodePath.join(backupDir, id)
        Fs.mkdirSync(folder, { recursive: true })
        const outside = NodePath.dirname(dir)
        const before = tree(dir)
        const good = { name: "install/mpmissions/m/storage_1/players.db", data: "from the zip" }
        const cases: ReadonlyArray<{
          readonly why: string
          readonly entries: ReadonlyArray<Entry>
          readonly vouched: ReadonlyArray<{ path: string; data: string; sha256?: string }>
          readonly manifest?: boolean
          readonly paths?: ReadonlyArray<{ root: string; path: string; kind: string }>
          readonly says: string
        }> = [
          { why: "climbs out", entries: [good, { name: "install/ZZ/ZZ/pwned.txt", data: "x" }], vouched: [{ path: "mpmissions/m/storage_1/players.db", data: good.data }, { path: "ZZ/ZZ/pwned.txt", data: "x" }], says: "leaves its folder" },
          { why: "a symbolic link", entries: [good, { name: "install/mpmissions/link", data: "/etc/passwd", mode: 0o120777 }], vouched: [{ path: "mpmissions/m/storage_1/players.db", data: good.data }], says: "symbolic link" },
          { why: "a stray file", entries: [good, { name: "install/serverDZ.cfg", data: "hostname = \"evil\";" }], vouched: [{ path: "mpmissions/m/storage_1/players.db", data: good.data }], says: "not in the manifest" },
          { why: "no manifest", entries: [good], vouched: [], manifest: false, says: "not a Garrison backup" },
          { why: "Garrison's own folder", entries: [{ name: "install/.garrison/x", data: "x" }], vouched: [{ path: ".garrison/x", data: "x" }], says: ".garrison" },
          // Taken whole, the install folder's restore would remove every file made since, the game binary too.
          { why: "the whole install folder", entries: [good], vouched: [{ path: "mpmissions/m/storage_1/players.db", data: good.data }], paths: [{ root: "install", path: "", kind: "folder" }], says: "takes the whole install folder" }
        ]
        for (const [index, c] of cases.entries()) {
          const filename = `manual-20260101-00000${index}-000.zip`
          yield* Effect.promise(() => handMade(NodePath.join(folder, filename), c.entries, c.vouched, c.manifest ?? true, c.paths))
          const preview = (yield* call("GET", `/api/servers/${id}/backups/${filename}/contents`, { as: ADMIN })).body as { problem: string | null }
          expect(preview.problem, c.why).toContain(c.says)
          const answer = yield* call("POST", `/api/servers/${id}/backups/${filename}/restore`, { as: ADMIN })
          expect(answer.status, c.why).toBe(409)
          expect(answer.text, c.why).toContain(c.says)
        }
        expect(tree(dir)).toEqual(before)
        expect(Fs.existsSync(NodePath.join(outside, "pwned.txt"))).toBe(false)
        // No pre-restore backup was made for a refused zip.
        expect(Fs.readdirSync(folder).filter((n) => n.startsWith("pre-restore"))).toEqual([])

        // Damaged: the manifest's checksum is not the bytes'. It gets as far as unpacking, and stops there.
        const damaged = "manual-20260102-000000-000.zip"
        yield* Effect.promise(() => handMade(NodePath.join(folder, damaged), [good], [{ path: "mpmissions/m/storage_1/players.db", data: good.data, sha256: "0".repeat(64) }]))
        expect((yield* call("POST", `/api/servers/${id}/backups/${damaged}/restore`, { as: ADMIN })).status).toBe(202)
        const ended = yield* eventually(
          Effect.map(call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN }), (r) => r.body as { state: string; error: string | null }),
          (s) => s.state !== "running",
          15_000
        )
        expect(ended.state).toBe("failed")
        expect(ended.error).toContain("checksum")
        const after = tree(dir)
        expect(after).toEqual({ ...before, ...Object.fromEntries(Object.keys(after).filter((k) => k.startsWith(".garrison")).map((k) => [k, after[k]])) })
        expect(Object.keys(after).filter((k) => k.startsWith(".garrison"))).toEqual([])
        // The server can start again: the restore's operation has ended.
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("the config names what it refuses; retention keeps the newest N of a type", () =>
    Effect.gen(function* () {
      const { backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id } = yield* server
        const config = (yield* call("GET", `/api/servers/${id}/backup-config`, { as: "viewer:" })).body as { defaultPaths: ReadonlyArray<string>; intervalMinutes: number; nextScheduledAt: string | null }
        expect(config).toMatchObject({ intervalMinutes: 0, nextScheduledAt: null })
        expect(config.defaultPaths).toEqual(["install/serverDZ.cfg", "install/profiles"])
        for (const [body, field] of [
          [{ paths: ["../etc"] }, "paths[0]"],
          [{ paths: ["ok", "/abs"] }, "paths[1]"],
          [{ paths: ["a/.garrison/b"] }, "paths[0]"],
          [{ paths: ["serverDZ.cfg", "."] }, "paths.1 must name a file or folder inside the install folder"],
          [{ paths: ["mpmissions/.."] }, "not the whole folder"],
          [{ keep: { manual: 0 } }, "keep"],
          [{ intervalMinutes: -5 }, "intervalMinutes"],
          [{ tiers: { daily: 1.5 } }, "tiers"]
        ] as const) {
          const answer = yield* call("PUT", `/api/servers/${id}/backup-config`, { as: ADMIN, json: body })
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expect(answer.text, JSON.stringify(body)).toContain(field)
        }
        expect((yield* call("PUT", `/api/servers/${id}/backup-config`, { as: "viewer:" , json: { intervalMinutes: 5 } })).status).toBe(403)
        const set = yield* call("PUT", `/api/servers/${id}/backup-config`, { as: ADMIN, json: { keep: { manual: 2 }, tiers: { hourly: 0, daily: 0, weekly: 0, monthly: 0 }, paths: ["mpmissions\\m\\storage_1/"] } })
        expect(set.status).toBe(200)
        expect(set.body).toMatchObject({ keep: { manual: 2, scheduled: 24 }, paths: ["mpmissions/m/storage_1"] })

        const made: Array<string> = []
        for (let i = 0; i < 3; i++) {
          expect((yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })).status).toBe(202)
          const status = yield* eventually(
            Effect.map(call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN }), (r) => r.body as { state: string; filename: string }),
            (s) => s.state !== "running",
            15_000
          )
          expect(status.state).toBe("done")
          made.push(status.filename)
        }
        const names = Fs.readdirSync(NodePath.join(backupDir, id)).sort()
        expect(names).toEqual([made[1], made[2]].sort())

        // Pages, newest first; a cursor still works after its backup was deleted.
        type Page = { items: ReadonlyArray<{ filename: string }>; nextCursor: string | null; total: number }
        const first = (yield* call("GET", `/api/servers/${id}/backups?limit=1`, { as: ADMIN })).body as Page
        expect(first).toMatchObject({ items: [{ filename: made[2] }], total: 2 })
        expect((yield* call("DELETE", `/api/servers/${id}/backups/${made[2]}`, { as: ADMIN })).status).toBe(200)
        const second = (yield* call("GET", `/api/servers/${id}/backups?limit=1&cursor=${first.nextCursor}`, { as: ADMIN })).body as Page
        expect(second).toMatchObject({ items: [{ filename: made[1] }], nextCursor: null })
        expect((yield* call("GET", `/api/servers/${id}/backups?cursor=not-a-cursor`, { as: ADMIN })).status).toBe(400)
      }).pipe(Effect.provide(layer))
    }))
})
