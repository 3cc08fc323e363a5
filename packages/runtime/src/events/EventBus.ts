/**
 * A typed, in-process event bus. Events are `Schema` classes with a `_tag`
 * (`Schema.TaggedClass`), so later plugins (webhooks, audit) can encode them.
 *
 * Publishing never waits for an ordinary handler (`register`): each has its
 * own queue and fiber. A handler that fails, dies or runs past its time limit
 * is logged and interrupted; it never affects the publisher or the other
 * handlers. Its queue is in memory and bounded (`queueCapacity`, the oldest
 * dropped beyond it), so what it has not handled yet is lost on a crash or
 * when it falls far behind: fine for caches, streams and notices.
 *
 * Durable handlers (`registerDurable`) are for consumers that must not lose
 * an event (webhooks' persisted queue). `publish` runs every durable handler
 * registered for the event's tag in the publisher's fiber and waits for it
 * before it returns, so by the time the publisher answers (a 201), the
 * handler's write is committed. The contract:
 *
 * - Quick: one batched write (through `GroupCommit`, so concurrent publishes
 *   share a commit), no network, nothing that waits on another event. Each
 *   call has a time limit (`durableTimeout`, or the handler's own).
 * - Only for the tags it registers; a publish of any other tag costs nothing
 *   more. A handler that writes nothing when nothing matches (decided in
 *   memory) keeps an unmatched publish free too.
 * - Never fails the publisher: the publisher has already committed its own
 *   change, so failing its answer would say the change did not happen. A
 *   handler that fails, dies or runs out of time is logged at Error, naming
 *   the event and the handler (that event may not reach that consumer).
 * - Not interrupted with the publisher: if the publisher's fiber is
 *   interrupted meanwhile, the handler still runs to its end (or its time
 *   limit) first.
 * - Runs after the publisher's own commit, in a transaction of its own,
 *   unless the publisher stages the event (below). So a crash between the
 *   publisher's commit and the handler's can lose that one event (nothing
 *   was acknowledged for it yet, but the change is stored).
 *
 * The outbox: a publisher with a transaction of its own calls
 * `stage(event)` inside it, then `publish(event)` (the same instance) after
 * the commit. `stage` runs the durable handlers there and then, in the
 * publisher's transaction (their writes join it as a savepoint, so they
 * commit with the change or not at all, and cost no commit of their own);
 * the `publish` after the commit skips them and runs their `afterCommit`
 * (a wake-up: what was written is visible now). A staged event whose
 * transaction rolls back is simply never published. Staged, a handler runs
 * in the publisher's fiber as a step of its transaction: no fiber or time
 * limit of its own, interrupted with the publisher (the transaction it
 * wrote in is rolled back then anyway).
 *
 * Streams of events (server-sent events, tests) come two ways: `stream` is
 * lazy and subscribes whenever it starts running, so nobody can tell when
 * it starts hearing; `subscribe` is subscribed by the time it returns, so a
 * caller that must not miss an event (or a test about to publish one) uses
 * it and acts only after.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

const liveClock = Clock.make()

/** An event class: `class ServerStarted extends Schema.TaggedClass<ServerStarted>()("ServerStarted", {...}) {}` */
export interface EventClass<A extends { readonly _tag: string }> {
  readonly _tag: A["_tag"]
  new (...args: never): A
}

export interface AnyEvent {
  readonly _tag: string
}

/** A handler bound to one event class, as plugins declare it. */
export interface EventHandler<R = never> {
  readonly name: string
  readonly tag: string
  readonly handle: (event: AnyEvent) => Effect.Effect<void, unknown, R>
}

/**
 * Declare a handler: `on(ServerStarted, (e) => ...)`. The instance check
 * guards against two classes sharing a tag.
 */
export const on = <A extends AnyEvent, R>(
  eventClass: EventClass<A>,
  handler: (event: A) => Effect.Effect<void, unknown, R>,
  name?: string
): EventHandler<R> => ({
  name: name ?? `on${eventClass._tag}`,
  tag: eventClass._tag,
  handle: (event) => (event instanceof eventClass ? handler(event as A) : Effect.void)
})

