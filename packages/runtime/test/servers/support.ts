/** The fakes the actor tests share: a launcher whose processes the test controls, records, a bus that keeps events, RCON. */
import { afterAll } from "@effect/vitest"
import { Deferred, Effect, HashMap, Logger, Option, Stream } from "effect"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import type { AnyEvent, EventBusShape } from "../../src/events/EventBus.js"
import { Hooks } from "../../src/kernel/Hooks.js"
import { type RconClient, type RconConnectionState, RconUnreachable } from "../../src/rcon/RconClient.js"
import type { ProcessExit, ProcessHandle, ProcessLauncherShape } from "../../src/servers/ProcessLauncher.js"
import { SpawnFailed } from "../../src/servers/ProcessLauncher.js"
import { outputPath } from "../../src/servers/ProcessOutput.js"
import type { ProcessRecord, ProcessRecordsShape } from "../../src/servers/ProcessRecords.js"
import * as ServerActor from "../../src/servers/ServerActor.js"
import { makeServerEntry, type ServerEntry } from "../../src/servers/ServerEntry.js"

/** A process the test controls: which signals it obeys, and when it exits. */
export interface FakeProcess {
  readonly pid: number
  readonly exit: Deferred.Deferred<ProcessExit>
  readonly signals: Array<string>
  obeys: ReadonlyArray<"SIGTERM" | "SIGKILL">
}

export const fakeLauncher = () => {
  const processes: Array<FakeProcess> = []
  let failuresLeft = 0
  let nextPid = 1000
  /** Ports the host is said to hold (the launcher's probe answers these). */
  let heldPorts: ReadonlyArray<number> = []
  /** What the next spawned process "prints" into its output file, for a start that fails. */
  let nextOutput: string | undefined
  const handleOf = (p: FakeProcess): ProcessHandle => ({
    pid: p.pid,
    startToken: `t${p.pid}`,
    exited: Deferred.await(p.exit),
    signal: (signal) =>
      Effect.suspend(() => {
        p.signals.push(signal)
        return p.obeys.includes(signal) ? Deferred.succeed(p.exit, { code: null, signal }) : Effect.void
      }).pipe(Effect.asVoid)
  })
  const launcher: ProcessLauncherShape = {
    spawn: (entry) =>
      Effect.gen(function* () {
        if (failuresLeft > 0) {
          failuresLeft--
          return yield* Effect.fail(new SpawnFailed({ executable: entry.executable, message: "ENOENT" }))
        }
        const p: FakeProcess = { pid: nextPid++, exit: yield* Deferred.make<ProcessExit>(), signals: [], obeys: ["SIGTERM", "SIGKILL"] }
        processes.push(p)
        if (nextOutput !== undefined) {
          // What the real launcher does: the last run's output becomes `.1`, this run's goes to the file.
          const file = outputPath(entry)
          Fs.mkdirSync(NodePath.dirname(file), { recursive: true })
          Fs.writeFileSync(file, nextOutput)
          nextOutput = undefined
        }
        return handleOf(p)
      }),
    attach: (pid, token) =>
      Effect.sync(() => {
        const p = processes.find((x) => x.pid === pid && `t${x.pid}` === token)
        return p ? Option.some(handleOf(p)) : Option.none()
      }),
    usage: () => Effect.succeed(Option.some({ cpu: 12.5, memoryBytes: 1_000_000 })),
    takenPorts: (ports) => Effect.sync(() => ports.filter((p) => heldPorts.includes(p.port)))
  }
  return {
    launcher,
    processes,
    holdPorts: (ports: ReadonlyArray<number>) => void (heldPorts = ports),
    printNext: (text: string) => void (nextOutput = text),
    failNextSpawns: (n: number) => void (failuresLeft = n),
    /** The newest process dies on its own. */
    crash: (code = 1) => Deferred.succeed(processes[processes.length - 1]!.exit, { code, signal: null }),
    adopt: (pid: number) =>
      Effect.map(Deferred.make<ProcessExit>(), (exit) => {
        processes.push({ pid, exit, signals: [], obeys: ["SIGTERM"] })
      })
  }
}

export const memoryRecords = () => {
  const map = new Map<string, ProcessRecord>()
  const records: ProcessRecordsShape = {
    get: (id) => Effect.sync(() => Option.fromNullable(map.get(id))),
    serverIds: Effect.sync(() => new Set(map.keys())),
    set: (id, r) => Effect.sync(() => void map.set(id, r)),
    clear: (id) => Effect.sync(() => void map.delete(id))
  }
  return { records, map }
}

