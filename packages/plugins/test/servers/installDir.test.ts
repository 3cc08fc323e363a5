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
  expect(reply.body.details).toEqual({ field: "installDir", serverId: first.id, name: first.name })
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