export interface DurableHandlerOptions {
  /** Longest the handler may take for one event (the bus's `durableTimeout` when left out). */
  readonly timeout?: Duration.DurationInput
  /**
   * A synchronous check in the publisher's fiber, before anything is forked: false skips the handler for this
   * event (no fiber, no wait). For a consumer that usually wants nothing (no webhook takes the event).
   */
  readonly wants?: (event: AnyEvent) => boolean
  /**
   * Run by `publish` for an event the handler handled in the publisher's transaction (`stage`), once that has
   * committed. Quick and in memory (it is not time-limited); failures are logged.
   */
  readonly afterCommit?: (event: AnyEvent) => Effect.Effect<void>
}

export interface EventBusOptions {
  /** Longest a handler may take for one event before it is interrupted. */
  readonly handlerTimeout: Duration.DurationInput
  /** Longest a durable handler may hold a publish for one event before it is interrupted (and the failure logged). */
  readonly durableTimeout: Duration.DurationInput
  /** Events waiting per handler; beyond it the oldest are dropped. */
  readonly queueCapacity: number
  /** At shutdown, how long (wall-clock) handlers may take to finish the events already queued. */
  readonly drainTimeout: Duration.DurationInput
}

export interface EventBusShape {
  readonly publish: (event: AnyEvent) => Effect.Effect<void>
  /**
   * The outbox half of a publish, called inside the publisher's transaction: runs the event's durable handlers
   * now, so their writes commit or roll back with the publisher's; `publish` of the same instance after the commit
   * skips them (see the module's header). Never fails the publisher, like `publish`.
   */
  readonly stage: (event: AnyEvent) => Effect.Effect<void>
  /** Register a handler for the life of the current scope; queued events are drained when it closes. */
  readonly register: <R>(owner: string, handler: EventHandler<R>) => Effect.Effect<void, never, R | Scope.Scope>
  /**
   * Register a durable handler for the life of the current scope: `publish`
   * of its tag runs it and waits for it (see the module's header for the
   * contract: quick, time-limited, logged at Error on failure, never failing
   * the publisher). It needs no services from the context (it runs in the
   * publisher's fiber, whose context is not its own): it holds those it
   * uses, taken when it was made.
   */
  readonly registerDurable: (
    owner: string,
    handler: EventHandler<never>,
    options?: DurableHandlerOptions
  ) => Effect.Effect<void, never, Scope.Scope>
  /**
   * Subscribes now: the returned stream has every event of one class
   * published after this effect returned (held until pulled), for as long as
   * the scope is open; when the scope closes the stream ends. Returning is the
   * signal that the subscription is live.
   */
  readonly subscribe: <A extends AnyEvent>(eventClass: EventClass<A>) => Effect.Effect<Stream.Stream<A>, never, Scope.Scope>
  /**
   * Every event of one class from the moment the stream starts running (it
   * subscribes then, some time after it is asked for: use `subscribe` to
   * know when it hears).
   */
  readonly stream: <A extends AnyEvent>(eventClass: EventClass<A>) => Stream.Stream<A>
}

/** A durable handler's steps: on a publish, on a stage (in the publisher's transaction), after a staged event's commit. */
interface DurableEntry {
  readonly published: (event: AnyEvent) => Effect.Effect<void>
  readonly staged: (event: AnyEvent) => Effect.Effect<void>
  readonly committed: ((event: AnyEvent) => Effect.Effect<void>) | undefined
}

const addTo = <V,>(map: Map<string, Array<V>>, key: string, value: V) => {
  const list = map.get(key) ?? []
  list.push(value)
  map.set(key, list)
}
const removeFrom = <V,>(map: Map<string, Array<V>>, key: string, value: V) => {
  const left = (map.get(key) ?? []).filter((v) => v !== value)
  if (left.length === 0) map.delete(key)
  else map.set(key, left)
}

