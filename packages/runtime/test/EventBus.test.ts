import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Ref, Schema, Stream, TestClock } from "effect"
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

  it.scoped("streams events of one class to subscribers", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.make()
      const fiber = yield* bus.stream(Ping).pipe(Stream.take(2), Stream.runCollect, Effect.fork)
      // Let the stream subscribe before publishing.
      yield* TestClock.adjust("1 millis")
      yield* bus.publish(new Other())
      yield* bus.publish(new Ping({ n: 7 }))
      yield* bus.publish(new Ping({ n: 8 }))
      const events = yield* Fiber.join(fiber)
      expect([...events].map((e) => e.n)).toEqual([7, 8])
    })
  )
})
