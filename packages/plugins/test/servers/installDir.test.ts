/**
 * One entry per install folder: a second entry for a folder another entry
 * has is 409 naming the first, on create, PATCH and restore, however the
 * folder is spelt (trailing slash, `.`/`..`, a symbolic link); detect warns.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ServerEntries } from "../../src/servers/index.js"
import { installKey } from "../../src/servers/internal/installFolder.js"
import { tempDir } from "@garrison/testkit"
import { ADMIN, call, fakeInstall, type Reply, serversController } from "./support.js"

const DEPLOY = "dep:server.deploy"

const create = (body: Record<string, unknown>) => call("POST", "/api/servers", { as: DEPLOY, json: body })

const createdId = (body: Record<string, unknown>) =>
  Effect.map(create(body), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return String(reply.body.id)
  })

/** The 409 names the entry that has the folder, by name and id. */
const expectInUse = (reply: Reply, first: { readonly id: string; readonly name: string }) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(409)
  expect(reply.body.error).toBe("conflict")
  expect(String(reply.body.message)).toMatch(/^installDir: /)
  expect(String(reply.body.message)).toContain(`is already the install folder of server "${first.name}" (${first.id})`)
  expect(reply.body.details).toEqual({ field: "installDir", serverId: first.id, name: first.name, relation: "same" })
}

const entryNames = Effect.flatMap(ServerEntries, (entries) => Effect.map(entries.list, (list) => list.map((e) => e.name)))

