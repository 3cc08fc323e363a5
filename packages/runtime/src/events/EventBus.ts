/**
 * A typed, in-process event bus. Events are `Schema` classes with a `_tag`
 * (`Schema.TaggedClass`), so later plugins (webhooks, audit) can encode them.
 *
 * Publishing never waits for a handler: each handler has its own queue and
 * fiber. A handler that fails, dies or runs past its time limit is logged and
 * interrupted; it never affects the publisher or the other handlers.
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

export interface EventBusOptions {
  /** Longest a handler may take for one event before it is interrupted. */
  readonly handlerTimeout: Duration.DurationInput
  /** Events waiting per handler; beyond it the oldest are dropped. */
  readonly queueCapacity: number
  /** At shutdown, how long (wall-clock) handlers may take to finish the events already queued. */
  readonly drainTimeout: Duration.DurationInput
}

export interface EventBusShape {
  readonly publish: (event: AnyEvent) => Effect.Effect<void>
  /** Register a handler for the life of the current scope; queued events are drained when it closes. */
  readonly register: <R>(owner: string, handler: EventHandler<R>) => Effect.Effect<void, never, R | Scope.Scope>
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

/** Tells a handler's fiber that the bus is closing: finish what is queued, then stop. */
const STOP = Symbol("EventBus/stop")

export class EventBus extends Context.Tag("@garrison/runtime/EventBus")<EventBus, EventBusShape>() {
  static readonly make = (options: Partial<EventBusOptions> = {}) =>
    Effect.gen(function* () {
      const timeout = Duration.decode(options.handlerTimeout ?? Duration.seconds(30))
      const drainTimeout = Duration.decode(options.drainTimeout ?? Duration.seconds(5))
      const capacity = options.queueCapacity ?? 1000
      const byTag = new Map<string, Array<Queue.Queue<AnyEvent | typeof STOP>>>()
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

      const publish: EventBusShape["publish"] = (event) =>
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

      const subscribe: EventBusShape["subscribe"] = (eventClass) =>
        Effect.map(PubSub.subscribe(all), (subscription) =>
          Stream.fromQueue(subscription).pipe(
            Stream.filter((event): event is InstanceType<typeof eventClass> => event instanceof eventClass)
          )
        )

      const stream: EventBusShape["stream"] = (eventClass) => Stream.unwrapScoped(subscribe(eventClass))

      return EventBus.of({ publish, register, subscribe, stream })
    })

  static readonly layer = (options?: Partial<EventBusOptions>) => Layer.scoped(EventBus, EventBus.make(options))
}

