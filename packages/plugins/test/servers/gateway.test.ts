/**
 * The `Servers` gateway: one way to find a server, one 404 for a missing
 * one (the same body from every plugin's routes), one 409 for an entry that
 * cannot be read, and a handle whose `GameControl` sends BattlEye's admin
 * commands.
 */
import { describe, expect, it } from "@effect/vitest"
import { GameCapability, makeServerEntry, RconGameControl, ServerNotFound } from "@garrison/runtime"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BansPlugin } from "../../src/bans/index.js"
import { LogsPlugin } from "../../src/logs/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { SchedulerPlugin } from "../../src/scheduler/index.js"
import { call, fakeActor, fakeFleet, fakeInstall, playersReply, startKernel, tempDir, testController } from "@garrison/testkit"
import { Servers } from "../../src/servers/index.js"

const controller = (dataDir?: string) =>
  testController<Servers>(
    [fakeFleet().plugin, PlayersPlugin, BansPlugin, SchedulerPlugin, LogsPlugin],
    { dataPrefix: "garrison-gateway-", settings: dataDir === undefined ? {} : { dataDir } }
  )

const ADMIN = "root:admin"
const GHOST = "0b7c1c4e-1d7e-4a6b-9d1e-5b0f4c9e7a11"

describe("the Servers gateway", () => {
  it.scopedLive("a missing server is the same 404 from every plugin's routes", () =>
    Effect.gen(function* () {
      const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", `/api/servers/${GHOST}/status`],
        ["POST", `/api/servers/${GHOST}/start`],
        ["POST", `/api/servers/${GHOST}/lock`],
        ["GET", `/api/servers/${GHOST}/players`],
        ["POST", `/api/servers/${GHOST}/rcon`, { command: "players" }],
        ["POST", `/api/servers/${GHOST}/message`, { message: "hello" }],
        ["POST", `/api/servers/${GHOST}/players/0/kick`, {}],
        ["POST", `/api/servers/${GHOST}/players/0/ban`, { reason: "cheating" }],
        ["GET", `/api/servers/${GHOST}/scheduler`],
        ["POST", `/api/servers/${GHOST}/scheduler`, { kind: "restart", cron: "0 6 * * *" }],
        ["GET", `/api/servers/${GHOST}/logs`],
        ["GET", `/api/servers/${GHOST}/console`],
        ["GET", `/api/servers/${GHOST}/metrics`]
      ]
      for (const [method, path, json] of routes) {
        const reply = yield* call(method as "GET", path, { as: ADMIN, ...(json === undefined ? {} : { json }) })
        expect({ route: `${method} ${path}`, status: reply.status, body: reply.body }).toEqual({
          route: `${method} ${path}`,
          status: 404,
          body: { error: "not-found", message: `no server with id ${GHOST}`, details: { serverId: GHOST } }
        })
      }
    }).pipe(Effect.provide(controller()))
  )

  it.effect("an entry that cannot be read is the same 409 invalid-entry from every plugin, and gets no actor", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-gateway-")
      const first = yield* startKernel([fakeFleet().plugin], dataDir)
      // As a newer version or a damaged disk might leave it: a port that is not a number.
      yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`INSERT INTO servers (id, name, entry, created_at, updated_at)
          VALUES (${"broken"}, ${"Broken"}, ${JSON.stringify({ id: "broken", name: "Broken", installDir: "/srv/broken", gamePort: "x" })},
            ${"2026-01-01T00:00:00.000Z"}, ${"2026-01-01T00:00:00.000Z"})`
      ).pipe(Effect.provide(first.context))
      yield* first.stop

      yield* Effect.gen(function* () {
        for (const [method, path, json] of [
          ["POST", "/api/servers/broken/start"],
          ["GET", "/api/servers/broken/players"],
          ["GET", "/api/servers/broken/scheduler"],
          ["GET", "/api/servers/broken/logs"]
        ] as ReadonlyArray<readonly [string, string, unknown?]>) {
          const reply = yield* call(method as "GET", path, { as: ADMIN, ...(json === undefined ? {} : { json }) })
          expect(reply.status, `${method} ${path}`).toBe(409)
          expect(reply.body).toMatchObject({ error: "conflict", details: { serverId: "broken", reason: "invalid-entry" } })
          expect((reply.body as { message: string }).message).toMatch(/^server "Broken" \(broken\) cannot be read \(.*gamePort/s)
        }
        const servers = yield* Servers
        expect(yield* servers.supervised).toEqual([])
      }).pipe(Effect.provide(controller(dataDir)))
    })
  )

  it.scopedLive("entry() answers without making an actor; get() makes one; running lists only running servers", () =>
    Effect.gen(function* () {
      const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Quiet", installDir: fakeInstall() } })
      const id = String((created.body as { id: string }).id)
      const servers = yield* Servers
      expect((yield* servers.entry(id)).name).toBe("Quiet")
      expect(yield* servers.running).toEqual([])
      const handle = yield* servers.get(id)
      expect(handle.id).toBe(id)
      expect((yield* handle.state).status).toBe("stopped")
      yield* handle.actor.start
      expect((yield* servers.running).map((server) => server.id)).toEqual([id])
      expect((yield* servers.supervised).map((server) => server.id)).toEqual([id])
      yield* handle.actor.stop
      expect(yield* servers.running).toEqual([])

      // Its files are the install folder's, every path confined to it.
      const installDir = (yield* handle.entry).installDir
      yield* handle.files.makeFolder("notes")
      yield* handle.files.write("notes/motd.txt", "hello")
      expect(Fs.readFileSync(NodePath.join(installDir, "notes", "motd.txt"), "utf8")).toBe("hello")
      expect(new TextDecoder().decode(yield* handle.files.read("notes/motd.txt"))).toBe("hello")
      const escape = yield* Effect.flip(handle.files.read("../../etc/passwd"))
      expect(["invalid-path", "outside-root"]).toContain(escape.problem)
      expect(escape.path).toBe("../../etc/passwd")

      const missing = yield* Effect.flip(servers.get("nope"))
      expect(missing).toEqual(ServerNotFound.of("nope"))
      expect(Option.isNone(yield* Effect.option(servers.entry("nope")))).toBe(true)
      expect((yield* servers.installs).map((entry) => entry.id)).toEqual([id])
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("whileIdle: the work holds a stopped server's files; a start through the API meanwhile is 409 naming it; busy() says why", () =>
    Effect.gen(function* () {
      const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Held", installDir: fakeInstall() } })
      const id = String((created.body as { id: string }).id)
      const servers = yield* Servers
      expect(yield* servers.busy(id)).toBeUndefined()
      const during = yield* servers.whileIdle(id, "mod change", (handle) =>
        Effect.gen(function* () {
          const start = yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })
          return { start, busy: yield* servers.busy(id), status: (yield* handle.state).status }
        })
      )
      expect(during.start.status).toBe(409)
      expect(during.start.body).toMatchObject({ error: "conflict", message: "Held is busy: its mod change is under way; wait for it to end" })
      expect(during.busy).toBe("its mod change is under way")
      expect(during.status).toBe("stopped")
      // The hold ended with the work: the server starts, and then no work may hold it.
      expect(yield* servers.busy(id)).toBeUndefined()
      expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
      expect(yield* servers.busy(id)).toBe("it is running")
      const refused = yield* Effect.flip(servers.whileIdle(id, "mod change", () => Effect.void))
      expect(refused).toMatchObject({ _tag: "ActorError", reason: "already-running", message: "Held is running: stop it before its mod change" })
      yield* call("POST", `/api/servers/${id}/stop`, { as: ADMIN })
      expect(yield* servers.busy(GHOST).pipe(Effect.flip)).toEqual(ServerNotFound.of(GHOST))
    }).pipe(Effect.provide(controller()))
  )
})