describe("one entry per install folder", () => {
  it.scopedLive("a second create on the same folder is 409 naming the first, however the folder is spelt", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      const first = { name: "First", id: yield* createdId({ name: "First", installDir: dir }) }
      const link = NodePath.join(tempDir("garrison-links-"), "install")
      Fs.symlinkSync(dir, link)
      const spellings = [
        dir,
        `${dir}/`,
        `${dir}/./`,
        NodePath.join(dir, "..") + `/./${NodePath.basename(dir)}/../${NodePath.basename(dir)}`,
        link
      ]
      for (const installDir of spellings) expectInUse(yield* create({ name: "Second", installDir }), first)
      expect(yield* entryNames).toEqual(["First"])
      // Another folder is fine.
      yield* createdId({ name: "Other", installDir: fakeInstall() })
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("creates racing for one folder: exactly one wins", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      const replies = yield* Effect.forEach(
        Array.from({ length: 6 }, (_, i) => i),
        (i) => create({ name: `Racer ${i}`, installDir: dir }),
        { concurrency: "unbounded" }
      )
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
      expect(yield* entryNames).toHaveLength(1)
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("PATCH refuses a move onto another entry's folder; other changes, and keeping the folder, are fine", () =>
    Effect.gen(function* () {
      const a = { name: "A", installDir: fakeInstall() }
      const aId = yield* createdId(a)
      const bId = yield* createdId({ name: "B", installDir: fakeInstall() })
      // Moving an install folder is admin's (hostFields.test.ts); here, onto another entry's.
      const moved = yield* call("PATCH", `/api/servers/${bId}`, { as: ADMIN, json: { installDir: `${a.installDir}/` } })
      expectInUse(moved, { id: aId, name: "A" })
      const renamed = yield* call("PATCH", `/api/servers/${bId}`, { as: DEPLOY, json: { name: "B2" } })
      expect(renamed.status).toBe(200)
      const same = yield* call("PATCH", `/api/servers/${aId}`, { as: DEPLOY, json: { installDir: a.installDir, name: "A2" } })
      expect(same.status).toBe(200)
      const elsewhere = yield* call("PATCH", `/api/servers/${bId}`, { as: ADMIN, json: { installDir: fakeInstall() } })
      expect(elsewhere.status).toBe(200)
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("a restore that would put two entries on one folder is 409 and restores nothing", () =>
    Effect.gen(function* () {
      const aDir = fakeInstall()
      const aId = yield* createdId({ name: "A", installDir: aDir })
      const bId = yield* createdId({ name: "B", installDir: fakeInstall() })
      const backup = yield* call("GET", "/api/backup/servers", { as: ADMIN })
      const servers = backup.body.servers as Array<Record<string, unknown>>
      const [a, b] = [servers.find((s) => s.id === aId)!, servers.find((s) => s.id === bId)!]

      const copy = yield* call("POST", "/api/restore/servers", {
        as: ADMIN,
        json: { ...backup.body, servers: [{ ...b, name: "B renamed" }, { ...a, id: "copy-of-a", name: "Copy" }] }
      })
      expectInUse(copy, { id: aId, name: "A" })
      // Nothing of it was written: B keeps its name, the copy does not exist.
      expect(yield* entryNames).toEqual(["A", "B"])

      const moved = yield* call("POST", "/api/restore/servers", { as: ADMIN, json: { ...backup.body, servers: [{ ...b, installDir: aDir }] } })
      expectInUse(moved, { id: aId, name: "A" })

      const newOnB = yield* call("POST", "/api/restore/servers", { as: ADMIN, json: { ...backup.body, servers: [{ ...b, id: "n0", name: "N0" }] } })
      expectInUse(newOnB, { id: bId, name: "B" })

      const fresh = fakeInstall()
      const twoNew = yield* call("POST", "/api/restore/servers", {
        as: ADMIN,
        json: { ...backup.body, servers: [{ ...b, id: "n1", name: "N1", installDir: fresh }, { ...b, id: "n2", name: "N2", installDir: fresh }] }
      })
      expectInUse(twoNew, { id: "n1", name: "N1" })

      const fine = yield* call("POST", "/api/restore/servers", { as: ADMIN, json: { ...backup.body, servers: [{ ...a, name: "A again" }, b] } })
      expect(fine.status).toBe(200)
      expect(yield* entryNames).toEqual(["A again", "B"])
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("detect warns about a folder an entry has, and names it", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      const id = yield* createdId({ name: "Taken", installDir: dir })
      const taken = yield* call("POST", "/api/servers/detect", { as: DEPLOY, json: { installDir: `${dir}/` } })
      expect(taken.status).toBe(200)
      expect(taken.body.inUseBy).toEqual({ id, name: "Taken" })
      expect(taken.body.warnings).toEqual([
        `installDir: ${dir}/ is already the install folder of server "Taken" (${id}); two entries on one folder would fight over its files; creating this entry would be refused`
      ])
      const free = yield* call("POST", "/api/servers/detect", { as: DEPLOY, json: { installDir: fakeInstall() } })
      expect(free.body.inUseBy).toBeNull()
      expect(free.body.warnings).toEqual([])
    }).pipe(Effect.provide(serversController()))
  )
})

describe("where an install folder may be", () => {
  it.scopedLive("never holding or inside another entry's folder, nor a system folder or Garrison's own, however spelt; the deploy folder is fine", () => {
    const dataDir = tempDir("garrison-folders-data-")
    const deployDir = NodePath.join(dataDir, "servers")
    const backupDir = tempDir("garrison-folders-backups-")
    return Effect.gen(function* () {
      const bDir = fakeInstall()
      const b = yield* Effect.map(call("POST", "/api/servers", { as: ADMIN, json: { name: "B", installDir: bDir } }), (r) => String(r.body.id))
      // An install inside B (its mods folder made into one) and one holding B.
      const inside = NodePath.join(bDir, "nested")
      Fs.mkdirSync(inside)
      Fs.writeFileSync(NodePath.join(inside, "DayZServer"), "", { mode: 0o755 })
      const insideB = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "In B", installDir: inside } })
      expect(insideB.status, JSON.stringify(insideB.body)).toBe(409)
      expect(insideB.body.details).toEqual({ field: "installDir", serverId: b, name: "B", relation: "inside" })
      expect(String(insideB.body.message)).toContain(`lies inside the install folder of server "B" (${b})`)
      // C in a folder of its own; A moving to that folder would hold C.
      const parent = tempDir("garrison-folders-parent-")
      const cDir = NodePath.join(parent, "c")
      for (const dir of [parent, cDir]) {
        Fs.mkdirSync(dir, { recursive: true })
        Fs.writeFileSync(NodePath.join(dir, "DayZServer"), "", { mode: 0o755 })
      }
      const c = yield* Effect.map(call("POST", "/api/servers", { as: ADMIN, json: { name: "C", installDir: cDir, gamePort: 2502 } }), (r) => String(r.body.id))
      const a = yield* Effect.map(call("POST", "/api/servers", { as: ADMIN, json: { name: "A", installDir: fakeInstall(), gamePort: 2602 } }), (r) => String(r.body.id))
      const moved = yield* call("PATCH", `/api/servers/${a}`, { as: ADMIN, json: { installDir: `${parent}/c/..` } })
      expect(moved.status, JSON.stringify(moved.body)).toBe(409)
      expect(moved.body.details).toEqual({ field: "installDir", serverId: c, name: "C", relation: "contains" })
      expect(String(moved.body.message)).toContain(`holds the install folder of server "C" (${c})`)

      // System folders and shared trees, also through a link; Garrison's own folders.
      const linkToEtc = NodePath.join(tempDir("garrison-folders-links-"), "etc")
      Fs.symlinkSync("/etc", linkToEtc)
      const refusals: ReadonlyArray<readonly [string, string]> = [
        ["/etc", "is the system folder /etc"],
        ["/etc/ssh", "lies inside the system folder /etc"],
        [linkToEtc, "is the system folder /etc"],
        ["/", "is /, a whole tree of the host"],
        ["/tmp", "is /tmp, a whole tree of the host"],
        ["/root/dayz", "lies inside the system folder /root"],
        [dataDir, "is the data directory (DATA_DIR)"],
        [NodePath.join(dataDir, "secrets"), "lies inside the data directory (DATA_DIR)"],
        [deployDir, "is the deploy folder (DEPLOY_DIR)"],
        [backupDir, "is the backup folder (BACKUP_DIR)"],
        [NodePath.join(backupDir, "x"), "lies inside the backup folder (BACKUP_DIR)"]
      ]
      for (const [installDir, says] of refusals) {
        const refused = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "X", installDir } })
        expect(refused.status, `${installDir}: ${JSON.stringify(refused.body)}`).toBe(400)
        expect(String(refused.body.message)).toContain(`installDir: ${installDir} ${says}`)
        expect(refused.body.details).toEqual({ field: "installDir" })
      }
      // A folder of its own inside the deploy folder is where deploys put servers.
      const deployed = NodePath.join(deployDir, "chernarus")
      Fs.mkdirSync(deployed, { recursive: true })
      Fs.writeFileSync(NodePath.join(deployed, "DayZServer"), "", { mode: 0o755 })
      expect((yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Deployed", installDir: deployed } })).status).toBe(201)
      // Detect says so too, without refusing.
      const detected = yield* call("POST", "/api/servers/detect", { as: ADMIN, json: { installDir: "/etc" } })
      expect(detected.status).toBe(200)
      expect(detected.body.warnings).toEqual(["installDir: /etc is the system folder /etc; creating this entry would be refused"])
    }).pipe(Effect.provide(serversController([], undefined, dataDir, { BACKUP_DIR: backupDir })))
  })
})

describe("installKey", () => {
  it("follows links and drops . and .. and trailing slashes; a missing folder is compared by its absolute path", () => {
    const dir = tempDir("garrison-key-")
    const link = NodePath.join(tempDir("garrison-key-links-"), "to")
    Fs.symlinkSync(dir, link)
    const key = installKey(dir)
    expect(installKey(`${dir}/`)).toBe(key)
    expect(installKey(`${dir}/./x/..`)).toBe(key)
    expect(installKey(link)).toBe(key)
    expect(installKey(NodePath.join(dir, "gone", ".."))).toBe(key)
    const ignoresCase = process.platform === "win32" || process.platform === "darwin"
    const missing = NodePath.resolve(dir, "missing")
    expect(installKey(missing)).toBe(ignoresCase ? missing.toLowerCase() : missing)
    // Letter case counts as the platform's file systems count it.
    const upper = NodePath.join(dir, "CaseTest")
    Fs.mkdirSync(upper)
    expect(installKey(upper) === installKey(NodePath.join(dir, "casetest"))).toBe(ignoresCase)
  })
})
