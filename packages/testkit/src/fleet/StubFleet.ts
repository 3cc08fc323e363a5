/**
 * Game servers without processes, for plugins tested without real
 * actors: each has an install folder and a state the test sets, answers
 * `players` and RCON commands as the test says, and records what it was
 * asked. `plugin()` serves them through `stubServersPlugin`.
 *
 * ```ts
 * const fleet = new StubFleet()
 * const alpha = fleet.add("alpha", { status: "running" })
 * alpha.playersReply = playersReply([[3, GUID, "Survivor"]])
 * const layer = testController([fleet.plugin(), makeBansPlugin()])
 * // ... then: expect(alpha.commands).toEqual(["kick 3 Banned: cheating"])
 * ```
 */
import type { ServerEntries, Servers } from "@garrison/plugins/servers"
import {
  ActorError,
  initialState,
  type Plugin,
  type ServerFileSync,
  type Supervisor,
  makeServerEntry,
  type ServerActor,
  type ServerEntry,
  type ServerState,
  type ServerStatus
} from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { tempDir } from "../TempDir.js"
import { fakeActor } from "./FakeActor.js"
import { identifiedPlayers, NO_PLAYERS } from "./Players.js"
import { type StubServersOptions, stubServersPlugin } from "./StubServers.js"

/** Something a stub server was asked to do (`players` queries are left out). */
export interface ActorCall {
  readonly serverId: string
  /** When, as an ISO time from `Clock` (the TestClock in `it.effect`). */
  readonly at: string
  readonly op: "rcon" | "restart" | "stop" | "lock" | "unlock"
  /** The RCON command, or the restart's reason. */
  readonly arg?: string
}

/** One stub server; the test changes its fields at will. */
export class StubServer {
  /** Every RCON command but `players`, in order. */
  readonly commands: Array<string> = []
  /** What `players` answers (nobody by default). */
  playersReply = NO_PLAYERS
  /** What the server's logs say, so its players are identified by their ids (none by default). */
  logLines: ReadonlyArray<string> = []
  /** Every RCON command (`players` too) fails as timed out while set. */
  rconFails = false

  constructor(
    /** Its entry, as `Servers` and `ServerEntries` answer it. */
    public entry: ServerEntry,
    /** Its state, as the actor answers it. */
    public state: ServerState
  ) {}

  get id(): string {
    return this.entry.id
  }
  get installDir(): string {
    return this.entry.installDir
  }
  /** The profiles folder (in the install folder, made with it). */
  get profiles(): string {
    return NodePath.join(this.entry.installDir, "profiles")
  }
  get status(): ServerStatus {
    return this.state.status
  }
  set status(status: ServerStatus) {
    this.state = { ...this.state, status }
  }
  /** Changes part of the state (players, CPU, memory, ...). */
  set(patch: Partial<ServerState>): void {
    this.state = { ...this.state, ...patch }
  }
}

export interface AddOptions {
  /** `stopped` by default. */
  readonly status?: ServerStatus
  /**
   * Fields of its entry: the name is the id, the install folder a
   * throw-away one with `profiles/` (removed after the test file), the
   * watchdog off, unless given here.
   */
  readonly entry?: Partial<ServerEntry>
}

export class StubFleet {
  readonly servers = new Map<string, StubServer>()
  private readonly actors = new Map<string, ServerActor.ServerActor>()
  private readonly calls: Array<ActorCall> = []

  /** Stub servers with these ids and statuses. */
  static of(statuses: Readonly<Record<string, ServerStatus>>): StubFleet {
    const fleet = new StubFleet()
    for (const [id, status] of Object.entries(statuses)) fleet.add(id, { status })
    return fleet
  }

  add(id: string, options: AddOptions = {}): StubServer {
    const installDir = options.entry?.installDir ?? tempDir(`garrison-stub-${id}-`)
    if (options.entry?.installDir === undefined) Fs.mkdirSync(NodePath.join(installDir, "profiles"))
    const entry = makeServerEntry({ id, name: id, installDir, watchdog: false, ...options.entry })
    const server = new StubServer(entry, { ...initialState(id), status: options.status ?? "stopped" })
    this.servers.set(id, server)
    this.actors.set(id, this.actorOf(server))
    return server
  }

  /** The server with this id; dies when there is none. */
  server(id: string): StubServer {
    const found = this.servers.get(id)
    if (found === undefined) return Effect.runSync(Effect.dieMessage(`no stub server ${id}`))
    return found
  }

  /** What the servers were asked since the last `takeCalls`, in order. */
  readonly takeCalls: Effect.Effect<ReadonlyArray<ActorCall>> = Effect.sync(() => this.calls.splice(0))

  /** The stub servers plugin over these servers (see `stubServersPlugin`). */
  plugin(options: StubServersOptions = {}): Plugin.Plugin<Supervisor | ServerEntries | Servers | ServerFileSync, ServerFileSync> {
    return stubServersPlugin(this.actors, options)
  }

  private actorOf(server: StubServer): ServerActor.ServerActor {
    const serverId = server.id
    const record = (op: ActorCall["op"], arg?: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) =>
        Effect.sync(() => void this.calls.push({ serverId, at: new Date(ms).toISOString(), op, ...(arg === undefined ? {} : { arg }) }))
      )
    const refused = (reason: "rcon-failed" | "not-running", message: string) => Effect.fail(new ActorError({ serverId, reason, message }))
    const reachable = Effect.suspend(() =>
      server.rconFails
        ? refused("rcon-failed", "RCON timed out")
        : server.status !== "running"
          ? refused("not-running", "the server is not running")
          : Effect.void
    )
    return fakeActor(serverId, {
      entry: Effect.sync(() => server.entry),
      state: Effect.sync(() => server.state),
      start: Effect.sync(() => void (server.status = "running")),
      stop: Effect.zipRight(record("stop"), Effect.sync(() => void (server.status = "stopped"))),
      restart: (reason) => record("restart", reason),
      setLocked: (locked) => record(locked ? "lock" : "unlock"),
      update: () => Effect.void,
      rcon: (command) =>
        Effect.zipRight(
          reachable,
          command === "players"
            ? Effect.sync(() => server.playersReply)
            : Effect.as(Effect.zipRight(record("rcon", command), Effect.sync(() => void server.commands.push(command))), "")
        ),
      players: Effect.zipRight(reachable, Effect.sync(() => identifiedPlayers(server.playersReply, server.logLines))),
      retire: Effect.void
    })
  }
}
