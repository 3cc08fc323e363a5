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
 *
 * The parts of an actor live in `actor/` by concept: the state they share
 * (`cell.ts`), the process-changing steps and a run's children
 * (`lifecycle.ts`), crashes and the watchdog's restarts (`crashes.ts`), and
 * the messages with the refusals decided when they are taken (`mailbox.ts`).
 * This module keeps the public interface, wires the parts together in
 * `make`, reattaches at creation, and sends RCON commands.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { type OnlinePlayer, parsePlayers } from "../game/Players.js"
import type { RconClient } from "../rcon/RconClient.js"
import type { ActorError } from "./ActorError.js"
import { makeActorCell, makeActorKit } from "./actor/cell.js"
import { makeCrashes } from "./actor/crashes.js"
import { makeFilesHolds } from "./actor/filesHold.js"
import { makeLifecycle } from "./actor/lifecycle.js"
import { makeMailboxHandler, type Message, type Reply } from "./actor/mailbox.js"
import { type LifecycleSteps, makeOperationSlot, type OperationBody, type OperationKind } from "./actor/operation.js"
import { type ActorEnvironment, type ActorOptions, defaultActorOptions, type RestartReason } from "./actor/options.js"
import { makeRoster } from "./actor/players.js"
import { restartOperation } from "./actor/restart.js"
import { recentOutput, withRecentOutput } from "./ProcessOutput.js"
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
    const lock = yield* Effect.makeSemaphore(1)
    /** Fails every waiting caller once the actor is gone, so no request hangs on a mailbox nobody reads. */
    const closed = yield* Deferred.make<never, ActorError>()
    /** The state the parts below share and change: the entry, the run, the watchdog (`actor/cell.ts`). */
    const cell = makeActorCell(initialEntry)
    const kit = makeActorKit({ serverId, cell, env, options, scope: actorScope, state, rconClient, lock })
    const { fail, removed, patch } = kit

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => void (cell.retired = true)).pipe(Effect.zipRight(Deferred.fail(closed, removed())))
    )

    const roster = yield* makeRoster({
      serverId,
      names: kit.names,
      logs: () => cell.run?.logs,
      client: Ref.get(rconClient),
      rconTimeout: options.rconTimeout,
      patch,
      publish: kit.publish,
      scope: actorScope
    })

    // ---- the process: its steps and its crashes (actor/lifecycle.ts, actor/crashes.ts) ----

    const lifecycle = makeLifecycle(kit, {
      refreshPlayers: roster.refresh,
      onServerMessage: roster.onServerMessage,
      exited: (generation, exit) => mailbox.offer({ _tag: "Exited", generation, exit })
    })
    const crashes = makeCrashes(kit, { lifecycle, fire: Effect.asVoid(mailbox.offer({ _tag: "WatchdogFired" })) })

    const steps: LifecycleSteps = {
      start: kit.step(lifecycle.startProcess),
      stop: kit.step(lifecycle.stopProcess),
      running: Effect.sync(() => cell.run !== undefined)
    }

    // ---- operations ----------------------------------------------------------

    const operations = makeOperationSlot({
      scope: actorScope,
      state: SubscriptionRef.get(state),
      patch,
      steps,
      cancelled: (kind) => fail("cancelled", `the ${kind} of ${cell.entry.name} was cancelled by a stop`)
    })

    const restartBody = (reason: RestartReason) =>
      restartOperation(reason, {
        attempts: options.restartAttempts,
        backoff: options.restartBackoff,
        names: kit.names,
        publish: kit.publish,
        started: (why) => patch((s) => ({ consecutiveCrashes: why === "watchdog" ? s.consecutiveCrashes : 0 })),
        gaveUp: (message) => fail("restart-failed", message)
      })

    // ---- the mailbox (actor/mailbox.ts), with the files holds (actor/filesHold.ts) ----

    const holds = makeFilesHolds({ patch })
    const handler = makeMailboxHandler(kit, { mailbox, lifecycle, crashes, operations, holds })
    yield* Effect.forkIn(handler.serve, actorScope)

    // ---- reattach ------------------------------------------------------------

    const recorded = yield* env.records.get(serverId)
    if (Option.isSome(recorded)) {
      const attached = yield* env.launcher.attach(recorded.value.pid, recorded.value.startToken)
      if (Option.isSome(attached)) {
        yield* lifecycle.beginRun(attached.value, recorded.value.startedAt, true)
      } else {
        // It was running when the controller went away and is gone now: that is a crash.
        yield* env.records.clear(serverId)
        yield* patch({ startedAt: recorded.value.startedAt })
        const output = yield* recentOutput(cell.entry)
        yield* crashes.onCrash({ code: null, signal: null }, withRecentOutput("the server stopped while the controller was away", output))
      }
    }

    /** One command over the live RCON session (not through the mailbox: any number at once). */
    const rconCommand = (command: string) =>
      Effect.gen(function* () {
        if (cell.retired) return yield* Effect.fail(removed())
        if (cell.entry.rcon === undefined) return yield* Effect.fail(kit.noRconSettings())
        const client = yield* Ref.get(rconClient)
        if (Option.isNone(client)) {
          return yield* Effect.fail(
            fail(cell.run === undefined ? "not-running" : "rcon-unavailable", `${cell.entry.name} has no RCON session`)
          )
        }
        return yield* client.value
          .command(command, { timeout: options.rconTimeout })
          .pipe(Effect.mapError((e) => fail("rcon-failed", `RCON command failed: ${e._tag}`)))
      })

    /** Posts a message and waits for its answer, or fails at once with `removed` when the actor is gone. */
    const ask = (make: (reply: Reply) => Message) =>
      Effect.flatMap(Deferred.make<void, ActorError>(), (reply) =>
        Effect.suspend(() => (cell.retired ? Effect.fail(removed()) : mailbox.offer(make(reply)))).pipe(
          Effect.zipRight(Effect.raceFirst(Deferred.await(reply), Deferred.await(closed)))
        )
      )

    return {
      serverId,
      entry: Effect.sync(() => cell.entry),
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
            Effect.addFinalizer(() => handler.releaseHold(token)),
            ask((reply) => ({ _tag: "Hold", token, what, within, reply }))
          )
        }),
      update: (next) =>
        Effect.suspend(() => {
          if (cell.retired) return Effect.fail(removed())
          cell.entry = next
          return Effect.void
        }),
      // Refused at once while a process or an operation runs (a stop in progress holds the mailbox);
      // otherwise through the mailbox, after any start already queued.
      retire: Effect.suspend(() =>
        cell.run !== undefined || operations.running() !== undefined
          ? handler.refuseRetire()
          : holds.heldFor() !== undefined
            ? handler.filesHeld(holds.heldFor()!)
            : ask((reply) => ({ _tag: "Retire", reply }))
      ),
      players: Effect.flatMap(rconCommand("players"), (reply) => roster.identify(parsePlayers(reply))),
      rcon: (command) => rconCommand(command)
    }
  })
