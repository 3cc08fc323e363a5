/**
 * The fakes the actor tests share: records, a bus that keeps events, RCON,
 * install folders with logs; the launcher whose processes the test
 * controls is the testkit's (`fakeLauncher`).
 */
import { eventually, fakeLauncher, sleepsOnTestClock, tempDir } from "@garrison/testkit/core"
import { Duration, Effect, HashMap, Logger, Option, Stream } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import type { AnyEvent, EventBusShape } from "../../src/events/EventBus.js"
import { Hooks } from "../../src/kernel/Hooks.js"
import { type RconClient, type RconConnectionState, RconUnreachable } from "../../src/rcon/RconClient.js"
import type { ProcessRecord, ProcessRecordsShape } from "../../src/servers/ProcessRecords.js"
import * as ServerActor from "../../src/servers/ServerActor.js"
import { makeServerEntry, type ServerEntry } from "../../src/servers/ServerEntry.js"
import type { ServerState } from "../../src/servers/ServerState.js"

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
    stage: () => Effect.void,
    register: () => Effect.void,
    registerDurable: () => Effect.void,
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
 * Waits (real time, at most 10 s, then dies naming `what`) until the
 * actor's state passes `check`: for what its fibers (the exit watcher, the
 * mailbox, the watchdog) do on their own after the test's input.
 */
export const untilState = (actor: ServerActor.ServerActor, check: (state: ServerState) => boolean, what: string) =>
  eventually(actor.state, check, 10_000, what)

/** Waits until the bus holds at least `count` events tagged `tag` (the actor publishes after it logs and patches its state). */
export const untilPublished = (bus: ReturnType<typeof recordingBus>, tag: AnyEvent["_tag"], count = 1) =>
  eventually(
    Effect.sync(() => bus.tags().filter((t) => t === tag).length),
    (n) => n >= count,
    10_000,
    `${count} ${tag} event(s) on the bus`
  )

/**
 * How many fibers sleep until `at` on the TestClock. A sleep cut short (a
 * stop's SIGTERM wait the process obeyed at once) stays counted until the
 * clock passes `at`: where such a one may share the instant, a test counts
 * before and waits for one more rather than `sleepingUntil(at)`.
 */
export const sleepersUntil = (at: number) => Effect.map(sleepsOnTestClock, (sleeps) => sleeps.filter((s) => s === at).length)

/**
 * Actor options whose status poller sleeps a day between samples: for tests
 * that wait for the watchdog's or a stop's sleep on the TestClock, where the
 * poller's sleep (every 10 s from a start) could fall on the same instant.
 */
export const quietPoller: Partial<ServerActor.ActorOptions> = { statusInterval: Duration.days(1) }

/**
 * A short while of real time (about 50 ms) in which something that must
 * NOT happen (a restart after the watchdog gave up, or while the files are
 * held) gets the chance to show before the test says it did not. Used only
 * after a positive event proved the actor processed the input; never what
 * an assertion that should pass waits for: on a slow machine the negative
 * check is weaker, never flaky. The TestClock stands still meanwhile.
 */
export const chanceToMisbehave = Effect.repeatN(
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

export { fakeLauncher, playersReply } from "@garrison/testkit/core"

/** An empty install folder, removed after the test file. */
export const tempInstall = () => tempDir("garrison-actor-")

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

