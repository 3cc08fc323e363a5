/**
 * One actor per server entry: a fiber with a mailbox. Lifecycle commands
 * (start, stop, lock, unlock, retire) and what the process watcher reports
 * are taken one at a time, and every step that changes the process (start,
 * stop, crash handling) holds one lock, so start and stop never race.
 *
 * Long operations (a restart with its retries, `actor/restart.ts`; later an
 * update or a mod rollout) run as a child fiber (`actor/operation.ts`) with
 * their progress in the state: the mailbox keeps answering meanwhile, and a
 * stop cancels the operation and wins.
 *
 * While the server runs, a run scope holds its children: the process
 * watcher, the RCON session (`actor/rconSession.ts`) and the status poller
 * (`actor/statusPoller.ts`); closing the scope ends them all. A child's failure is recorded in the
 * state and retried; it never takes the actor down. The stop escalation and
 * the watchdog's rules live in `actor/stopEscalation.ts` and
 * `actor/watchdog.ts`.
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
import * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { EventBusShape } from "../events/EventBus.js"
import { followLogs, type LogFollower } from "../game/LogFollower.js"
import { type OnlinePlayer, parsePlayers } from "../game/Players.js"
import { BeforeServerStart } from "../kernel/Hooks.js"
import type { RconClient } from "../rcon/RconClient.js"
import { ActorError } from "./ActorError.js"
import { FILE_OPERATIONS, makeFilesHolds } from "./actor/filesHold.js"
import { type LifecycleSteps, makeOperationSlot, type OperationBody, type OperationKind } from "./actor/operation.js"
import { type ActorEnvironment, type ActorOptions, defaultActorOptions, type RestartReason } from "./actor/options.js"
import { makeRoster } from "./actor/players.js"
import { rconSession } from "./actor/rconSession.js"
import { restartOperation } from "./actor/restart.js"
import { statusPoller } from "./actor/statusPoller.js"
import { escalateStop } from "./actor/stopEscalation.js"
import { planAfterCrash } from "./actor/watchdog.js"
import { hostPortsOf } from "./EntryPorts.js"
import {
  ServerCrashed,
  ServerLocked,
  ServerRestarted,
  ServerStarted,
  ServerStarting,
  ServerStopped,
  ServerUnlocked
} from "./events.js"
import { launchProblem } from "./LaunchParameters.js"
import type { ProcessExit, ProcessHandle } from "./ProcessLauncher.js"
import { recentOutput, withRecentOutput } from "./ProcessOutput.js"
import { profilesFolder } from "./ProfilesFolder.js"
import type { ServerEntry } from "./ServerEntry.js"
import { initialState, type ServerState } from "./ServerState.js"

export { defaultActorOptions } from "./actor/options.js"
export type { ActorEnvironment, ActorOptions, PortOwner, RestartReason } from "./actor/options.js"
export type { LifecycleSteps, OperationBody, OperationContext, OperationKind, ServerOperation } from "./actor/operation.js"

export interface ServerActor {
  readonly serverId: string
  readonly entry: Effect.Effect<ServerEntry>
  readonly state: Effect.Effect<ServerState>
  readonly changes: Stream.Stream<ServerState>
  readonly start: Effect.Effect<void, ActorError>
  /** Cancels a running operation (a restart) first: a stop always wins. */
  readonly stop: Effect.Effect<void, ActorError>
  /** Runs as an operation: refused with `busy` while another runs; a stop cancels it. */
  readonly restart: (reason: RestartReason) => Effect.Effect<void, ActorError>
  readonly setLocked: (locked: boolean) => Effect.Effect<void, ActorError>
  /** Applies at the next start. Never waits for the mailbox. */
  readonly update: (entry: ServerEntry) => Effect.Effect<void, ActorError>
  /**
   * Runs `body` as this server's long operation (a child fiber; progress in
   * `state.operation`; status `updating` while an `update` runs). Refused
   * with `busy` while another runs; a stop interrupts it (`cancelled`).
   * `steps.start`/`steps.stop` change the process under the actor's lock.
   */
  readonly runOperation: (
    kind: OperationKind,
    body: OperationBody
  ) => Effect.Effect<void, ActorError>
  /**
   * Holds the server's files for `what` ("mod install") until the scope
   * closes: granted only while no process runs and no operation (but
   * `within`, the caller's own) or other hold does; meanwhile a start, an
   * operation or a retire is refused with `busy`, naming `what`. Decided in
   * the mailbox, so a start cannot slip between the check and the work.
   */
  readonly holdFiles: (what: string, within?: OperationKind) => Effect.Effect<void, ActorError, Scope.Scope>
  /** Sends a command over the live RCON session (not through the mailbox: any number at once). */
  readonly rcon: (command: string) => Effect.Effect<string, ActorError>
  /**
   * The players online now (RCON `players`), each with the Steam64 and DayZ
   * ID the server's logs prove, null where they do not (see `PlayerLog`).
   */
  readonly players: Effect.Effect<ReadonlyArray<OnlinePlayer>, ActorError>
  /** Refuses while the server runs; afterwards every command fails at once with `removed`. */
  readonly retire: Effect.Effect<void, ActorError>
}