describe("GameControl over RCON", () => {
  const guid = "2d3fe9abaa51e04aa876a7bcfe84e0d6"
  const rcon = { protocol: "battleye" as const, host: "127.0.0.1", port: 2306, password: "pw" }

  /** An actor that records what is sent; `players` answers Bravo in slot 3. */
  const recording = () => {
    const sent: Array<string> = []
    const actor = fakeActor("s1", {
      entry: Effect.succeed(makeServerEntry({ id: "s1", name: "One", installDir: "/srv/one", rcon })),
      rcon: (command) =>
        Effect.sync(() => {
          sent.push(command)
          return command === "players" ? playersReply([[3, guid, "Bravo"]]) : ""
        }),
      setLocked: (locked) => Effect.sync(() => void sent.push(locked ? "(actor lock)" : "(actor unlock)"))
    })
    return { sent, control: RconGameControl.make(actor) }
  }

  it.effect("sends BattlEye's admin commands, one line each, naming the player by slot", () =>
    Effect.gen(function* () {
      const { sent, control } = recording()
      const [bravo] = yield* control.players
      expect(bravo).toMatchObject({ slot: 3, name: "Bravo", guid })
      yield* control.kick(bravo!, "Banned:\nteam killing\r\n#shutdown")
      yield* control.broadcast("Restart in 5 minutes")
      yield* control.message(bravo!, "hello\u0000there")
      yield* control.ban(bravo!, { minutes: 90.7, reason: "cheating" })
      yield* control.ban(bravo!, { minutes: -5, reason: "x".repeat(300) })
      yield* control.lock
      yield* control.unlock
      yield* control.shutdown
      expect(yield* control.raw("players\nsay -1 smuggled")).toBe("")
      expect(sent).toEqual([
        "players",
        // A line break would have been a second command: flattened.
        "kick 3 Banned: team killing #shutdown",
        "say -1 Restart in 5 minutes",
        "say 3 hello there",
        "ban 3 90 cheating",
        `ban 3 0 ${"x".repeat(200)}`,
        // Lock goes through the actor, so the server's status shows it.
        "(actor lock)",
        "(actor unlock)",
        "#shutdown",
        "players say -1 smuggled"
      ])
    })
  )

  it.effect("an entry without RCON settings has no capabilities; with them, all of them", () =>
    Effect.gen(function* () {
      const without = RconGameControl.make(
        fakeActor("a", { entry: Effect.succeed(makeServerEntry({ id: "a", name: "A", installDir: "/srv/a" })) })
      )
      expect(yield* without.capabilities).toEqual([])
      const { control } = recording()
      expect(yield* control.capabilities).toEqual(GameCapability.literals)
      expect(control.provider).toBe("rcon")
    })
  )
})
