/**
 * Test support for the bans plugin: fake servers (an actor answering
 * `players` with a reply the test sets, recording every other RCON command)
 * behind the stub "servers" plugin (each entry with a throw-away install
 * folder), and the controller or bare runtime around them.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { ActorError, initialState, makeServerEntry, type ServerStatus } from "@garrison/runtime"
import { Duration, Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { makeBansPlugin } from "../../src/bans/index.js"
import { type CallOptions, jsonBody, realSleep, request, startKernel, testController } from "../support/controller.js"
import { fakeActor, identifiedPlayers, NO_PLAYERS, stubServersPlugin } from "../support/fakeServers.js"
import { tempDir } from "../support/tempDir.js"

export { NO_PLAYERS, playersReply } from "../support/fakeServers.js"
export { eventually, realSleep, sleepingUntil, sleepsOnTestClock } from "../support/controller.js"
export { tempDir } from "../support/tempDir.js"

export interface FakeServer {
  readonly id: string
  readonly installDir: string
  status: ServerStatus
  /** What `players` answers. */
  playersReply: string
  /** What the server's RPT and ADM logs say, for the ids of its players (none by default). */
  logLines: ReadonlyArray<string>
  /** Every RCON command but `players`, in order. */
  readonly commands: Array<string>
}

const entryOf = (server: FakeServer) =>
  makeServerEntry({ id: server.id, name: server.id, installDir: server.installDir, watchdog: false })

const notRunning = (server: FakeServer) =>
  Effect.fail(new ActorError({ serverId: server.id, reason: "not-running", message: "the server is not running" }))

const actorOf = (server: FakeServer) =>
  fakeActor(server.id, {
    players: Effect.suspend(() =>
      server.status !== "running" ? notRunning(server) : Effect.sync(() => identifiedPlayers(server.playersReply, server.logLines))
    ),
    entry: Effect.sync(() => entryOf(server)),
    state: Effect.sync(() => ({ ...initialState(server.id), status: server.status })),
    start: Effect.sync(() => void (server.status = "running")),
    stop: Effect.sync(() => void (server.status = "stopped")),
    restart: () => Effect.void,
    setLocked: () => Effect.void,
    update: () => Effect.void,
    rcon: (command) =>
      server.status !== "running"
        ? notRunning(server)
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
  readonly plugin: ReturnType<typeof stubServersPlugin>
}

export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>): Fleet => {
  const servers = new Map<string, FakeServer>()
  for (const [id, status] of Object.entries(statuses)) {
    servers.set(id, { id, installDir: tempDir(`garrison-bans-${id}-`), status, playersReply: NO_PLAYERS, logLines: [], commands: [] })
  }
  const actors = new Map([...servers.values()].map((s) => [s.id, actorOf(s)]))
  return { servers, plugin: stubServersPlugin(actors) }
}

/** The controller over the fleet with the bans plugin (no sync debounce). */
export const bansController = (fleet: Fleet) =>
  testController([fleet.plugin, makeBansPlugin({ debounce: Duration.zero })], {
    dataPrefix: "garrison-bans-data-",
    trustProxyHops: 1,
    logLevel: LogLevel.Error
  })

/** The kernel with the fleet and the bans plugin, in its own scope (for TestClock tests), on `dataDir` or a new one. */
export const startRuntime = (fleet: Fleet, dataDir?: string) =>
  Effect.suspend(() =>
    startKernel([fleet.plugin, makeBansPlugin({ debounce: Duration.zero })], dataDir ?? tempDir("garrison-bans-data-"))
  )

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  // Tests read fields freely; the assertions check them.
  readonly body: Record<string, unknown> & { readonly [key: string]: unknown }
}

/** `as` is `"<user>:<perm,perm>"`; an empty body reads as `{}`. */
export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, headers, text }): Reply => ({ status, headers, body: jsonBody<Reply["body"]>(text, {}) }))

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
