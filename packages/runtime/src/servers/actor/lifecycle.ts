/**
 * The steps that change a server's process, each taken under the actor's
 * lock (`ActorKit.step`) by the mailbox or by an operation: a start (the
 * launch rules, the host's ports, the `BeforeServerStart` hook, the spawn),
 * a stop (`stopEscalation.ts`), and the RCON #lock/#unlock of a running
 * server.
 *
 * A start, or the reattach when the actor is made, begins a run
 * (`beginRun`): the process with its children in a run scope forked from
 * the actor's: the exit watcher, the RCON session (`rconSession.ts`) and the
 * status poller (`statusPoller.ts`). `endRun` closes that scope once the
 * process is gone. The exit is handed to `exited`, which posts it to the
 * mailbox: whether it was a crash is the mailbox's to decide.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Scope from "effect/Scope"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { followLogs } from "../../game/LogFollower.js"
import { BeforeServerStart } from "../../kernel/Hooks.js"
import type { ActorError } from "../ActorError.js"
import { hostPortsOf } from "../EntryPorts.js"
import { ServerLocked, ServerStarted, ServerStarting, ServerStopped, ServerUnlocked } from "../events.js"
import { launchProblem } from "../LaunchParameters.js"
import type { ProcessExit, ProcessHandle } from "../ProcessLauncher.js"
import { profilesFolder } from "../ProfilesFolder.js"
import { countRconFailures } from "../../telemetry/rconFailures.js"
import type { ActorKit } from "./cell.js"
import { rconSession } from "./rconSession.js"
import { readLogFacts, statusPoller } from "./statusPoller.js"
import { escalateStop } from "./stopEscalation.js"

export interface LifecycleDeps {
  /** Asks the server who is on (the roster, `players.ts`). */
  readonly refreshPlayers: Effect.Effect<void>
  /** One message the server sent over RCON (the roster, `players.ts`). */
  readonly onServerMessage: (text: string) => Effect.Effect<void>
  /** The process of run `generation` ended: posts it to the mailbox. */
  readonly exited: (generation: number, exit: ProcessExit) => Effect.Effect<unknown>
}

export interface Lifecycle {
  /** Becomes `running` on `handle`, with its children in a fresh run scope. */
  readonly beginRun: (handle: ProcessHandle, startedAt: number, reattached: boolean) => Effect.Effect<void>
  /** Ends the current run's children (the RCON session shows `closed`); the process itself is already gone. */
  readonly endRun: Effect.Effect<void>
  /** Refused while a process runs. Not under the lock by itself: wrap it in `step`. */
  readonly startProcess: Effect.Effect<void, ActorError>
  /** Refused while none runs. Not under the lock by itself: wrap it in `step`. */
  readonly stopProcess: Effect.Effect<void, ActorError>
  /** RCON #lock or #unlock. Not under the lock by itself: wrap it in `step`. */
  readonly setLocked: (locked: boolean) => Effect.Effect<void, ActorError>
}

