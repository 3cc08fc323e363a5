/**
 * One actor per server entry: a fiber with a mailbox. Lifecycle commands
 * (start, stop, restart, lock, unlock, entry updates) and what the process
 * watcher reports are handled one at a time, so start and stop never race.
 * While the server runs, a run scope holds its children: the process
 * watcher, the RCON session and the status poller; closing the scope ends
 * them all. A child's failure is recorded in the state and retried; it never
 * takes the actor down.
 *
 * Shutting the controller down closes the actors but leaves game servers
 * running: the next controller reattaches to them (see `ProcessRecords`).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { followLogs, type LogFollower } from "../game/LogFollower.js"
import { makePlayerDirectory, parsePlayerLogLine } from "../game/PlayerLog.js"
import { type OnlinePlayer, parsePlayers, type RconPlayer } from "../game/Players.js"
import { readRptFacts } from "../game/Rpt.js"
import { parseServerMessage } from "../game/ServerMessages.js"
import type { EventBusShape } from "../events/EventBus.js"
import { BeforeServerStart, type HooksShape } from "../kernel/Hooks.js"
import type { RconClient, RconConnectError } from "../rcon/RconClient.js"
import { ActorError } from "./ActorError.js"
import { launchProblem } from "./LaunchParameters.js"
import {
  ChatMessage,
  ConsoleLine,
  PlayerConnected,
  PlayerDisconnected,
  ServerCrashed,
  ServerLocked,
  ServerRestarted,
  ServerStarted,
  ServerStarting,
  ServerStopped,
  ServerUnlocked,
  type WatchdogAction
} from "./events.js"
import type { ProcessExit, ProcessHandle, ProcessLauncherShape } from "./ProcessLauncher.js"
import type { ProcessRecordsShape } from "./ProcessRecords.js"
import { profilesPath, type RconSettings, type ServerEntry } from "./ServerEntry.js"
import { initialState, type ServerState } from "./ServerState.js"

export interface ActorOptions {
  /** How often players, CPU and RAM are sampled while running. */
  readonly statusInterval: Duration.DurationInput
  /** Delays between attempts to open the RCON session (the server opens RCon some time after start). */
  readonly rconRetry: Schedule.Schedule<unknown, unknown>
  /** Per-command time-out for the actor's own RCON commands. */
  readonly rconTimeout: Duration.DurationInput
  /** The watchdog waits `base * 2^(crashes-1)`, at most `max`, before restarting a crashed server. */
  readonly watchdogBaseDelay: Duration.DurationInput
  readonly watchdogMaxDelay: Duration.DurationInput
  /** A server that ran this long before crashing starts the backoff afresh. */
  readonly healthyAfter: Duration.DurationInput
  /** After this many crashes in a row the watchdog gives up until someone starts the server. */
  readonly watchdogMaxCrashes: number
  /** Restart tries up to this many times, waiting `restartBackoff * attempt` between tries. */
  readonly restartAttempts: number
  readonly restartBackoff: Duration.DurationInput
  /** After SIGKILL, how long to wait for the process to go before reporting failure. */
  readonly killWait: Duration.DurationInput
}

export const defaultActorOptions: ActorOptions = {
  statusInterval: Duration.seconds(10),
  rconRetry: Schedule.exponential("1 second").pipe(Schedule.union(Schedule.spaced("30 seconds"))),
  rconTimeout: Duration.seconds(5),
  watchdogBaseDelay: Duration.seconds(5),
  watchdogMaxDelay: Duration.minutes(5),
  healthyAfter: Duration.minutes(10),
  watchdogMaxCrashes: 10,
  restartAttempts: 3,
  restartBackoff: Duration.seconds(5),
  killWait: Duration.seconds(5)
}

export interface ActorEnvironment {
  readonly launcher: ProcessLauncherShape
  readonly records: ProcessRecordsShape
  readonly bus: EventBusShape
  readonly hooks: HooksShape
  readonly connectRcon: (settings: RconSettings) => Effect.Effect<RconClient, RconConnectError, Scope.Scope>
}

export type RestartReason = "manual" | "watchdog" | "schedule"

