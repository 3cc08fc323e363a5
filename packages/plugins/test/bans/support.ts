/**
 * Test support for the bans plugin: fake servers (an actor answering
 * `players` with a reply the test sets, recording every other RCON command)
 * behind a stub "servers" plugin that provides the runtime's `Supervisor`
 * and `ServerEntries` (each entry with a throw-away install folder), a
 * header authenticator, and the controller or bare runtime around them.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import {
  ActorError,
  GarrisonConfig,
  initialState,
  makeServerEntry,
  Plugin,
  Runtime,
  type ServerActor,
  type ServerStatus,
  Supervisor
} from "@garrison/runtime"
import { Duration, Effect, Exit, Layer, Logger, LogLevel, Option, Scope, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { makeBansPlugin } from "../../src/bans/index.js"
import { ServerEntries, ServerNotFound } from "../../src/servers/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

export const tempDir = (prefix: string): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix))
  created.push(dir)
  return dir
}

export interface FakeServer {
  readonly id: string
  readonly installDir: string
  status: ServerStatus
  /** What `players` answers. */
  playersReply: string
  /** Every RCON command but `players`, in order. */
  readonly commands: Array<string>
}

export const NO_PLAYERS = "Players on server:\n(0 players in total)"

/** A `players` reply with these `[slot, guid, name]` rows. */
export const playersReply = (rows: ReadonlyArray<readonly [number, string, string]>): string =>
  [
    "Players on server:",
    "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
    "--------------------------------------------------",
    ...rows.map(([slot, guid, name]) => `${slot}   10.0.0.${slot + 1}:2304     40   ${guid}(OK) ${name}`),
    `(${rows.length} players in total)`
  ].join("\n")

const entryOf = (server: FakeServer) =>
  makeServerEntry({ id: server.id, name: server.id, installDir: server.installDir, watchdog: false })

const fakeActor = (server: FakeServer): ServerActor.ServerActor => ({
  serverId: server.id,
  entry: Effect.sync(() => entryOf(server)),
  state: Effect.sync(() => ({ ...initialState(server.id), status: server.status })),
  changes: Stream.empty,
  start: Effect.sync(() => void (server.status = "running")),
  stop: Effect.sync(() => void (server.status = "stopped")),
  restart: () => Effect.void,
  setLocked: () => Effect.void,
  update: () => Effect.void,
  rcon: (command) =>
    server.status !== "running"
      ? Effect.fail(new ActorError({ serverId: server.id, reason: "not-running", message: "the server is not running" }))
      : command === "players"
      ? Effect.succeed(server.playersReply)
      : Effect.sync(() => {
          server.commands.push(command)
          return ""
        }),
  retire: Effect.void
})

export interface Fleet {
  readonly servers: ReadonlyMap<string, FakeServer>
  readonly plugin: Plugin.Plugin<Supervisor | ServerEntries>
}

export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>): Fleet => {
  const servers = new Map<string, FakeServer>()
  for (const [id, status] of Object.entries(statuses)) {
    servers.set(id, { id, installDir: tempDir(`garrison-bans-${id}-`), status, playersReply: NO_PLAYERS, commands: [] })
  }
  const actors = new Map([...servers.values()].map((s) => [s.id, fakeActor(s)]))
  const list = Effect.sync(() => [...servers.values()].map(entryOf))
  const plugin = Plugin.make({
    id: "servers",
    layer: Layer.merge(
      Layer.succeed(Supervisor, {
        ensure: () => Effect.dieMessage("not in these tests"),
        get: (serverId) => Effect.succeed(Option.fromNullable(actors.get(serverId))),
        find: (serverId) => Effect.succeed(Option.fromNullable(actors.get(serverId))),
        all: Effect.succeed([...actors.values()]),
        remove: () => Effect.void
      }),
      Layer.succeed(ServerEntries, {
        list,
        get: (serverId) => {
          const server = servers.get(serverId)
          return server === undefined ? Effect.fail(new ServerNotFound({ serverId })) : Effect.succeed(entryOf(server))
        },
        insert: () => Effect.dieMessage("not in these tests"),
        update: () => Effect.dieMessage("not in these tests"),
        remove: () => Effect.dieMessage("not in these tests"),
        upsertAll: () => Effect.dieMessage("not in these tests")
      })
    )
  })
  return { servers, plugin }
}

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

const quiet = Logger.minimumLogLevel(LogLevel.Error)

/** The controller over the fleet with the bans plugin (no sync debounce). */
export const bansController = (fleet: Fleet) => {
  const controller = Controller.layerTest([fleet.plugin, makeBansPlugin({ debounce: Duration.zero }), HeaderAuthPlugin]).pipe(
    Layer.provide(GarrisonConfig.layerWith({ dataDir: tempDir("garrison-bans-data-"), trustProxyHops: 1, backupInterval: Duration.days(365_000) })),
    Layer.provide(quiet)
  )
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller>, Layer.Layer.Error<typeof controller>>
}

/** The kernel with the fleet and the bans plugin, in its own scope (for TestClock tests). */
export const startRuntime = (fleet: Fleet) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const layer = Runtime.layer([fleet.plugin, makeBansPlugin({ debounce: Duration.zero })], { scheduledBackups: false }).pipe(
      Layer.provide(GarrisonConfig.layerWith({ dataDir: tempDir("garrison-bans-data-") })),
      Layer.provide(quiet)
    )
    const context = yield* Layer.buildWithScope(layer, scope)
    return { context, stop: Scope.close(scope, Exit.void) }
  })

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  // Tests read fields freely; the assertions check them.
  readonly body: Record<string, unknown> & { readonly [key: string]: unknown }
}

/** `as` is `"<user>:<perm,perm>"`. */
export const call = (method: HttpMethod, path: string, options: { readonly as?: string; readonly json?: unknown } = {}) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return {
      status: response.status,
      headers: response.headers,
      body: (text.length === 0 ? {} : JSON.parse(text)) as Reply["body"]
    } satisfies Reply
  }).pipe(Effect.scoped)

/** Sleeps in wall-clock time, whatever clock the test runs on (files are written by real I/O). */
export const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

export const readBanFile = (server: FakeServer): string => {
  const path = NodePath.join(server.installDir, "ban.txt")
  return Fs.existsSync(path) ? Fs.readFileSync(path, "latin1") : ""
}

/** Polls (wall-clock) until `check` holds for the server's ban.txt, for at most 3 s; returns the text. */
export const banFileWhen = (server: FakeServer, check: (text: string) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 150; i++) {
      const text = readBanFile(server)
      if (check(text)) return text
      yield* realSleep(20)
    }
    return readBanFile(server)
  })

export const server = (fleet: Fleet, id: string): FakeServer => {
  const found = fleet.servers.get(id)
  if (found === undefined) return Effect.runSync(Effect.dieMessage(`no fake server ${id}`))
  return found
}