type Reply = Deferred.Deferred<void, ActorError>

type Message =
  | { readonly _tag: "Start"; readonly reply: Reply }
  | { readonly _tag: "Stop"; readonly reply: Reply }
  | { readonly _tag: "Operate"; readonly kind: OperationKind; readonly body: OperationBody; readonly reply: Reply }
  | { readonly _tag: "SetLocked"; readonly locked: boolean; readonly reply: Reply }
  | { readonly _tag: "Hold"; readonly token: number; readonly what: string; readonly within: OperationKind | undefined; readonly reply: Reply }
  | { readonly _tag: "Retire"; readonly reply: Reply }
  | { readonly _tag: "Exited"; readonly generation: number; readonly exit: ProcessExit }
  | { readonly _tag: "WatchdogFired" }

interface Run {
  readonly generation: number
  readonly handle: ProcessHandle
  readonly scope: Scope.CloseableScope
  /** This run's RPT and ADM logs, read for who the players are. */
  readonly logs: LogFollower
  /** Set once a stop began: the exit that follows is the stop's, not a crash. */
  stopping: boolean
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
    /** One process-changing step at a time: the mailbox's and an operation's. */
    const lifecycle = yield* Effect.makeSemaphore(1)
    /** Fails every waiting caller once the actor is gone, so no request hangs on a mailbox nobody reads. */
    const closed = yield* Deferred.make<never, ActorError>()
    let entry = initialEntry
    let run: Run | undefined
    let generation = 0
    let watchdog: Fiber.RuntimeFiber<void> | undefined
    let retired = false
    /** Why the server last crashed, for the watchdog's restart message. */
    let lastCrash: string | undefined