export const recordingBus = () => {
  const events: Array<AnyEvent> = []
  const bus: EventBusShape = {
    publish: (event) => Effect.sync(() => void events.push(event)),
    register: () => Effect.void,
    subscribe: () => Effect.succeed(Stream.empty),
    stream: () => Stream.empty
  }
  return { bus, events, tags: () => events.map((e) => e._tag) }
}

export const entry = (overrides: Partial<ServerEntry> = {}) =>
  makeServerEntry({ id: "s1", name: "Chernarus #1", installDir: "/srv/dayz", ...overrides })

export const noRcon: ServerActor.ActorEnvironment["connectRcon"] = () =>
  Effect.fail(new RconUnreachable({ host: "127.0.0.1", port: 2306, message: "no rcon in this test" }))

export const setup = (
  overrides: Partial<ServerEntry> = {},
  more: {
    readonly connectRcon?: ServerActor.ActorEnvironment["connectRcon"]
    readonly options?: Partial<ServerActor.ActorOptions>
    readonly portOwner?: ServerActor.ActorEnvironment["portOwner"]
  } = {}
) =>
  Effect.gen(function* () {
    const launcher = fakeLauncher()
    const { records, map } = memoryRecords()
    const bus = recordingBus()
    const hooks = Hooks.make()
    const actor = yield* ServerActor.make(
      entry(overrides),
      {
        launcher: launcher.launcher,
        records,
        bus: bus.bus,
        hooks,
        connectRcon: more.connectRcon ?? noRcon,
        ...(more.portOwner === undefined ? {} : { portOwner: more.portOwner })
      },
      { ...ServerActor.defaultActorOptions, ...more.options }
    )
    return { actor, launcher, records, recordsMap: map, bus, hooks }
  })

/**
 * Lets forked fibers (watchers, the mailbox) run, and the file reads they
 * wait on finish: the output file and the logs are read through
 * `ServerFiles`, real I/O that completes on the event loop, not on a fiber
 * yield. Real milliseconds, so the TestClock stands still meanwhile.
 */
export const settle = Effect.repeatN(
  Effect.zipRight(Effect.yieldNow(), Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 2)))),
  25
)

/** An RCON session that is up at once and answers `players` with what the test sets. */
export const fakeRcon = (reply: () => string): ServerActor.ActorEnvironment["connectRcon"] => () => {
  const connected: RconConnectionState = { status: "connected", since: 0, reconnects: 0, lastError: undefined }
  const client: RconClient = {
    protocol: "battleye",
    command: (text) => Effect.sync(() => (text === "players" ? reply() : "")),
    messages: Stream.never,
    subscribe: Effect.succeed(Stream.never),
    state: Effect.succeed(connected),
    stateChanges: Stream.empty,
    close: Effect.void
  }
  return Effect.succeed(client)
}

export const rconSettings = { protocol: "battleye" as const, host: "127.0.0.1", port: 2306, password: "pw" }

export const playersReply = (rows: ReadonlyArray<readonly [number, string, string]>) =>
  [
    "Players on server:",
    "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
    "--------------------------------------------------",
    ...rows.map(([slot, guid, name]) => `${slot}   10.0.0.${slot + 1}:2304     40   ${guid}(OK) ${name}`),
    `(${rows.length} players in total)`
  ].join("\n")

const tempFolders: Array<string> = []
afterAll(() => {
  for (const folder of tempFolders) Fs.rmSync(folder, { recursive: true, force: true })
})

/** An empty install folder, removed after the test file. */
export const tempInstall = () => {
  const dir = Fs.mkdtempSync(NodePath.join(tmpdir(), "garrison-actor-"))
  tempFolders.push(dir)
  return dir
}

/** An install folder whose profiles folder holds one RPT and one ADM with these lines. */
export const installWithLogs = (rpt: ReadonlyArray<string>, adm: ReadonlyArray<string>) => {
  const dir = tempInstall()
  Fs.mkdirSync(NodePath.join(dir, "profiles"))
  Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64_2026-01-01_12-00-00.RPT"), rpt.map((l) => `${l}\n`).join(""))
  Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64_2026-01-01_12-00-00.ADM"), adm.map((l) => `${l}\n`).join(""))
  return dir
}

/** Every log line the effect writes, with its level. */
export const capturingLogs = () => {
  const lines: Array<{ readonly level: string; readonly message: string; readonly serverId: unknown }> = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    lines.push({
      level: logLevel.label,
      message: (Array.isArray(message) ? message : [message]).map(String).join(" "),
      serverId: Option.getOrUndefined(HashMap.get(annotations, "serverId"))
    })
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger), warnings: () => lines.filter((l) => l.level === "WARN") }
}