export const makeLifecycle = (kit: ActorKit, deps: LifecycleDeps): Lifecycle => {
  const { cell, env, fail, names, options, patch, publish, rconClient, serverId } = kit

  // ---- a run and its children ----------------------------------------------

  const pollerDeps = {
    interval: options.statusInterval,
    entry: () => cell.entry,
    state: SubscriptionRef.get(kit.state),
    patch,
    refreshPlayers: deps.refreshPlayers,
    usage: env.launcher.usage
  }

  const beginRun = (handle: ProcessHandle, startedAt: number, reattached: boolean) =>
    Effect.gen(function* () {
      cell.generation += 1
      const current = cell.generation
      const scope = yield* Scope.fork(kit.scope, ExecutionStrategy.sequential)
      cell.run = { generation: current, handle, scope, logs: followLogs(profilesFolder(cell.entry), startedAt), stopping: false }
      // A start runs this uninterruptibly (a spawned process must be recorded), and a fork inherits
      // that: the children are made interruptible again, or closing the run scope would wait forever.
      const child = (effect: Effect.Effect<unknown>) => Effect.forkIn(Effect.interruptible(effect), scope)
      yield* child(Effect.flatMap(handle.exited, (exit) => deps.exited(current, exit)))
      if (cell.entry.rcon !== undefined) {
        yield* child(
          rconSession(cell.entry.rcon, {
            connect: env.telemetry === undefined ? env.connectRcon : countRconFailures(env.connectRcon, env.telemetry, serverId),
            retry: options.rconRetry,
            setClient: (client) => Ref.set(rconClient, client),
            showState: (rcon) => patch({ rcon }),
            showError: (lastError) => patch({ lastError }),
            // The log head (map, version) is written by then; the first status sample ran too early for it.
            onConnected: Effect.zipRight(deps.refreshPlayers, readLogFacts(pollerDeps, startedAt)),
            onMessage: deps.onServerMessage
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

  const endRun = Effect.suspend(() => {
    const ending = cell.run
    cell.run = undefined
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
      s.rcon === undefined && cell.entry.rcon === undefined
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

  // ---- the steps (each under the lock) -------------------------------------

  /** A game or RCON port held on the host: refused before anything is spawned, naming the port and its holder. */
  const checkHostPorts = Effect.gen(function* () {
    const taken = yield* env.launcher.takenPorts(hostPortsOf(cell.entry))
    if (taken.length === 0) return
    const described = yield* Effect.forEach(taken, (port) =>
      Effect.map(Effect.sync(() => env.portOwner?.(port.port, serverId)), (owner) =>
        `${port.field} ${port.port} (${port.protocol.toUpperCase()}) is in use on this host` +
          (owner === undefined ? " by another program" : ` by server "${owner.name}" (${owner.serverId})`)
      )
    )
    return yield* Effect.fail(fail("ports-in-use", `${cell.entry.name} cannot start: ${described.join("; ")}`))
  })

  const startProcess = Effect.gen(function* () {
    if (cell.run !== undefined) return yield* Effect.fail(fail("already-running", `${cell.entry.name} is already running`))
    // An entry stored before the launch rules (or edited in the database) is refused before anything runs.
    const problem = launchProblem(cell.entry)
    if (problem !== undefined) {
      const message = `${cell.entry.name} cannot start: ${problem.field}: ${problem.message}`
      yield* patch({ lastError: message })
      return yield* Effect.fail(fail("invalid-entry", message))
    }
    yield* patch({ status: "starting", lastError: undefined })
    yield* publish(new ServerStarting(names()))
    const started = yield* Effect.gen(function* () {
      yield* checkHostPorts
      yield* env.hooks
        .run(BeforeServerStart, { serverId, name: cell.entry.name, installDir: cell.entry.installDir })
        .pipe(Effect.mapError((e) => fail("hook-failed", `plugin ${e.plugin} refused the start: ${e.message}`)))
      // From the spawn until the run is recorded, nothing may interrupt: a process nobody knows of would be left.
      return yield* Effect.uninterruptible(
        Effect.gen(function* () {
          const handle = yield* env.launcher
            .spawn(cell.entry)
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
    const current = cell.run
    if (current === undefined) return yield* Effect.fail(fail("not-running", `${cell.entry.name} is not running`))
    current.stopping = true
    yield* patch({ status: "stopping" })
    const how = yield* escalateStop({
      handle: current.handle,
      rcon: yield* Ref.get(rconClient),
      policy: cell.entry.stop,
      rconTimeout: options.rconTimeout,
      killWait: options.killWait
    })
    if (Option.isNone(how)) {
      yield* patch({ lastError: `pid ${current.handle.pid} survived SIGKILL` })
      return yield* Effect.fail(fail("stop-failed", `${cell.entry.name} (pid ${current.handle.pid}) did not stop, even after SIGKILL`))
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

  const setLocked = (locked: boolean) =>
    Effect.gen(function* () {
      if (cell.entry.rcon === undefined) return yield* Effect.fail(kit.noRconSettings())
      if (cell.run === undefined) return yield* Effect.fail(fail("not-running", `${cell.entry.name} is not running`))
      const client = yield* Ref.get(rconClient)
      if (Option.isNone(client)) {
        return yield* Effect.fail(fail("rcon-unavailable", `${cell.entry.name} has no RCON session yet`))
      }
      yield* client.value
        .command(locked ? "#lock" : "#unlock", { timeout: options.rconTimeout })
        .pipe(Effect.mapError((e) => fail("rcon-failed", `RCON ${locked ? "#lock" : "#unlock"} failed: ${e._tag}`)))
      yield* patch({ locked })
      yield* publish(locked ? new ServerLocked(names()) : new ServerUnlocked(names()))
    })

  return { beginRun, endRun, startProcess, stopProcess, setLocked }
}