export interface ServerActor {
  readonly serverId: string
  readonly entry: Effect.Effect<ServerEntry>
  readonly state: Effect.Effect<ServerState>
  readonly changes: Stream.Stream<ServerState>
  readonly start: Effect.Effect<void, ActorError>
  readonly stop: Effect.Effect<void, ActorError>
  readonly restart: (reason: RestartReason) => Effect.Effect<void, ActorError>
  readonly setLocked: (locked: boolean) => Effect.Effect<void, ActorError>
  /** Applies at the next start. */
  readonly update: (entry: ServerEntry) => Effect.Effect<void, ActorError>
  /** Sends a command over the live RCON session (not through the mailbox: any number at once). */
  readonly rcon: (command: string) => Effect.Effect<string, ActorError>
  /**
   * The players online now (RCON `players`), each with the Steam64 and DayZ
   * ID the server's logs prove, null where they do not (see `PlayerLog`).
   */
  readonly players: Effect.Effect<ReadonlyArray<OnlinePlayer>, ActorError>
  /** Refuses while the server runs; afterwards the actor takes no more commands. */
  readonly retire: Effect.Effect<void, ActorError>
}

type Reply = Deferred.Deferred<void, ActorError>

type Message =
  | { readonly _tag: "Start"; readonly reply: Reply }
  | { readonly _tag: "Stop"; readonly reply: Reply }
  | { readonly _tag: "Restart"; readonly reason: RestartReason; readonly reply: Reply }
  | { readonly _tag: "SetLocked"; readonly locked: boolean; readonly reply: Reply }
  | { readonly _tag: "Update"; readonly entry: ServerEntry; readonly reply: Reply }
  | { readonly _tag: "Retire"; readonly reply: Reply }
  | { readonly _tag: "Exited"; readonly generation: number; readonly exit: ProcessExit }
  | { readonly _tag: "WatchdogFired" }

interface Run {
  readonly generation: number
  readonly handle: ProcessHandle
  readonly scope: Scope.CloseableScope
  /** This run's RPT and ADM logs, read for who the players are. */
  readonly logs: LogFollower
}

const describeExit = (exit: ProcessExit) =>
  exit.signal !== null ? `killed by ${exit.signal}` : exit.code !== null ? `exited with code ${exit.code}` : "exited"

