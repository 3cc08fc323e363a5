import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Option, Ref, Schema, Scope, Stream, TestClock } from "effect"
import { EventBus, on } from "../src/events/EventBus.js"

class Ping extends Schema.TaggedClass<Ping>()("Ping", { n: Schema.Number }) {}
class Other extends Schema.TaggedClass<Other>()("Other", {}) {}

describe("EventBus", () => {
  it.scoped("a failing, a dying and a hanging handler never affect the publisher or the others", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make({ handlerTimeout: "5 seconds" })
      const received = yield* Ref.make<Array<number>>([])
      const hungStarted = yield* Ref.make(0)
      yield* bus.register("test", on(Ping, () => Effect.fail("boom"), "failing"))
      yield* bus.register("test", on(Ping, () => Effect.die(new Error("defect")), "dying"))
      yield* bus.register(
        "test",
        on(Ping, () => Ref.update(hungStarted, (n) => n + 1).pipe(Effect.zipRight(Effect.never)), "hanging")
      )
      yield* bus.register("test", on(Ping, (e) => Ref.update(received, (xs) => [...xs, e.n]), "good"))

      // Publishing returns at once even though one handler never finishes.
      for (let n = 1; n <= 3; n++) yield* bus.publish(new Ping({ n }))
      yield* Effect.yieldNow()
      yield* TestClock.adjust("1 second")
      expect(yield* Ref.get(received)).toEqual([1, 2, 3])
      expect(yield* Ref.get(hungStarted)).toBe(1)

      // The hanging handler is interrupted after its time limit and moves on to the next event.
      yield* TestClock.adjust("5 seconds")
      expect(yield* Ref.get(hungStarted)).toBe(2)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Ref.get(hungStarted)).toBe(3)
    })
  )

  it.scoped("delivers only events of the handler's class", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make()
      const seen = yield* Ref.make<Array<string>>([])
      yield* bus.register("test", on(Other, (e) => Ref.update(seen, (xs) => [...xs, e._tag])))
      yield* bus.publish(new Ping({ n: 1 }))
      yield* bus.publish(new Other())
      yield* TestClock.adjust("1 second")
      expect(yield* Ref.get(seen)).toEqual(["Other"])
    })
  )

  it.scoped("subscribe: an event published right after it returns is never missed", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make()
      for (let round = 0; round < 100; round++) {
        const seen = yield* Effect.scoped(
          Effect.gen(function* () {
            // Published before the subscription: not in it.
            yield* bus.publish(new Ping({ n: -1 }))
            const pings = yield* bus.subscribe(Ping)
            // No yield, no clock, no reader yet: the subscription is live once `subscribe` returned.
            yield* bus.publish(new Other())
            yield* bus.publish(new Ping({ n: round }))
            yield* bus.publish(new Ping({ n: round + 1000 }))
            // Read on another fiber, started only now: the events waited for it.
            return yield* Fiber.join(yield* Effect.fork(pings.pipe(Stream.take(2), Stream.runCollect)))
          })
        )
        expect([...seen].map((e) => e.n)).toEqual([round, round + 1000])
      }
    })
  )

  it.effect("subscribe: the stream ends when its scope closes", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make()
      const scope = yield* Scope.make()
      const pings = yield* Scope.extend(bus.subscribe(Ping), scope)
      yield* bus.publish(new Ping({ n: 1 }))
      expect(Option.map(yield* Stream.runHead(pings), (e) => e.n)).toEqual(Option.some(1))
      yield* Scope.close(scope, Exit.void)
      // Ends (rather than waiting forever) and hears nothing after the close.
      yield* bus.publish(new Ping({ n: 2 }))
      expect([...(yield* Stream.runCollect(pings))]).toEqual([])
    })
  )

  it.scoped("stream subscribes when it runs: a forked reader hears what is published once it waits", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make()
      const fiber = yield* bus.stream(Ping).pipe(Stream.take(2), Stream.runCollect, Effect.fork)
      // TestClock.adjust returns only once the test's child fibers are suspended: the reader
      // suspends only when it waits for an event, which it does after subscribing.
      yield* TestClock.adjust("1 millis")
      yield* bus.publish(new Other())
      yield* bus.publish(new Ping({ n: 7 }))
      yield* bus.publish(new Ping({ n: 8 }))
      const events = yield* Fiber.join(fiber)
      expect([...events].map((e) => e.n)).toEqual([7, 8])
    })
  )
})
