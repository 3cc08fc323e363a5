/**
 * Launch parameters over HTTP: every launch field refuses NUL and other
 * control characters (and extra arguments anything but `-name[=value]`) at
 * create, PATCH, detect and restore, with a 400 naming the field; an entry
 * stored before these rules starts with a 409 naming the field, never a 500,
 * and with the real launcher nothing is spawned.
 */
import { describe, expect, it } from "@effect/vitest"
import { makeServerEntry, ProcessLauncher } from "@garrison/runtime"
import { Effect } from "effect"
import { ServerEntries } from "../../src/servers/index.js"
import { ADMIN, call, fakeInstall, serversController } from "./support.js"

// The launch rules are the subject here; who may set the host-level ones is hostFields.test.ts's.
const DEPLOY = "root:admin"

/** A field, a bad value for it, and the path the 400 must name. */
const badValues: ReadonlyArray<readonly [field: string, value: unknown, path: string]> = [
  ["executable", "DayZ\0Server", "executable"],
  ["configFile", "serverDZ.cfg\0", "configFile"],
  ["configFile", "server\nDZ.cfg", "configFile"],
  ["profilesDir", "prof\0iles", "profilesDir"],
  ["battleyeDir", "\0", "battleyeDir"],
  ["battleyeDir", "", "battleyeDir"],
  ["mods", ["@CF", "@Tra\0der"], "mods.1"],
  ["mods", ["@A;@B"], "mods.0"],
  ["serverMods", ["@Ser\tver"], "serverMods.0"],
  ["extraArgs", ["-cpuCount=4", "-limitFPS=60\0"], "extraArgs.1"],
  ["extraArgs", ["cpuCount=4"], "extraArgs.0"],
  ["extraArgs", ["-"], "extraArgs.0"],
  ["extraArgs", ["-config=/etc/other.cfg"], "extraArgs.0"],
  ["extraArgs", ["-PROFILES=elsewhere"], "extraArgs.0"],
  ["extraArgs", [`-x=${"a".repeat(1100)}`], "extraArgs.0"]
]

const expectRefused = (reply: { status: number; body: Record<string, unknown> }, path: string) => {
  expect([path, reply.status, reply.body.error]).toEqual([path, 400, "invalid-request"])
  expect(String(reply.body.message).startsWith(`${path}: `)).toBe(true)
  expect((reply.body.details as ReadonlyArray<{ path: string }>)[0]?.path).toBe(path)
}

describe("launch parameters", () => {
  it.scopedLive("create refuses each bad launch field with a 400 naming it, and stores nothing", () =>
    Effect.gen(function* () {
      const installDir = fakeInstall()
      for (const [field, value, path] of badValues) {
        expectRefused(yield* call("POST", "/api/servers", { as: DEPLOY, json: { name: "x", installDir, [field]: value } }), path)
      }
      expectRefused(yield* call("POST", "/api/servers", { as: DEPLOY, json: { name: "x", installDir: `${installDir}\0` } }), "installDir")
      expect((yield* call("GET", "/api/servers", { as: DEPLOY })).body.items).toEqual([])

      const fine = yield* call("POST", "/api/servers", {
        as: DEPLOY,
        json: { name: "ok", installDir, extraArgs: ["-cpuCount=4", "-dologs", "-mission=./mpmissions/my mission.chernarusplus"], mods: ["@CF"] }
      })
      expect(fine.status).toBe(201)
      expect(fine.body.extraArgs).toEqual(["-cpuCount=4", "-dologs", "-mission=./mpmissions/my mission.chernarusplus"])
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("PATCH refuses the same, and leaves the entry as it was", () =>
    Effect.gen(function* () {
      const created = yield* call("POST", "/api/servers", { as: DEPLOY, json: { name: "x", installDir: fakeInstall() } })
      const id = String(created.body.id)
      for (const [field, value, path] of [...badValues, ["installDir", "/srv/\0dayz", "installDir"] as const]) {
        expectRefused(yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { [field]: value } }), path)
      }
      const entries = yield* ServerEntries
      expect(yield* entries.get(id)).toMatchObject({ configFile: "serverDZ.cfg", profilesDir: "profiles", mods: [], extraArgs: [] })
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("detect and restore refuse them too", () =>
    Effect.gen(function* () {
      const installDir = fakeInstall()
      expectRefused(yield* call("POST", "/api/servers/detect", { as: DEPLOY, json: { installDir: `${installDir}\0x` } }), "installDir")

      yield* call("POST", "/api/servers", { as: DEPLOY, json: { name: "x", installDir } })
      const backup = yield* call("GET", "/api/backup/servers", { as: ADMIN })
      const server = (backup.body.servers as ReadonlyArray<Record<string, unknown>>)[0]!
      for (const [field, value, path] of badValues) {
        const reply = yield* call("POST", "/api/restore/servers", {
          as: ADMIN,
          json: { ...backup.body, servers: [{ ...server, [field]: value }] }
        })
        expectRefused(reply, `servers.0.${path}`)
      }
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("an entry stored before these rules starts with a 409 naming the field, with the real launcher, spawning nothing", () =>
    Effect.gen(function* () {
      const entries = yield* ServerEntries
      // One install each: a folder has one entry.
      const stored = [
        makeServerEntry({ id: "nul-config", name: "Old 1", installDir: fakeInstall(), configFile: "serverDZ.cfg\0" }),
        makeServerEntry({ id: "nul-args", name: "Old 2", installDir: fakeInstall(), extraArgs: ["-cpuCount=4", "-x\0"] }),
        makeServerEntry({ id: "nul-dir", name: "Old 3", installDir: `${fakeInstall()}\0` }),
        makeServerEntry({ id: "bare-arg", name: "Old 4", installDir: fakeInstall(), extraArgs: ["whatever"] })
      ]
      // Each on a port slot of its own, as any two entries must be.
      for (const entry of stored) yield* entries.insert(entry, { freeGamePort: true })
      const expected: Record<string, string> = {
        "nul-config": "configFile: a path must not contain a NUL character",
        "nul-args": "extraArgs.1: an argument must not contain a NUL character",
        "nul-dir": "installDir: a path must not contain a NUL character",
        "bare-arg": "extraArgs.0: an argument must look like -name or -name=value"
      }
      for (const entry of stored) {
        const reply = yield* call("POST", `/api/servers/${entry.id}/start`, { as: DEPLOY })
        expect([entry.id, reply.status, reply.body.error]).toEqual([entry.id, 409, "conflict"])
        expect(reply.body.message).toContain(`${entry.name} cannot start: ${expected[entry.id]}`)
        expect(reply.body.details).toEqual({ reason: "invalid-entry" })
        const status = yield* call("GET", `/api/servers/${entry.id}/status`, { as: DEPLOY })
        expect(status.body).toMatchObject({ status: "stopped", pid: null })
        expect(String(status.body.lastError)).toContain(expected[entry.id]!)
      }
      const batch = yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "start", ids: ["nul-config"] } })
      expect(batch.body.results).toMatchObject([{ id: "nul-config", ok: false, status: 409, error: "conflict" }])
      // Fixing the field is how the entry becomes startable again.
      const fixed = yield* call("PATCH", "/api/servers/nul-config", { as: DEPLOY, json: { configFile: "serverDZ.cfg" } })
      expect(fixed.status).toBe(200)
    }).pipe(Effect.provide(serversController([], ProcessLauncher.node)))
  )
})
