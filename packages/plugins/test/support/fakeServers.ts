/**
 * Fake game servers for the plugins' in-process tests: install folders,
 * a `ProcessLauncher` whose processes the test ends at will (for the real
 * servers plugin), fake `ServerActor`s, and a stub "servers" plugin that
 * provides `Supervisor` and `ServerEntries` over such actors (for plugins
 * tested without the real one).
 */
import {
  type EventHandler,
  makePlayerDirectory,
  type OnlinePlayer,
  parsePlayerLogLine,
  parsePlayers,
  Plugin,
  type ProcessExit,
  type ProcessHandle,
  ProcessLauncher,
  type ServerActor,
  type ServerFileSync,
  ServerNotFound,
  SpawnFailed,
  Supervisor
} from "@garrison/runtime"
import { Deferred, Effect, Layer, Option, Stream } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ServerEntries, serverFileSyncHook, serverFileSyncLayer, Servers } from "../../src/servers/index.js"
import { tempDir } from "./tempDir.js"

let nextRconPort = 40_000

/**
 * A fake install: `DayZServer`, `serverDZ.cfg`, a BattlEye config and `@mod`
 * folders. Each install's BattlEye config names an RCon port of its own
 * (`rconPort`, else a fresh one), as two real servers on one host need;
 * `rconPort: null` leaves the port out (RCon then listens on game port + 4).
 */
export const fakeInstall = (options: { readonly activeConfig?: boolean; readonly rconPort?: number | null } = {}): string => {
  const dir = tempDir("garrison-install-")
  Fs.writeFileSync(NodePath.join(dir, "DayZServer"), "#!/bin/sh\n", { mode: 0o755 })
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), `hostname = "Detected Server";  // name\nmaxPlayers = 60;\n`)
  Fs.mkdirSync(NodePath.join(dir, "battleye"))
  Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64.cfg"), options.rconPort === null
      ? "RConPassword filepw\nRConIP 0.0.0.0\n"
      : `RConPassword filepw\nRConPort ${options.rconPort ?? nextRconPort++}\nRConIP 0.0.0.0\n`)
  if (options.activeConfig === true) {
    Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64_active_1a2b.cfg"), "RConPassword activepw\nRConPort 2406\n")
  }
  Fs.mkdirSync(NodePath.join(dir, "@CF"))
  Fs.mkdirSync(NodePath.join(dir, "@Trader"))
  return dir
}

/** Processes the test controls. Spawning an entry whose executable is `fails` fails. */
export const makeFakeLauncher = () => {
  const live = new Map<number, Deferred.Deferred<ProcessExit>>()
  let nextPid = 5000
  const handle = (pid: number, exit: Deferred.Deferred<ProcessExit>): ProcessHandle => ({
    pid,
    startToken: `t${pid}`,
    exited: Deferred.await(exit),
    signal: (signal) => Deferred.succeed(exit, { code: null, signal }).pipe(Effect.asVoid)
  })
  const layer = Layer.succeed(ProcessLauncher, {
    spawn: (entry) =>
      entry.executable === "fails"
        ? Effect.fail(new SpawnFailed({ executable: entry.executable, message: "EACCES" }))
        : Effect.map(Deferred.make<ProcessExit>(), (exit) => {
            const pid = nextPid++
            live.set(pid, exit)
            return handle(pid, exit)
          }),
    attach: (pid, token) =>
      Effect.sync(() => {
        const exit = live.get(pid)
        return exit !== undefined && token === `t${pid}` ? Option.some(handle(pid, exit)) : Option.none()
      }),
    usage: () => Effect.succeed(Option.some({ cpu: 3.5, memoryBytes: 123_456 })),
    takenPorts: () => Effect.succeed([])
  })
  return { layer }
}

/** What `players` answers on a server nobody is on. */
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

const unused = Effect.dieMessage("not used by these tests")

/** Players as the real actor answers them, from the `players` reply and what the logs say (`PlayerLog` lines). */
export const identifiedPlayers = (reply: string, logLines: ReadonlyArray<string> = []): ReadonlyArray<OnlinePlayer> => {
  const directory = makePlayerDirectory()
  for (const line of logLines) {
    const seen = parsePlayerLogLine(line)
    if (seen !== undefined) directory.learn(seen)
  }
  return parsePlayers(reply).map((player) => directory.identify(player))
}

/**
 * An actor for `serverId` doing what `ops` say; its `changes` stream is
 * empty and every operation not in `ops` dies (the tests do not use it).
 * `players` defaults to the `rcon("players")` reply with no ids known.
 */
export const fakeActor = (serverId: string, ops: Partial<Omit<ServerActor.ServerActor, "serverId">>): ServerActor.ServerActor => {
  const rcon = ops.rcon ?? (() => unused)
  return {
    serverId,
    entry: unused,
    state: unused,
    changes: Stream.empty,
    start: unused,
    stop: unused,
    restart: () => unused,
    setLocked: () => unused,
    update: () => unused,
    rcon,
    players: Effect.suspend(() => Effect.map(rcon("players"), (reply) => identifiedPlayers(reply))),
    runOperation: () => unused,
    retire: unused,
    ...ops
  }
}

/**
 * Stands in for the servers plugin (same id): `Supervisor` finds the actors
 * in `actors` (read on every call, so servers may be added later) and never
 * creates one; `ServerEntries` reads the actors' entries (writes die);
 * the real `ServerFileSync` (and its start hook) over those entries.
 * `events`: handlers the stub runs too (e.g. a recorder).
 */
export const stubServersPlugin = (
  actors: ReadonlyMap<string, ServerActor.ServerActor>,
  options: { readonly events?: ReadonlyArray<EventHandler<never>> } = {}
): Plugin.Plugin<Supervisor | ServerEntries | Servers | ServerFileSync, ServerFileSync> =>
  Plugin.make({
    id: "servers",
    // The real gateway and the real ServerFileSync over stand-ins for the store and the supervisor.
    layer: Layer.merge(Servers.layer, serverFileSyncLayer).pipe(Layer.provideMerge(Layer.merge(
      Layer.succeed(Supervisor, {
        ensure: () => unused,
        get: (serverId) => Effect.sync(() => Option.fromNullable(actors.get(serverId))),
        find: (serverId) => Effect.sync(() => Option.fromNullable(actors.get(serverId))),
        all: Effect.sync(() => [...actors.values()]),
        remove: () => Effect.void
      }),
      Layer.succeed(ServerEntries, {
        list: Effect.suspend(() => Effect.forEach([...actors.values()], (actor) => actor.entry)),
        unreadable: Effect.succeed([]),
        get: (serverId) =>
          Effect.suspend(() => {
            const actor = actors.get(serverId)
            return actor === undefined ? Effect.fail(ServerNotFound.of(serverId)) : actor.entry
          }),
        insert: () => unused,
        update: () => unused,
        remove: () => unused,
        upsertAll: () => unused
      })
    ))),
    hooks: [serverFileSyncHook],
    events: options.events ?? []
  })
