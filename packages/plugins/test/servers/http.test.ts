/**
 * The servers plugin in an in-process controller over fake processes:
 * validation, masking, 404s and 409s, batch and the config backup.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ServerEntries, Servers } from "../../src/servers/index.js"
import { ADMIN, call, fakeInstall, serversController } from "./support.js"

const DEPLOY = "dep:server.deploy,server.start,server.stop,server.restart,server.rcon"

const controller = serversController

const create = (body: Record<string, unknown>) => call("POST", "/api/servers", { as: DEPLOY, json: body })

const createdId = (body: Record<string, unknown>) =>
  Effect.map(create(body), (reply) => {
    expect(reply.status).toBe(201)
    return String(reply.body.id)
  })

describe("creating entries", () => {
  it.scopedLive("validates the body, the folder and the binary", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      const noName = yield* create({ installDir: dir })
      expect(noName.status).toBe(400)
      expect(noName.body.error).toBe("invalid-request")

      const relative = yield* create({ name: "a", installDir: "srv/dayz" })
      expect(relative.status).toBe(400)
      expect(relative.body.message).toContain("absolute")

      // (The executable is admin's: see hostFields.test.ts.)
      const missing = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "a", installDir: dir, executable: "DayZServer_x64.exe" } })
      expect(missing.status).toBe(400)
      expect(missing.body.message).toContain(NodePath.join(dir, "DayZServer_x64.exe"))

      const badMod = yield* create({ name: "a", installDir: dir, mods: ["@A;@B"] })
      expect(badMod.status).toBe(400)

      const forbidden = yield* call("POST", "/api/servers", { as: "v:server.view", json: { name: "a", installDir: dir } })
      expect(forbidden.status).toBe(403)
      expect((yield* call("GET", "/api/servers")).status).toBe(401)
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("fills defaults and RCON from the BattlEye config, preferring the active one, and masks the password", () =>
    Effect.gen(function* () {
      const plain = yield* create({ name: "Plain", installDir: fakeInstall({ rconPort: 2306 }) })
      expect(plain.status).toBe(201)
      expect(plain.body).toMatchObject({
        name: "Plain",
        executable: "DayZServer",
        configFile: "serverDZ.cfg",
        gamePort: 2302,
        profilesDir: "profiles",
        battleyeDir: "battleye",
        watchdog: true,
        rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: "********" },
        status: "stopped",
        pid: null,
        playerCount: 0,
        players: []
      })

      const active = yield* create({ name: "Active", installDir: fakeInstall({ activeConfig: true }) })
      expect(active.body.rcon).toEqual({ protocol: "battleye", host: "127.0.0.1", port: 2406, password: "********" })
      // No game port given and 2302 is Plain's: the next slot.
      expect(active.body.gamePort).toBe(2402)

      const entries = yield* ServerEntries
      expect((yield* entries.get(String(active.body.id))).rcon?.password).toBe("activepw")

      const list = yield* call("GET", "/api/servers", { as: "v:" })
      expect(list.status).toBe(200)
      const servers = list.body.items as ReadonlyArray<Record<string, unknown>>
      expect(servers.map((s) => s.name)).toEqual(["Plain", "Active"])
      expect(list.body).toMatchObject({ nextCursor: null, total: 2 })
      expect(JSON.stringify(list.body)).not.toContain("filepw")
      expect(JSON.stringify(list.body)).not.toContain("activepw")
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("detect proposes an entry without saving it", () =>
    Effect.gen(function* () {
      const dir = fakeInstall({ rconPort: 2306 })
      const reply = yield* call("POST", "/api/servers/detect", { as: DEPLOY, json: { installDir: dir } })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        entry: {
          name: "Detected Server",
          installDir: dir,
          executable: "DayZServer",
          mods: ["@CF", "@Trader"],
          rcon: { port: 2306, password: "********" }
        },
        found: { executable: true, configFile: true, battleyeConfig: NodePath.join(dir, "battleye", "beserver_x64.cfg") }
      })
      expect(((yield* call("GET", "/api/servers", { as: "v:" })).body.items as Array<unknown>).length).toBe(0)
      expect((yield* call("POST", "/api/servers/detect", { as: DEPLOY, json: { installDir: "relative" } })).status).toBe(400)
    }).pipe(Effect.provide(controller()))
  )
})

describe("listing", () => {
  it.scopedLive("GET /api/servers pages with limit and cursor; a bad limit or cursor is a 400 naming it", () =>
    Effect.gen(function* () {
      const ids = [
        yield* createdId({ name: "One", installDir: fakeInstall() }),
        yield* createdId({ name: "Two", installDir: fakeInstall() }),
        yield* createdId({ name: "Three", installDir: fakeInstall() })
      ]
      const first = yield* call("GET", "/api/servers?limit=2", { as: "v:" })
      expect(first.status).toBe(200)
      expect((first.body.items as ReadonlyArray<{ id: string }>).map((row) => row.id)).toEqual(ids.slice(0, 2))
      expect(first.body.total).toBe(3)
      expect(typeof first.body.nextCursor).toBe("string")
      const rest = yield* call("GET", `/api/servers?limit=2&cursor=${String(first.body.nextCursor)}`, { as: "v:" })
      expect((rest.body.items as ReadonlyArray<{ id: string }>).map((row) => row.id)).toEqual(ids.slice(2))
      expect(rest.body.nextCursor).toBeNull()

      const tooMany = yield* call("GET", "/api/servers?limit=10001", { as: "v:" })
      expect(tooMany.status).toBe(400)
      expect(tooMany.body.message).toBe("limit must be an integer from 1 to 10000 (got 10001)")
      const forged = yield* call("GET", "/api/servers?cursor=bm90LWEtY3Vyc29y", { as: "v:" })
      expect(forged.status).toBe(400)
      expect(forged.body.details).toEqual([{ path: "cursor", message: "is not one this list returned" }])
    }).pipe(Effect.provide(controller()))
  )
})

describe("reading one entry", () => {
  it.scopedLive("GET /api/servers/:id answers the entry with its secrets masked, to server.deploy on that server only", () =>
    Effect.gen(function* () {
      const dir = fakeInstall({ activeConfig: true })
      // The agent's URL is an admin's to set.
      const made = yield* call("POST", "/api/servers", {
        as: ADMIN,
        json: { name: "Read Me", installDir: dir, mods: ["@CF"], agent: { url: "http://127.0.0.1:9100", apiKey: "agent-secret-key-123" } }
      })
      expect(made.status).toBe(201)
      const id = String(made.body.id)
      const other = yield* createdId({ name: "Other", installDir: fakeInstall() })

      const read = yield* call("GET", `/api/servers/${id}`, { as: `mod:server.deploy@${id}` })
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({
        id,
        name: "Read Me",
        installDir: dir,
        mods: ["@CF"],
        rcon: { port: 2406, password: "********" },
        agent: { url: "http://127.0.0.1:9100", apiKey: "********" },
        status: "stopped"
      })
      expect(JSON.stringify(read.body)).not.toContain("activepw")
      expect(JSON.stringify(read.body)).not.toContain("agent-secret-key-123")

      // Scoped to one server: the other entry's folders stay out of reach, and so do they for a viewer.
      expect((yield* call("GET", `/api/servers/${other}`, { as: `mod:server.deploy@${id}` })).status).toBe(403)
      expect((yield* call("GET", `/api/servers/${id}`, { as: "v:server.view" })).status).toBe(403)
      expect((yield* call("GET", "/api/servers/7d0c5a8e-0b1f-4c39-9d1a-2f8e6b4c3a10", { as: ADMIN })).status).toBe(404)
    }).pipe(Effect.provide(controller()))
  )
})

describe("server lifecycle over HTTP", () => {
  it.scopedLive("404 for unknown ids", () =>
    Effect.gen(function* () {
      for (const [method, path] of [
        ["GET", "/api/servers/nope/status"],
        ["POST", "/api/servers/nope/start"],
        ["POST", "/api/servers/nope/stop"],
        ["PATCH", "/api/servers/nope"],
        ["DELETE", "/api/servers/nope"]
      ] as const) {
        const reply = yield* call(method, path, { as: ADMIN, ...(method === "PATCH" ? { json: { name: "x" } } : {}) })
        expect(reply.status, `${method} ${path}`).toBe(404)
        expect(reply.body.error).toBe("not-found")
      }
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("start, 409s while running, lock needs RCON, stop, delete", () =>
    Effect.gen(function* () {
      const id = yield* createdId({ name: "Life", installDir: fakeInstall(), rcon: undefined })
      const started = yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOY })
      expect(started.status).toBe(200)
      expect(started.body).toMatchObject({ id, status: "running" })
      expect(typeof started.body.pid).toBe("number")

      // The list shows one summary row per entry with the live state; settings stay in GET /:id.
      const idle = yield* createdId({ name: "Idle", installDir: fakeInstall(), gamePort: 2402 })
      const rows = (yield* call("GET", "/api/servers", { as: "v:" })).body.items as ReadonlyArray<Record<string, unknown>>
      expect(Object.keys(rows[0]!).sort()).toEqual(
        [
          "id", "name", "gamePort", "status", "pid", "playerCount", "uptime", "cpu", "ram", "map", "version", "locked",
          "rconStatus", "lastError", "consecutiveCrashes", "operation"
        ].sort()
      )
      expect(rows.find((row) => row.id === id)).toMatchObject({ name: "Life", status: "running", pid: started.body.pid })
      expect(rows.find((row) => row.id === idle)).toMatchObject({ name: "Idle", gamePort: 2402, status: "stopped", pid: null })
      yield* call("PATCH", `/api/servers/${idle}`, { as: DEPLOY, json: { name: "Idle renamed" } })
      const renamed = (yield* call("GET", "/api/servers", { as: "v:" })).body.items as ReadonlyArray<Record<string, unknown>>
      expect(renamed.find((row) => row.id === idle)?.name).toBe("Idle renamed")

      const again = yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOY })
      expect(again.status).toBe(409)
      expect(again.body.message).toContain("already running")

      const remove = yield* call("DELETE", `/api/servers/${id}`, { as: DEPLOY })
      expect(remove.status).toBe(409)

      // The fake server has RCON settings (from its BattlEye config) but nothing answers: 503.
      const lock = yield* call("POST", `/api/servers/${id}/lock`, { as: DEPLOY })
      expect(lock.status).toBe(503)

      const status = yield* call("GET", `/api/servers/${id}/status`, { as: "v:" })
      expect(status.body).toMatchObject({ id, name: "Life", status: "running", locked: false })

      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: "s:server.start" })).status).toBe(403)
      const stopped = yield* call("POST", `/api/servers/${id}/stop`, { as: DEPLOY })
      expect(stopped.status).toBe(200)
      expect(stopped.body).toMatchObject({ status: "stopped", pid: null })
      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: DEPLOY })).status).toBe(409)
      expect((yield* call("POST", `/api/servers/${id}/lock`, { as: DEPLOY })).status).toBe(409)

      const deleted = yield* call("DELETE", `/api/servers/${id}`, { as: DEPLOY })
      expect(deleted.status).toBe(200)
      expect((yield* call("GET", `/api/servers/${id}/status`, { as: "v:" })).status).toBe(404)
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("a long operation shows in the status and the list; a stop cancels it", () =>
    Effect.gen(function* () {
      const id = yield* createdId({ name: "Busy", installDir: fakeInstall() })
      const { actor } = yield* Effect.flatMap(Servers, (servers) => servers.get(id))
      const underway = yield* Deferred.make<void>()
      const update = yield* Effect.fork(
        Effect.flip(
          actor.runOperation("update", (context) =>
            Effect.zipRight(context.progress(0.25, "downloading 25%"), Effect.zipRight(Deferred.succeed(underway, undefined), Effect.never))
          )
        )
      )
      yield* Deferred.await(underway)
      const status = (yield* call("GET", `/api/servers/${id}/status`, { as: "v:" })).body
      expect(status).toMatchObject({ status: "updating", operation: { kind: "update", progress: 0.25, message: "downloading 25%" } })
      expect(Date.parse(String((status.operation as { startedAt: string }).startedAt))).not.toBeNaN()
      const rows = (yield* call("GET", "/api/servers", { as: "v:" })).body.items as ReadonlyArray<Record<string, unknown>>
      expect(rows.find((row) => row.id === id)?.operation).toMatchObject({ kind: "update", progress: 0.25 })

      // Another lifecycle command is refused while it runs, naming it; the stop cancels it.
      const busy = yield* call("POST", `/api/servers/${id}/restart`, { as: DEPLOY })
      expect(busy.status).toBe(409)
      expect(busy.body.message).toContain("its update is running")
      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: DEPLOY })).status).toBe(200)
      expect((yield* Fiber.join(update)).reason).toBe("cancelled")
      expect((yield* call("GET", `/api/servers/${id}/status`, { as: "v:" })).body).toMatchObject({ status: "stopped", operation: null })
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("a spawn failure is a 500 naming the reason", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      Fs.writeFileSync(NodePath.join(dir, "fails"), "")
      const made = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Broken", installDir: dir, executable: "fails" } })
      expect(made.status).toBe(201)
      const id = String(made.body.id)
      const reply = yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOY })
      expect(reply.status).toBe(500)
      expect(reply.body.error).toBe("internal")
      expect(reply.body.message).toContain("EACCES")
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("PATCH keeps the RCON password unless one is sent or the destination moves, and validates a moved install", () =>
    Effect.gen(function* () {
      const id = yield* createdId({ name: "P", installDir: fakeInstall() })
      const entries = yield* ServerEntries
      // The masked password keeps the stored one while host and port stay.
      const renamed = yield* call("PATCH", `/api/servers/${id}`, {
        as: DEPLOY,
        json: { name: "Renamed", rcon: { password: "********" }, stop: { terminateWaitMs: 100 } }
      })
      expect(renamed.status).toBe(200)
      const port = (yield* entries.get(id)).rcon?.port
      expect(renamed.body).toMatchObject({ name: "Renamed", rcon: { port, password: "********" }, stop: { terminateWaitMs: 100 } })
      expect((yield* entries.get(id)).rcon?.password).toBe("filepw")

      // A new port (admin's) with the mask: the stored password would follow it; the request must carry one.
      const followed = yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { rcon: { port: 2999, password: "********" } } })
      expect(followed.status).toBe(400)
      expect(followed.body).toMatchObject({ error: "invalid-request", details: [{ path: "rcon.password" }] })
      expect((yield* entries.get(id)).rcon).toMatchObject({ port, password: "filepw" })
      expect((yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { rcon: { port: 2999, password: "portpw" } } })).status).toBe(200)
      expect((yield* entries.get(id)).rcon).toMatchObject({ password: "portpw", port: 2999 })

      yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { rcon: { password: "newpw" } } })
      expect((yield* entries.get(id)).rcon).toMatchObject({ password: "newpw", port: 2999 })

      const moved = yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { installDir: "/nonexistent/garrison" } })
      expect(moved.status).toBe(400)
      expect((yield* entries.get(id)).installDir).not.toBe("/nonexistent/garrison")
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("batch answers per server", () =>
    Effect.gen(function* () {
      const a = yield* createdId({ name: "A", installDir: fakeInstall() })
      const b = yield* createdId({ name: "B", installDir: fakeInstall() })
      const first = yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "start", ids: [a, "ghost"] } })
      expect(first.status).toBe(200)
      expect(first.body.results).toEqual([
        { id: a, ok: true, status: 200 },
        { id: "ghost", ok: false, status: 404, error: "not-found", message: "no server with id ghost" }
      ])
      const second = yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "start", ids: [a, b] } })
      expect(second.body.results).toMatchObject([
        { id: a, ok: false, status: 409, error: "conflict" },
        { id: b, ok: true, status: 200 }
      ])
      const stop = yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "stop", ids: [a, b] } })
      expect((stop.body.results as Array<{ ok: boolean }>).every((r) => r.ok)).toBe(true)
      expect((yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "explode", ids: [a] } })).status).toBe(400)
      expect((yield* call("POST", "/api/servers/batch", { as: DEPLOY, json: { action: "stop", ids: [] } })).status).toBe(400)
    }).pipe(Effect.provide(controller()))
  )
})

describe("servers config backup", () => {
  it.scopedLive("exports masked entries and restores them, keeping stored passwords", () =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      const id = yield* createdId({ name: "Kept", installDir: dir, rcon: { password: "secret-one" } })
      expect((yield* call("GET", "/api/backup/servers", { as: DEPLOY })).status).toBe(403)
      const backup = yield* call("GET", "/api/backup/servers", { as: ADMIN })
      expect(backup.status).toBe(200)
      expect(backup.body.kind).toBe("garrison.servers")
      expect(JSON.stringify(backup.body)).not.toContain("secret-one")

      const servers = backup.body.servers as Array<Record<string, unknown>>
      const clashing = { ...servers[0]!, id: "restored-1", name: "Copy", installDir: fakeInstall() }
      // Kept's game port again: refused, naming the port and Kept, and nothing restored.
      const refused = yield* call("POST", "/api/restore/servers", {
        as: ADMIN,
        json: { ...backup.body, servers: [{ ...servers[0]!, name: "Kept 2" }, clashing] }
      })
      expect(refused.status).toBe(409)
      expect(refused.body.message).toContain(`gamePort: port 2302 is already taken by server "Kept 2" (${id})`)
      expect(refused.body.details).toMatchObject({ field: "gamePort", port: 2302, serverId: id, name: "Kept 2" })
      expect((yield* ServerEntries.pipe(Effect.flatMap((e) => e.get(id)))).name).toBe("Kept")

      // Its RCon port came with the backup too (Kept's): a slot of its own needs both.
      const copy = { ...clashing, gamePort: 2402, rcon: { ...(servers[0]!.rcon as object), port: 2406 } }
      const restore = yield* call("POST", "/api/restore/servers", {
        as: ADMIN,
        json: { ...backup.body, servers: [{ ...servers[0]!, name: "Kept 2" }, copy] }
      })
      expect(restore.status).toBe(200)
      expect(restore.body).toEqual({ created: ["restored-1"], updated: [id] })

      const entries = yield* ServerEntries
      expect(yield* entries.get(id)).toMatchObject({ name: "Kept 2", rcon: { password: "secret-one" } })
      // A new entry's password comes from its install's BattlEye config.
      expect((yield* entries.get("restored-1")).rcon?.password).toBe("filepw")
      expect((yield* call("GET", "/api/servers/restored-1/status", { as: "v:" })).body.name).toBe("Copy")

      expect((yield* call("POST", "/api/restore/servers", { as: ADMIN, json: { kind: "garrison.users", version: 1, servers: [] } })).status).toBe(400)
    }).pipe(Effect.provide(controller()))
  )
})

describe("the agent of an entry", () => {
  it.scopedLive("is set on create, shown with its key masked, kept by a masked PATCH, changed, removed with null; bad URLs are 400", () =>
    Effect.gen(function* () {
      // The agent's URL is admin's (hostFields.test.ts); its key and the rest are the deployer's.
      const made = yield* call("POST", "/api/servers", {
        as: ADMIN,
        json: { name: "With agent", installDir: fakeInstall(), agent: { url: "http://127.0.0.1:9100", apiKey: "agent-key-1" } }
      })
      expect(made.status).toBe(201)
      expect(made.body.agent).toEqual({ url: "http://127.0.0.1:9100", apiKey: "********" })
      expect(JSON.stringify(made.body)).not.toContain("agent-key-1")
      const id = String(made.body.id)
      const entries = yield* ServerEntries
      expect((yield* entries.get(id)).agent).toEqual({ url: "http://127.0.0.1:9100", apiKey: "agent-key-1" })

      // The masked key keeps the key while the URL stays; a new URL must come with its own key.
      expect((yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { name: "Kept", agent: { apiKey: "********" } } })).status).toBe(200)
      expect((yield* entries.get(id)).agent).toEqual({ url: "http://127.0.0.1:9100", apiKey: "agent-key-1" })
      const followed = yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { agent: { url: "https://agent.example:9443", apiKey: "********" } } })
      expect(followed.status).toBe(400)
      expect(followed.body).toMatchObject({ details: [{ path: "agent.apiKey" }] })
      expect((yield* entries.get(id)).agent).toEqual({ url: "http://127.0.0.1:9100", apiKey: "agent-key-1" })
      const moved = yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { agent: { url: "https://agent.example:9443", apiKey: "agent-key-9" } } })
      expect(moved.status).toBe(200)
      expect((yield* entries.get(id)).agent).toEqual({ url: "https://agent.example:9443", apiKey: "agent-key-9" })
      yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { agent: { apiKey: "agent-key-2" } } })
      expect((yield* entries.get(id)).agent?.apiKey).toBe("agent-key-2")
      expect(JSON.stringify((yield* call("GET", "/api/backup/servers", { as: ADMIN })).body)).not.toContain("agent-key-2")

      for (const [agent, says] of [
        [{ url: "ftp://127.0.0.1:9100" }, "must start with http:// or https://"],
        [{ url: "http://user:pw@127.0.0.1:9100" }, "must not carry a user or password"],
        [{ url: "not a url" }, "must be an absolute http(s) URL"]
      ] as const) {
        const refused = yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { agent } })
        expect(refused.status, JSON.stringify(agent)).toBe(400)
        expect(String(refused.body.message)).toContain(says)
      }
      const noUrl = yield* create({ name: "No URL", installDir: fakeInstall(), gamePort: 2402, agent: { apiKey: "k" } })
      expect(noUrl.status).toBe(400)
      expect(noUrl.body.message).toBe("agent.url: required for a new agent (for example http://127.0.0.1:9100)")

      expect((yield* call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: { agent: null } })).body.agent).toBeNull()
      expect((yield* entries.get(id)).agent).toBeUndefined()
    }).pipe(Effect.provide(controller()))
  )
})