/** Tells a handler's fiber that the bus is closing: finish what is queued, then stop. */
const STOP = Symbol("EventBus/stop")

export class EventBus extends Context.Tag("@garrison/runtime/EventBus")<EventBus, EventBusShape>() {
  static readonly make = (options: Partial<EventBusOptions> = {}) =>
    Effect.gen(function* () {
      const timeout = Duration.decode(options.handlerTimeout ?? Duration.seconds(30))
      const drainTimeout = Duration.decode(options.drainTimeout ?? Duration.seconds(5))
      const capacity = options.queueCapacity ?? 1000
      const durableTimeout = Duration.decode(options.durableTimeout ?? Duration.seconds(10))
      const byTag = new Map<string, Array<Queue.Queue<AnyEvent | typeof STOP>>>()
      /** Durable handlers per tag, each ready to run (context, time limit and logging applied). */
      const durableByTag = new Map<string, Array<DurableEntry>>()
      /** Events staged in a publisher's transaction whose `publish` has not come yet. */
      const staged = new WeakSet<AnyEvent>()
      const all = yield* PubSub.unbounded<AnyEvent>()

      const register = <R,>(owner: string, handler: EventHandler<R>): Effect.Effect<void, never, R | Scope.Scope> =>
        Effect.gen(function* () {
          const queue = yield* Queue.sliding<AnyEvent | typeof STOP>(capacity)
          const label = `${owner}/${handler.name}`
          const runOne = (event: AnyEvent) =>
            handler.handle(event).pipe(
              Effect.timeoutFail({
                duration: timeout,
                onTimeout: () => `timed out after ${Duration.format(timeout)}`
              }),
              Effect.catchAllCause((cause) =>
                Cause.isInterruptedOnly(cause)
                  ? Effect.void
                  : Effect.logWarning(`event handler ${label} failed on ${event._tag}`, Cause.pretty(cause))
              )
            )
          const loop: Effect.Effect<void, never, R> = Effect.flatMap(Queue.take(queue), (item) =>
            item === STOP ? Effect.void : Effect.zipRight(runOne(item), Effect.suspend(() => loop))
          )
          const fiber = yield* Effect.forkDaemon(loop)
          const queues = byTag.get(handler.tag) ?? []
          queues.push(queue)
          byTag.set(handler.tag, queues)
          yield* Effect.addFinalizer(() =>
            Effect.suspend(() => {
              byTag.set(handler.tag, (byTag.get(handler.tag) ?? []).filter((q) => q !== queue))
              queue.unsafeOffer(STOP)
              // Bounded in wall-clock time, so a test clock cannot hold shutdown forever.
              return Fiber.await(fiber).pipe(
                Effect.timeout(drainTimeout),
                Effect.withClock(liveClock),
                Effect.ignore,
                Effect.zipRight(Fiber.interrupt(fiber)),
                Effect.zipRight(Queue.shutdown(queue))
              )
            })
          )
        })

      const registerDurable = (
        owner: string,
        handler: EventHandler<never>,
        handlerOptions?: DurableHandlerOptions
      ): Effect.Effect<void, never, Scope.Scope> =>
        Effect.gen(function* () {
          const limit = handlerOptions?.timeout === undefined ? durableTimeout : Duration.decode(handlerOptions.timeout)
          const label = `${owner}/${handler.name}`
          /** Its failures logged: never failing. */
          const logged = (event: AnyEvent, effect: Effect.Effect<void, unknown>): Effect.Effect<void> =>
            Effect.catchAllCause(effect, (cause) =>
              Effect.logError(
                `durable event handler ${label} failed on ${event._tag}: that event may not reach it (the publisher's change stands)`,
                Cause.pretty(cause)
              )
            )
          /** The handler, time-limited, its failures logged: never failing. */
          const guarded = (event: AnyEvent): Effect.Effect<void> =>
            logged(
              event,
              handler.handle(event).pipe(
                Effect.timeoutFail({
                  duration: limit,
                  onTimeout: () => `timed out after ${Duration.format(limit)}`
                })
              )
            )
          const wants = handlerOptions?.wants
          const wanted = (event: AnyEvent) => wants === undefined || wants(event)
          const afterCommit = handlerOptions?.afterCommit
          const entry: DurableEntry = {
            // On a fiber of its own (interruptible, so its time limit can stop it), awaited without interruption: the
            // publisher's interruption (which would reach a child fiber) waits for the handler or its time limit,
            // since the publisher's change is committed already.
            published: (event) =>
              wanted(event)
                ? guarded(event).pipe(Effect.interruptible, Effect.forkDaemon, Effect.flatMap(Fiber.await), Effect.asVoid, Effect.uninterruptible)
                : Effect.void,
            // In the publisher's fiber and transaction, as one of its steps: interrupted with it (its transaction is
            // rolled back then), and bounded as it is (no time limit of its own, whose timer would cost more than the
            // write it guards).
            staged: (event) => (wanted(event) ? logged(event, handler.handle(event)) : Effect.void),
            committed:
              afterCommit === undefined
                ? undefined
                : (event) =>
                    Effect.suspend(() => (wanted(event) ? afterCommit(event) : Effect.void)).pipe(
                      Effect.catchAllCause((cause) => Effect.logError(`durable event handler ${label}: its after-commit step failed on ${event._tag}`, Cause.pretty(cause)))
                    )
          }
          addTo(durableByTag, handler.tag, entry)
          yield* Effect.addFinalizer(() => Effect.sync(() => removeFrom(durableByTag, handler.tag, entry)))
        })

      /** To the ordinary handlers' queues and the subscribers. */
      const offer = (event: AnyEvent): Effect.Effect<void> =>
        Effect.suspend(() => {
          const queues = byTag.get(event._tag)
          if (queues !== undefined) {
            for (const queue of queues) {
              // A sliding queue: when a handler is far behind, its oldest waiting event is dropped.
              queue.unsafeOffer(event)
            }
          }
          return PubSub.publish(all, event)
        }).pipe(Effect.asVoid)

      /** One step of every durable handler of the event's tag, awaited (concurrently when there are several). */
      const runAll = (event: AnyEvent, step: "published" | "staged" | "committed"): Effect.Effect<void> => {
        const runs: Array<(event: AnyEvent) => Effect.Effect<void>> = []
        for (const entry of durableByTag.get(event._tag) ?? []) {
          const run = entry[step]
          if (run !== undefined) runs.push(run)
        }
        if (runs.length === 0) return Effect.void
        return runs.length === 1 ? runs[0]!(event) : Effect.forEach(runs, (run) => run(event), { concurrency: "unbounded", discard: true })
      }

      /** The event's durable handlers first (or, staged, their after-commit steps), then the rest. */
      const publish: EventBusShape["publish"] = (event) =>
        Effect.suspend(() => {
          const step = staged.delete(event) ? "committed" : "published"
          return durableByTag.has(event._tag) ? Effect.zipRight(runAll(event, step), offer(event)) : offer(event)
        })

      const stage: EventBusShape["stage"] = (event) =>
        Effect.suspend(() => {
          staged.add(event)
          return runAll(event, "staged")
        })

      const subscribe: EventBusShape["subscribe"] = (eventClass) =>
        Effect.map(PubSub.subscribe(all), (subscription) =>
          Stream.fromQueue(subscription).pipe(
            Stream.filter((event): event is InstanceType<typeof eventClass> => event instanceof eventClass)
          )
        )

      const stream: EventBusShape["stream"] = (eventClass) => Stream.unwrapScoped(subscribe(eventClass))

      return EventBus.of({ publish, stage, register, registerDurable, subscribe, stream })
    })

  static readonly layer = (options?: Partial<EventBusOptions>) => Layer.scoped(EventBus, EventBus.make(options))
}