    const fail = (reason: ActorError["reason"], message: string) => new ActorError({ serverId, reason, message })
    const removed = () => fail("removed", `server ${entry.name} (${serverId}) was removed`)
    /** Without RCON settings nothing can be sent: not a passing state (503) but something to set up. */
    const noRconSettings = () =>
      fail("unsupported", `${entry.name} has no RCON settings: set rcon (protocol, host, port, password) to control the game`)
    const patch = (f: Partial<ServerState> | ((s: ServerState) => Partial<ServerState>)) =>
      SubscriptionRef.update(state, (s) => ({ ...s, ...(typeof f === "function" ? f(s) : f) }))
    const publish = (event: Parameters<EventBusShape["publish"]>[0]) => env.bus.publish(event)
    const names = () => ({ serverId, name: entry.name })
    const warn = (message: string) => Effect.logWarning(message).pipe(Effect.annotateLogs({ serverId }))
    const step = <A, E>(effect: Effect.Effect<A, E>) => lifecycle.withPermits(1)(effect)

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => void (retired = true)).pipe(Effect.zipRight(Deferred.fail(closed, removed())))
    )

    const cancelWatchdog = Effect.suspend(() => {
      const fiber = watchdog
      watchdog = undefined
      return fiber ? Fiber.interrupt(fiber) : Effect.void
    })

    const roster = yield* makeRoster({
      serverId,
      names,
      logs: () => run?.logs,
      client: Ref.get(rconClient),
      rconTimeout: options.rconTimeout,
      patch,
      publish,
      scope: actorScope
    })

    // ---- children of a run -------------------------------------------------

    const pollerDeps = {
      interval: options.statusInterval,
      entry: () => entry,
      state: SubscriptionRef.get(state),
      patch,
      refreshPlayers: roster.refresh,
      usage: env.launcher.usage
    }

    /** Becomes `running` on `handle`, with its children in a fresh run scope. */
    const beginRun = (handle: ProcessHandle, startedAt: number, reattached: boolean) =>
      Effect.gen(function* () {
        generation += 1
        const current = generation
        const scope = yield* Scope.fork(actorScope, ExecutionStrategy.sequential)
        run = { generation: current, handle, scope, logs: followLogs(profilesFolder(entry), startedAt), stopping: false }
        // A start runs this uninterruptibly (a spawned process must be recorded), and a fork inherits
        // that: the children are made interruptible again, or closing the run scope would wait forever.
        const child = (effect: Effect.Effect<unknown>) => Effect.forkIn(Effect.interruptible(effect), scope)
        yield* child(Effect.flatMap(handle.exited, (exit) => mailbox.offer({ _tag: "Exited", generation: current, exit })))
        if (entry.rcon !== undefined) {
          yield* child(
            rconSession(entry.rcon, {
              connect: env.connectRcon,
              retry: options.rconRetry,
              setClient: (client) => Ref.set(rconClient, client),
              showState: (rcon) => patch({ rcon }),
              showError: (lastError) => patch({ lastError }),
              onConnected: roster.refresh,
              onMessage: roster.onServerMessage
            })
          )
        }
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
        yield* child(statusPoller(pollerDeps, handle.pid, startedAt))
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

    // ---- lifecycle steps (each under the lock) -------------------------------

    /** A game or RCON port held on the host: refused before anything is spawned, naming the port and its holder. */
    const checkHostPorts = Effect.gen(function* () {
      const taken = yield* env.launcher.takenPorts(hostPortsOf(entry))
      if (taken.length === 0) return
      const described = yield* Effect.forEach(taken, (port) =>
        Effect.map(Effect.sync(() => env.portOwner?.(port.port, serverId)), (owner) =>
          `${port.field} ${port.port} (${port.protocol.toUpperCase()}) is in use on this host` +
            (owner === undefined ? " by another program" : ` by server "${owner.name}" (${owner.serverId})`)
        )
      )
      return yield* Effect.fail(fail("ports-in-use", `${entry.name} cannot start: ${described.join("; ")}`))
    })

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
        yield* checkHostPorts
        yield* env.hooks
          .run(BeforeServerStart, { serverId, name: entry.name, installDir: entry.installDir })
          .pipe(Effect.mapError((e) => fail("hook-failed", `plugin ${e.plugin} refused the start: ${e.message}`)))
        // From the spawn until the run is recorded, nothing may interrupt: a process nobody knows of would be left.
        return yield* Effect.uninterruptible(
          Effect.gen(function* () {
            const handle = yield* env.launcher
              .spawn(entry)
              .pipe(
                Effect.mapError((e) =>
                  e._tag === "LaunchUserRefused" ? fail("runs-as-root", e.message) : fail("spawn-failed", `cannot start ${e.executable}: ${e.message}`)
                )
              )
            const startedAt = yield* Clock.currentTimeMillis
            yield* env.records.set(serverId, { pid: handle.pid, startToken: handle.startToken, startedAt })
            yield* beginRun(handle, startedAt, false)
          })
        )
      }).pipe(
        Effect.tapError((error) => patch({ status: "stopped", pid: undefined, lastError: error.message })),
        // A stop cancelled the start before anything was spawned.
        Effect.onInterrupt(() => patch({ status: "stopped", pid: undefined, lastError: "the start was cancelled" }))
      )
      return started
    })

    const stopProcess = Effect.gen(function* () {
      const current = run
      if (current === undefined) return yield* Effect.fail(fail("not-running", `${entry.name} is not running`))
      current.stopping = true
      yield* patch({ status: "stopping" })
      const how = yield* escalateStop({
        handle: current.handle,
        rcon: yield* Ref.get(rconClient),
        policy: entry.stop,
        rconTimeout: options.rconTimeout,
        killWait: options.killWait
      })
      if (Option.isNone(how)) {
        yield* patch({ lastError: `pid ${current.handle.pid} survived SIGKILL` })
        return yield* Effect.fail(fail("stop-failed", `${entry.name} (pid ${current.handle.pid}) did not stop, even after SIGKILL`))
      }
      yield* Effect.uninterruptible(
        endRun.pipe(
          Effect.zipRight(
            patch({ status: "stopped", pid: undefined, startedAt: undefined, players: [], cpu: undefined, memoryBytes: undefined, locked: false })
          ),
          Effect.zipRight(publish(new ServerStopped({ ...names(), how: how.value })))
        )
      )
    })

    /** The process ended while nobody was stopping it; `reason` says why, as a person reads it. */
    const onCrash = (exit: ProcessExit, given?: string) =>
      Effect.gen(function* () {
        const before = yield* SubscriptionRef.get(state)
        const now = yield* Clock.currentTimeMillis
        // The process's own last words say more than its exit code.
        const reason = given ?? withRecentOutput(describeExit(exit), yield* recentOutput(entry))
        const plan = planAfterCrash({
          name: entry.name,
          reason,
          watchdog: entry.watchdog,
          previousCrashes: before.consecutiveCrashes,
          ranMs: before.startedAt === undefined ? undefined : now - before.startedAt,
          options
        })
        yield* endRun
        lastCrash = reason
        yield* patch({
          status: "crashed",
          pid: undefined,
          startedAt: undefined,
          players: [],
          locked: false,
          consecutiveCrashes: plan.crashes,
          lastError: plan.lastError
        })
        yield* warn(plan.logLine)
        yield* publish(
          new ServerCrashed({
            ...names(),
            exitCode: exit.code,
            signal: exit.signal,
            reason,
            consecutiveCrashes: plan.crashes,
            watchdog: plan.action,
            restartInMs: plan.delay
          })
        )
        if (plan.delay !== null) {
          watchdog = yield* Effect.forkIn(
            Effect.sleep(Duration.millis(plan.delay)).pipe(Effect.zipRight(mailbox.offer({ _tag: "WatchdogFired" })), Effect.asVoid),
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
        if (entry.rcon === undefined) return yield* Effect.fail(noRconSettings())
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

    const steps: LifecycleSteps = {
      start: step(startProcess),
      stop: step(stopProcess),
      running: Effect.sync(() => run !== undefined)
    }

    // ---- operations ----------------------------------------------------------

    const operations = makeOperationSlot({
      scope: actorScope,
      state: SubscriptionRef.get(state),
      patch,
      steps,
      cancelled: (kind) => fail("cancelled", `the ${kind} of ${entry.name} was cancelled by a stop`)
    })

    const restartBody = (reason: RestartReason) =>
      restartOperation(reason, {
        attempts: options.restartAttempts,
        backoff: options.restartBackoff,
        names,
        publish,
        started: (why) => patch((s) => ({ consecutiveCrashes: why === "watchdog" ? s.consecutiveCrashes : 0 })),
        gaveUp: (message) => fail("restart-failed", message)
      })

    const refuseRetire = () =>
      Effect.fail(fail("already-running", `${entry.name} is ${run?.stopping === true ? "stopping" : "running"}; stop it first`))

    const busy = () =>
      Effect.fail(
        fail("busy", `${entry.name} is busy: its ${operations.running() ?? "operation"} is running; wait for it, or stop the server`)
      )

    // ---- files holds (actor/filesHold.ts) ------------------------------------

    const holds = makeFilesHolds({ patch })
    /** The watchdog fired while the files were held: it restarts the server once the last hold ends. */
    let watchdogAfterHold = false
    const releaseHold = (token: number) =>
      holds.release(token).pipe(
        Effect.zipRight(
          Effect.suspend(() => {
            if (!watchdogAfterHold || holds.heldFor() !== undefined) return Effect.void
            watchdogAfterHold = false
            return Effect.asVoid(mailbox.offer({ _tag: "WatchdogFired" }))
          })
        )
      )
    const filesHeld = (what: string) => Effect.fail(fail("busy", `${entry.name} is busy: its ${what} is under way; wait for it to end`))
    /** Why an operation of this kind may not begin now, if it may not: another operation, a hold, or a running process for one that writes files. */
    const refuseOperation = (kind: OperationKind): Effect.Effect<never, ActorError> | undefined => {
      if (operations.running() !== undefined) return busy()
      const held = holds.heldFor()
      if (held !== undefined) return filesHeld(held)
      if (run !== undefined && FILE_OPERATIONS.has(kind)) {
        return Effect.fail(fail("already-running", `${entry.name} is ${run.stopping ? "stopping" : "running"}: stop it before its ${kind}`))
      }
      return undefined
    }
    const takeHold = (token: number, what: string, within: OperationKind | undefined): Effect.Effect<void, ActorError> => {
      if (run !== undefined) return Effect.fail(fail("already-running", `${entry.name} is ${run.stopping ? "stopping" : "running"}: stop it before its ${what}`))
      const operation = operations.running()
      if (operation !== undefined && operation !== within) return busy()
      const held = holds.heldFor()
      if (held !== undefined) return filesHeld(held)
      return holds.take(token, what)
    }

    // ---- the mailbox -------------------------------------------------------

    const handle = (message: Message): Effect.Effect<void> => {
      const answer = (reply: Reply, effect: Effect.Effect<void, ActorError>) =>
        Effect.exit(effect).pipe(Effect.flatMap((exit) => Deferred.done(reply, exit)), Effect.asVoid)
      if (retired && "reply" in message) return Deferred.fail(message.reply, removed()).pipe(Effect.asVoid)
      switch (message._tag) {
        case "Start": {
          const held = holds.heldFor()
          return answer(
            message.reply,
            operations.running() !== undefined ? busy() : held !== undefined ? filesHeld(held) : cancelWatchdog.pipe(Effect.zipRight(step(startProcess)))
          )
        }
        case "Stop":
          return answer(
            message.reply,
            Effect.gen(function* () {
              const hadOperation = operations.running() !== undefined
              yield* operations.cancel
              const hadWatchdog = watchdog !== undefined
              yield* cancelWatchdog
              yield* step(
                Effect.suspend(() => {
                  // Stopping a crashed server that was waiting for the watchdog, or a restart between
                  // attempts, just calls it off.
                  if (run === undefined && (hadWatchdog || hadOperation)) return patch({ status: "stopped" })
                  return stopProcess
                })
              )
            })
          )
        case "Operate": {
          const refused = refuseOperation(message.kind)
          if (refused !== undefined) return answer(message.reply, refused)
          return cancelWatchdog.pipe(
            Effect.zipRight(operations.begin(message.kind, message.body, message.reply)),
            Effect.catchAllCause((cause) => Deferred.failCause(message.reply, cause)),
            Effect.asVoid
          )
        }
        case "Hold":
          return holds.stillWanted(message.token) ? answer(message.reply, takeHold(message.token, message.what, message.within)) : Effect.void
        case "SetLocked":
          return answer(message.reply, operations.running() !== undefined ? busy() : step(setLocked(message.locked)))
        case "Retire": {
          const held = holds.heldFor()
          return answer(
            message.reply,
            held !== undefined
              ? filesHeld(held)
              : run !== undefined || operations.running() !== undefined
              ? refuseRetire()
              : cancelWatchdog.pipe(Effect.tap(() => Effect.sync(() => void (retired = true))))
          )
        }
        case "Exited":
          // The exit a stop waits for is the stop's to handle; any other of the current run is a crash.
          return Effect.suspend(() =>
            run !== undefined && message.generation === run.generation && !run.stopping
              ? step(
                  Effect.suspend(() =>
                    run !== undefined && message.generation === run.generation && !run.stopping ? onCrash(message.exit) : Effect.void
                  )
                )
              : Effect.void
          )
        case "WatchdogFired":
          // A restart or update running now starts the server itself; a files hold puts the restart off until it ends.
          if (operations.running() !== undefined) return Effect.void
          if (holds.heldFor() !== undefined) return Effect.sync(() => void (watchdogAfterHold = true))
          return step(onWatchdog)
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
        const output = yield* recentOutput(entry)
        yield* onCrash({ code: null, signal: null }, withRecentOutput("the server stopped while the controller was away", output))
      }
    }

    /** One command over the live RCON session (not through the mailbox: any number at once). */
    const rconCommand = (command: string) =>
      Effect.gen(function* () {
        if (retired) return yield* Effect.fail(removed())
        if (entry.rcon === undefined) return yield* Effect.fail(noRconSettings())
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

    /** Posts a message and waits for its answer, or fails at once with `removed` when the actor is gone. */
    const ask = (make: (reply: Reply) => Message) =>
      Effect.flatMap(Deferred.make<void, ActorError>(), (reply) =>
        Effect.suspend(() => (retired ? Effect.fail(removed()) : mailbox.offer(make(reply)))).pipe(
          Effect.zipRight(Effect.raceFirst(Deferred.await(reply), Deferred.await(closed)))
        )
      )

    return {
      serverId,
      entry: Effect.sync(() => entry),
      state: SubscriptionRef.get(state),
      changes: state.changes,
      start: ask((reply) => ({ _tag: "Start", reply })),
      stop: ask((reply) => ({ _tag: "Stop", reply })),
      restart: (reason) => ask((reply) => ({ _tag: "Operate", kind: "restart", body: restartBody(reason), reply })),
      runOperation: (kind, body) => ask((reply) => ({ _tag: "Operate", kind, body, reply })),
      setLocked: (locked) => ask((reply) => ({ _tag: "SetLocked", locked, reply })),
      // The release is in the scope before the request is posted: a caller interrupted while it waits withdraws it.
      holdFiles: (what, within) =>
        Effect.suspend(() => {
          const token = holds.request()
          return Effect.zipRight(
            Effect.addFinalizer(() => releaseHold(token)),
            ask((reply) => ({ _tag: "Hold", token, what, within, reply }))
          )
        }),
      update: (next) =>
        Effect.suspend(() => {
          if (retired) return Effect.fail(removed())
          entry = next
          return Effect.void
        }),
      // Refused at once while a process or an operation runs (a stop in progress holds the mailbox);
      // otherwise through the mailbox, after any start already queued.
      retire: Effect.suspend(() =>
        run !== undefined || operations.running() !== undefined
          ? refuseRetire()
          : holds.heldFor() !== undefined
            ? filesHeld(holds.heldFor()!)
            : ask((reply) => ({ _tag: "Retire", reply }))
      ),
      players: Effect.flatMap(rconCommand("players"), (reply) => roster.identify(parsePlayers(reply))),
      rcon: (command) => rconCommand(command)
    }
  })