/** Creates the actor in the current scope and reattaches to its process when one is recorded. */
export const make = (
  initialEntry: ServerEntry,
  env: ActorEnvironment,
  options: ActorOptions = defaultActorOptions
): Effect.Effect<ServerActor, never, Scope.Scope> =>
  Effect.gen(function* () {
    const serverId = initialEntry.id
    const actorScope = yield* Effect.scope
    const mailbox = yield* Queue.unbounded<Message>()
    const state = yield* SubscriptionRef.make(initialState(serverId))
    const rconClient = yield* Ref.make(Option.none<RconClient>())
    let entry = initialEntry
    let run: Run | undefined
    let generation = 0
    let watchdog: Fiber.RuntimeFiber<void> | undefined
    let retired = false
    /** Why the server last crashed, for the watchdog's restart message. */
    let lastCrash: string | undefined
    // What the logs taught about players outlives a run: a Steam64 hashes to the same GUID forever.
    const directory = makePlayerDirectory()
    const logReads = yield* Effect.makeSemaphore(1)

    const fail = (reason: ActorError["reason"], message: string) => new ActorError({ serverId, reason, message })
    const patch = (f: Partial<ServerState> | ((s: ServerState) => Partial<ServerState>)) =>
      SubscriptionRef.update(state, (s) => ({ ...s, ...(typeof f === "function" ? f(s) : f) }))
    const publish = (event: Parameters<EventBusShape["publish"]>[0]) => env.bus.publish(event)
    const names = () => ({ serverId, name: entry.name })
    const warn = (message: string) => Effect.logWarning(message).pipe(Effect.annotateLogs({ serverId }))

    const cancelWatchdog = Effect.suspend(() => {
      const fiber = watchdog
      watchdog = undefined
      return fiber ? Fiber.interrupt(fiber) : Effect.void
    })

    // ---- children of a run -------------------------------------------------

    /** Reads what the run's logs wrote since the last read (one reader at a time: each line once). */
    const learnFromLogs = logReads.withPermits(1)(
      Effect.suspend(() => {
        const logs = run?.logs
        if (logs === undefined) return Effect.void
        return Effect.tryPromise(() => logs.poll()).pipe(
          Effect.orElseSucceed((): ReadonlyArray<string> => []),
          Effect.map((lines) => {
            for (const line of lines) {
              const seen = parsePlayerLogLine(line)
              if (seen !== undefined) directory.learn(seen)
            }
          })
        )
      })
    )

    const identify = (players: ReadonlyArray<RconPlayer>) =>
      Effect.map(learnFromLogs, () => players.map((player) => directory.identify(player)))

    const refreshPlayers = Effect.gen(function* () {
      const client = yield* Ref.get(rconClient)
      if (Option.isNone(client)) return
      const reply = yield* client.value.command("players", { timeout: options.rconTimeout })
      yield* patch({ players: yield* identify(parsePlayers(reply)) })
    }).pipe(Effect.ignore)

    const onServerMessage = (text: string) =>
      Effect.gen(function* () {
        yield* publish(new ConsoleLine({ serverId, at: yield* Clock.currentTimeMillis, text }))
        const parsed = parseServerMessage(text)
        switch (parsed._tag) {
          case "RconPlayerConnected":
            yield* publish(new PlayerConnected({ ...names(), slot: parsed.slot, playerName: parsed.name, ip: parsed.ip }))
            return yield* Effect.forkIn(refreshPlayers, actorScope)
          case "RconPlayerDisconnected":
            yield* publish(new PlayerDisconnected({ ...names(), slot: parsed.slot, playerName: parsed.name }))
            return yield* patch((s) => ({ players: s.players.filter((p) => p.slot !== parsed.slot) }))
          case "RconChat":
            return yield* publish(new ChatMessage({ ...names(), channel: parsed.channel, playerName: parsed.name, text: parsed.text }))
          default:
            return
        }
      })

    /** Opens the RCON session (retrying until the server answers) and follows it until it closes. */
    const rconSession = (settings: RconSettings) =>
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* env.connectRcon(settings).pipe(
            Effect.tapError((error) => patch({ lastError: `RCON: ${error.message}` })),
            Effect.retry(options.rconRetry)
          )
          yield* Ref.set(rconClient, Option.some(client))
          yield* Effect.addFinalizer(() => Ref.set(rconClient, Option.none()))
          yield* patch({ rcon: yield* client.state })
          yield* client.stateChanges.pipe(
            Stream.runForEach((rcon) => patch({ rcon })),
            Effect.forkScoped
          )
          const messages = yield* client.subscribe
          yield* refreshPlayers
          yield* Stream.runForEach(messages, onServerMessage)
        })
      ).pipe(
        Effect.catchAllCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.void : patch({ lastError: `RCON: ${Cause.pretty(cause)}` }))),
        // The client closed (or gave up): open a new session.
        Effect.repeat(Schedule.spaced("1 second"))
      )

    /** Map and version come from the engine log, once per run (until both are known). */
    const readLogFacts = (startedAt: number) =>
      Effect.gen(function* () {
        const known = yield* SubscriptionRef.get(state)
        if (known.map !== undefined && known.version !== undefined) return
        const facts = yield* Effect.tryPromise(() => readRptFacts(profilesPath(entry), startedAt)).pipe(
          Effect.orElseSucceed(() => undefined)
        )
        if (facts !== undefined) yield* patch({ map: facts.map ?? known.map, version: facts.version ?? known.version })
      })

    const statusPoller = (pid: number, startedAt: number) =>
      Effect.gen(function* () {
        yield* refreshPlayers
        yield* readLogFacts(startedAt)
        const usage = yield* env.launcher.usage(pid)
        if (Option.isSome(usage)) yield* patch({ cpu: usage.value.cpu, memoryBytes: usage.value.memoryBytes })
      }).pipe(Effect.repeat(Schedule.spaced(options.statusInterval)))

    /** Becomes `running` on `handle`, with its children in a fresh run scope. */
    const beginRun = (handle: ProcessHandle, startedAt: number, reattached: boolean) =>
      Effect.gen(function* () {
        generation += 1
        const current = generation
        const scope = yield* Scope.fork(actorScope, ExecutionStrategy.sequential)
        run = { generation: current, handle, scope, logs: followLogs(profilesPath(entry), startedAt) }
        yield* Effect.forkIn(
          Effect.flatMap(handle.exited, (exit) => mailbox.offer({ _tag: "Exited", generation: current, exit })),
          scope
        )
        if (entry.rcon !== undefined) yield* Effect.forkIn(rconSession(entry.rcon), scope)
        yield* patch({
          status: "running",
          pid: handle.pid,
          startedAt,
          players: [],
          locked: false,
          lastError: undefined,
          map: undefined,
          version: undefined
        })
        yield* Effect.forkIn(statusPoller(handle.pid, startedAt), scope)
        yield* publish(new ServerStarted({ ...names(), pid: handle.pid, reattached }))
      })

    /** Ends the current run's children (the RCON session shows `closed`); the process itself is already gone. */
    const endRun = Effect.suspend(() => {
      const ending = run
      run = undefined
      return ending === undefined
        ? Effect.void
        : Scope.close(ending.scope, Exit.void).pipe(
            Effect.zipRight(env.records.clear(serverId)),
            Effect.zipRight(Ref.set(rconClient, Option.none())),
            Effect.zipRight(closeRconState)
          )
    })

    /** The session ended with the run: say so, rather than leave its last state (`connected`) showing. */
    const closeRconState = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      yield* patch((s) =>
        s.rcon === undefined && entry.rcon === undefined
          ? {}
          : {
              rcon: {
                status: "closed" as const,
                since: s.rcon?.status === "closed" ? s.rcon.since : now,
                reconnects: s.rcon?.reconnects ?? 0,
                lastError: s.rcon?.lastError
              }
            }
      )
    })

    // ---- lifecycle ---------------------------------------------------------

    const startProcess = Effect.gen(function* () {
      if (run !== undefined) return yield* Effect.fail(fail("already-running", `${entry.name} is already running`))
      // An entry stored before the launch rules (or edited in the database) is refused before anything runs.
      const problem = launchProblem(entry)
      if (problem !== undefined) {
        const message = `${entry.name} cannot start: ${problem.field}: ${problem.message}`
        yield* patch({ lastError: message })
        return yield* Effect.fail(fail("invalid-entry", message))
      }
      yield* patch({ status: "starting", lastError: undefined })
      yield* publish(new ServerStarting(names()))
      const started = yield* Effect.gen(function* () {
        yield* env.hooks
          .run(BeforeServerStart, { serverId, name: entry.name, installDir: entry.installDir })
          .pipe(Effect.mapError((e) => fail("hook-failed", `plugin ${e.plugin} refused the start: ${e.message}`)))
        const handle = yield* env.launcher
          .spawn(entry)
          .pipe(Effect.mapError((e) => fail("spawn-failed", `cannot start ${e.executable}: ${e.message}`)))
        const startedAt = yield* Clock.currentTimeMillis
        yield* env.records.set(serverId, { pid: handle.pid, startToken: handle.startToken, startedAt })
        return { handle, startedAt }
      }).pipe(Effect.tapError((error) => patch({ status: "stopped", pid: undefined, lastError: error.message })))
      yield* beginRun(started.handle, started.startedAt, false)
    })

    /** `#shutdown`, wait, SIGTERM, wait, SIGKILL, wait: the first that ends the process wins. */
    const stopProcess = Effect.gen(function* () {
      const current = run
      if (current === undefined) return yield* Effect.fail(fail("not-running", `${entry.name} is not running`))
      yield* patch({ status: "stopping" })
      const waitFor = (duration: Duration.DurationInput) =>
        current.handle.exited.pipe(Effect.timeoutOption(duration), Effect.map(Option.isSome))
      let how: ServerStopped["how"] | undefined
      const client = yield* Ref.get(rconClient)
      if (Option.isSome(client)) {
        yield* client.value.command("#shutdown", { timeout: options.rconTimeout }).pipe(Effect.ignore)
        if (yield* waitFor(entry.stop.shutdownWaitMs)) how = "rcon"
      }
      if (how === undefined) {
        yield* current.handle.signal("SIGTERM")
        if (yield* waitFor(entry.stop.terminateWaitMs)) how = "sigterm"
      }
      if (how === undefined) {
        yield* current.handle.signal("SIGKILL")
        if (yield* waitFor(options.killWait)) how = "sigkill"
      }
      if (how === undefined) {
        yield* patch({ lastError: `pid ${current.handle.pid} survived SIGKILL` })
        return yield* Effect.fail(fail("stop-failed", `${entry.name} (pid ${current.handle.pid}) did not stop, even after SIGKILL`))
      }
      yield* endRun
      yield* patch({ status: "stopped", pid: undefined, startedAt: undefined, players: [], cpu: undefined, memoryBytes: undefined, locked: false })
      yield* publish(new ServerStopped({ ...names(), how }))
    })

    const restartProcess = (reason: RestartReason) =>
      Effect.gen(function* () {
        let lastError = ""
        for (let attempt = 1; attempt <= options.restartAttempts; attempt++) {
          if (run !== undefined) {
            const stopped = yield* Effect.either(stopProcess)
            if (stopped._tag === "Left") {
              yield* publish(new ServerRestarted({ ...names(), ok: false, attempts: attempt, reason, error: stopped.left.message }))
              return yield* Effect.fail(stopped.left)
            }
          }
          const started = yield* Effect.either(startProcess)
          if (started._tag === "Right") {
            yield* patch({ consecutiveCrashes: reason === "watchdog" ? (yield* SubscriptionRef.get(state)).consecutiveCrashes : 0 })
            return yield* publish(new ServerRestarted({ ...names(), ok: true, attempts: attempt, reason }))
          }
          lastError = started.left.message
          if (attempt < options.restartAttempts) yield* Effect.sleep(Duration.times(options.restartBackoff, attempt))
        }
        yield* publish(
          new ServerRestarted({ ...names(), ok: false, attempts: options.restartAttempts, reason, error: lastError })
        )
        return yield* Effect.fail(
          fail("restart-failed", `${entry.name} did not start after ${options.restartAttempts} attempts: ${lastError}`)
        )
      })

    /** The process ended while nobody was stopping it; `reason` says why, as a person reads it. */
    const onCrash = (exit: ProcessExit, reason: string = describeExit(exit)) =>
      Effect.gen(function* () {
        const before = yield* SubscriptionRef.get(state)
        const now = yield* Clock.currentTimeMillis
        const ranLongEnough =
          before.startedAt !== undefined && now - before.startedAt >= Duration.toMillis(options.healthyAfter)
        const crashes = ranLongEnough ? 1 : before.consecutiveCrashes + 1
        yield* endRun
        const delay =
          entry.watchdog && crashes <= options.watchdogMaxCrashes
            ? Math.min(
                Duration.toMillis(options.watchdogBaseDelay) * 2 ** (crashes - 1),
                Duration.toMillis(options.watchdogMaxDelay)
              )
            : null
        const action: WatchdogAction = delay !== null ? "restarting" : entry.watchdog ? "gave-up" : "off"
        const gaveUp = `the watchdog gave up after ${crashes} crashes in a row`
        lastCrash = reason
        yield* patch({
          status: "crashed",
          pid: undefined,
          startedAt: undefined,
          players: [],
          locked: false,
          consecutiveCrashes: crashes,
          lastError: action === "gave-up" ? `${reason}; ${gaveUp}` : reason
        })
        yield* warn(
          `server ${entry.name} crashed: ${reason}; ` +
            (action === "restarting"
              ? `the watchdog restarts it in ${Duration.format(Duration.millis(delay!))} (crash ${crashes} in a row)`
              : action === "gave-up"
                ? `${gaveUp}; start it by hand`
                : "the watchdog is off for this server")
        )
        yield* publish(
          new ServerCrashed({
            ...names(),
            exitCode: exit.code,
            signal: exit.signal,
            reason,
            consecutiveCrashes: crashes,
            watchdog: action,
            restartInMs: delay
          })
        )
        if (delay !== null) {
          watchdog = yield* Effect.forkIn(
            Effect.sleep(Duration.millis(delay)).pipe(Effect.zipRight(mailbox.offer({ _tag: "WatchdogFired" })), Effect.asVoid),
            actorScope
          )
        }
      })

    const onWatchdog = Effect.gen(function* () {
      watchdog = undefined
      if (run !== undefined) return
      const crash = lastCrash ?? "it crashed"
      const started = yield* Effect.either(startProcess)
      if (started._tag === "Right") {
        yield* warn(`server ${entry.name} was restarted by the watchdog after: ${crash}`)
        return yield* publish(new ServerRestarted({ ...names(), ok: true, attempts: 1, reason: "watchdog", crash }))
      }
      yield* warn(`server ${entry.name}: the watchdog could not restart it: ${started.left.message}`)
      yield* publish(
        new ServerRestarted({ ...names(), ok: false, attempts: 1, reason: "watchdog", error: started.left.message, crash })
      )
      // A failed restart counts as another crash, so the backoff grows.
      yield* onCrash({ code: null, signal: null }, `the watchdog could not restart it: ${started.left.message}`)
    })

    const setLocked = (locked: boolean) =>
      Effect.gen(function* () {
        if (run === undefined) return yield* Effect.fail(fail("not-running", `${entry.name} is not running`))
        const client = yield* Ref.get(rconClient)
        if (Option.isNone(client)) {
          return yield* Effect.fail(fail("rcon-unavailable", `${entry.name} has no RCON session yet`))
        }
        yield* client.value
          .command(locked ? "#lock" : "#unlock", { timeout: options.rconTimeout })
          .pipe(Effect.mapError((e) => fail("rcon-failed", `RCON ${locked ? "#lock" : "#unlock"} failed: ${e._tag}`)))
        yield* patch({ locked })
        yield* publish(locked ? new ServerLocked(names()) : new ServerUnlocked(names()))
      })

    // ---- the mailbox -------------------------------------------------------

    const handle = (message: Message): Effect.Effect<void> => {
      const answer = (reply: Reply, effect: Effect.Effect<void, ActorError>) =>
        Effect.exit(effect).pipe(Effect.flatMap((exit) => Deferred.done(reply, exit)), Effect.asVoid)
      if (retired && "reply" in message) {
        return Deferred.fail(message.reply, fail("removed", `${entry.name} was removed`)).pipe(Effect.asVoid)
      }
      switch (message._tag) {
        case "Start":
          return answer(message.reply, cancelWatchdog.pipe(Effect.zipRight(startProcess)))
        case "Stop":
          return answer(
            message.reply,
            Effect.gen(function* () {
              const hadWatchdog = watchdog !== undefined
              yield* cancelWatchdog
              // Stopping a crashed server that was waiting for the watchdog just calls the watchdog off.
              if (run === undefined && hadWatchdog) return yield* patch({ status: "stopped" })
              yield* stopProcess
            })
          )
        case "Restart":
          return answer(message.reply, cancelWatchdog.pipe(Effect.zipRight(restartProcess(message.reason))))
        case "SetLocked":
          return answer(message.reply, setLocked(message.locked))
        case "Update":
          return answer(message.reply, Effect.sync(() => void (entry = message.entry)))
        case "Retire":
          return answer(
            message.reply,
            run !== undefined
              ? Effect.fail(fail("already-running", `${entry.name} is running; stop it first`))
              : cancelWatchdog.pipe(Effect.tap(() => Effect.sync(() => void (retired = true))))
          )
        case "Exited":
          return run !== undefined && message.generation === run.generation ? onCrash(message.exit) : Effect.void
        case "WatchdogFired":
          return onWatchdog
      }
    }

    yield* Effect.forkIn(
      Effect.forever(
        Effect.flatMap(mailbox.take, (message) =>
          handle(message).pipe(
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : patch({ lastError: Cause.pretty(cause) })
            )
          )
        )
      ),
      actorScope
    )

    // ---- reattach ------------------------------------------------------------

    const recorded = yield* env.records.get(serverId)
    if (Option.isSome(recorded)) {
      const attached = yield* env.launcher.attach(recorded.value.pid, recorded.value.startToken)
      if (Option.isSome(attached)) {
        yield* beginRun(attached.value, recorded.value.startedAt, true)
      } else {
        // It was running when the controller went away and is gone now: that is a crash.
        yield* env.records.clear(serverId)
        yield* patch({ startedAt: recorded.value.startedAt })
        yield* onCrash({ code: null, signal: null }, "the server stopped while the controller was away")
      }
    }

    /** One command over the live RCON session (not through the mailbox: any number at once). */
    const rconCommand = (command: string) =>
      Effect.gen(function* () {
        const client = yield* Ref.get(rconClient)
        if (Option.isNone(client)) {
          return yield* Effect.fail(
            fail(run === undefined ? "not-running" : "rcon-unavailable", `${entry.name} has no RCON session`)
          )
        }
        return yield* client.value
          .command(command, { timeout: options.rconTimeout })
          .pipe(Effect.mapError((e) => fail("rcon-failed", `RCON command failed: ${e._tag}`)))
      })

    const ask = (make: (reply: Reply) => Message) =>
      Effect.flatMap(Deferred.make<void, ActorError>(), (reply) =>
        mailbox.offer(make(reply)).pipe(Effect.zipRight(Deferred.await(reply)))
      )

    return {
      serverId,
      entry: Effect.sync(() => entry),
      state: SubscriptionRef.get(state),
      changes: state.changes,
      start: ask((reply) => ({ _tag: "Start", reply })),
      stop: ask((reply) => ({ _tag: "Stop", reply })),
      restart: (reason) => ask((reply) => ({ _tag: "Restart", reason, reply })),
      setLocked: (locked) => ask((reply) => ({ _tag: "SetLocked", locked, reply })),
      update: (next) => ask((reply) => ({ _tag: "Update", entry: next, reply })),
      retire: ask((reply) => ({ _tag: "Retire", reply })),
      players: Effect.flatMap(rconCommand("players"), (reply) => identify(parsePlayers(reply))),
      rcon: (command) => rconCommand(command)
    }
  })
