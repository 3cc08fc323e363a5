import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Logger, LogLevel, Option, Ref, Schema, Scope, Stream, TestClock } from "effect"
import { EventBus, on } from "../src/events/EventBus.js"

class Ping extends Schema.TaggedClass<Ping>()("Ping", { n: Schema.Number }) {}
class Other extends Schema.TaggedClass<Other>()("Other", {}) {}
/** Stands for the publisher's transaction connection: a service in the publisher's context. */
class Transaction extends Context.Tag("test/Transaction")<Transaction, string>() {}

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

  describe("durable handlers", () => {
    /** Runs `effect` with its log lines (level and message) kept in `lines`. */
    const capturing = (lines: Array<string>) =>
      Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ logLevel, message }) => {
          lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
        })
      )

    it.scoped("publish waits for them, in the publisher's fiber, before the ordinary handlers and subscribers hear the event", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make()
        const order = yield* Ref.make<Array<string>>([])
        const pings = yield* bus.subscribe(Ping)
        yield* bus.register("test", on(Ping, (e) => Ref.update(order, (xs) => [...xs, `queued ${e.n}`])))
        yield* bus.registerDurable(
          "test",
          on(Ping, (e) => Effect.sleep("1 second").pipe(Effect.zipRight(Ref.update(order, (xs) => [...xs, `durable ${e.n}`]))))
        )
        const publishing = yield* Effect.fork(bus.publish(new Ping({ n: 1 })))
        yield* TestClock.adjust("500 millis")
        // Still waiting for the durable handler: nothing else has heard the event.
        expect(Option.isNone(yield* Fiber.poll(publishing))).toBe(true)
        expect(yield* Ref.get(order)).toEqual([])
        yield* TestClock.adjust("500 millis")
        yield* Fiber.join(publishing)
        expect((yield* Ref.get(order))[0]).toBe("durable 1")
        expect(Option.map(yield* Stream.runHead(pings), (e) => e.n)).toEqual(Option.some(1))
        yield* TestClock.adjust("1 millis")
        expect(yield* Ref.get(order)).toEqual(["durable 1", "queued 1"])
        // Another tag does not wait for it.
        yield* bus.publish(new Other())
      })
    )

    it.scoped("a durable handler that does not want an event is skipped: the publish neither runs nor waits for it", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make()
        const started = yield* Deferred.make<number>()
        const release = yield* Deferred.make<void>()
        let wanted = false
        yield* bus.registerDurable(
          "test",
          on(Ping, (e) => Deferred.succeed(started, e.n).pipe(Effect.zipRight(Deferred.await(release))), "held"),
          { wants: () => wanted }
        )
        // Not wanted: the handler (held until released) is not run, and the publish returns.
        yield* bus.publish(new Ping({ n: 1 }))
        expect(yield* Deferred.isDone(started)).toBe(false)
        // Wanted: it runs, and the publish waits for it.
        wanted = true
        const publishing = yield* Effect.fork(bus.publish(new Ping({ n: 2 })))
        expect(yield* Deferred.await(started)).toBe(2)
        expect(Option.isNone(yield* Fiber.poll(publishing))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(publishing)
      })
    )

    it.scoped("a failing, dying or hanging durable handler is logged at Error naming the event, and the publish succeeds", () => {
      const lines: Array<string> = []
      return Effect.gen(function* () {
        const bus = yield* EventBus.make({ durableTimeout: "3 seconds" })
        const good = yield* Ref.make(0)
        const hanging = yield* Deferred.make<void>()
        yield* bus.registerDurable("test", on(Ping, (e) => (e.n === 1 ? Effect.fail("boom") : Effect.void), "failing"))
        yield* bus.registerDurable("test", on(Ping, (e) => (e.n === 2 ? Effect.die(new Error("defect")) : Effect.void), "dying"))
        yield* bus.registerDurable("test", on(Ping, (e) => (e.n === 3 ? Deferred.succeed(hanging, undefined).pipe(Effect.zipRight(Effect.never)) : Effect.void), "hanging"), { timeout: "2 seconds" })
        yield* bus.registerDurable("test", on(Ping, () => Ref.update(good, (n) => n + 1), "good"))
        yield* bus.publish(new Ping({ n: 1 }))
        yield* bus.publish(new Ping({ n: 2 }))
        const hung = yield* Effect.fork(bus.publish(new Ping({ n: 3 })))
        // The handlers run on a fiber of their own (not the test's child): let its time limit start before moving the clock.
        yield* Deferred.await(hanging)
        for (let i = 0; i < 10; i++) yield* Effect.yieldNow()
        yield* TestClock.adjust("1999 millis")
        expect(Option.isNone(yield* Fiber.poll(hung))).toBe(true)
        // The handler's own limit (2 s), not the bus's (3 s).
        yield* TestClock.adjust("1 millis")
        expect(Exit.isSuccess(yield* Fiber.await(hung))).toBe(true)
        expect(yield* Ref.get(good)).toBe(3)
        const errors = lines.filter((line) => line.startsWith("ERROR"))
        expect(errors).toHaveLength(3)
        expect(errors[0]).toContain("test/failing failed on Ping")
        expect(errors[1]).toContain("test/dying failed on Ping")
        expect(errors[2]).toContain("test/hanging failed on Ping")
        expect(errors[2]).toContain("timed out after 2s")
      }).pipe(Effect.provide(capturing(lines)), Effect.provide(Logger.minimumLogLevel(LogLevel.All)))
    })

    it.scoped("nothing is queued or dropped: 5,000 events at once, a queue of 10, every one handled by the time publish returns", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make({ queueCapacity: 10 })
        const seen = new Set<number>()
        yield* bus.registerDurable("test", on(Ping, (e) => Effect.sync(() => void seen.add(e.n))))
        yield* Effect.forEach(Array.from({ length: 5000 }, (_, n) => n), (n) => bus.publish(new Ping({ n })), { concurrency: "unbounded", discard: true })
        expect(seen.size).toBe(5000)
      })
    )

    it.scoped("the publisher's interruption waits for the handler to finish", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make()
        const done = yield* Ref.make(false)
        yield* bus.registerDurable("test", on(Ping, () => Effect.sleep("1 second").pipe(Effect.zipRight(Ref.set(done, true)))))
        const publishing = yield* Effect.fork(bus.publish(new Ping({ n: 1 })))
        yield* TestClock.adjust("100 millis")
        const interrupting = yield* Effect.fork(Fiber.interrupt(publishing))
        yield* TestClock.adjust("1 second")
        yield* Fiber.join(interrupting)
        expect(yield* Ref.get(done)).toBe(true)
      })
    )

    it.scoped("stage: the durable handlers run in the publisher's context; publish of that event runs their afterCommit, not them", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make()
        const handled: Array<string> = []
        const afterCommit: Array<number> = []
        const ordinary: Array<number> = []
        yield* bus.registerDurable(
          "test",
          on(Ping, (e) => Effect.map(Effect.serviceOption(Transaction), (t) => void handled.push(`${e.n}:${Option.getOrElse(t, () => "none")}`))),
          { afterCommit: (e) => Effect.sync(() => void afterCommit.push((e as Ping).n)) }
        )
        yield* bus.register("test", on(Ping, (e) => Effect.sync(() => void ordinary.push(e.n))))

        // Staged inside "the transaction": the handler sees it; nothing else hears of the event yet.
        const staged = new Ping({ n: 1 })
        yield* bus.stage(staged).pipe(Effect.provideService(Transaction, "tx-1"))
        yield* TestClock.adjust("1 second")
        expect(handled).toEqual(["1:tx-1"])
        expect(afterCommit).toEqual([])
        expect(ordinary).toEqual([])

        // Its publish after the commit: the after-commit step and the ordinary handlers, the durable handler not again.
        yield* bus.publish(staged)
        yield* TestClock.adjust("1 second")
        expect(handled).toEqual(["1:tx-1"])
        expect(afterCommit).toEqual([1])
        expect(ordinary).toEqual([1])

        // A staged event whose transaction rolled back is never published: it reaches nothing more.
        yield* bus.stage(new Ping({ n: 2 })).pipe(Effect.provideService(Transaction, "tx-2"))
        // An event published without staging runs the durable handler as before, and no afterCommit.
        yield* bus.publish(new Ping({ n: 3 }))
        yield* TestClock.adjust("1 second")
        expect(handled).toEqual(["1:tx-1", "2:tx-2", "3:none"])
        expect(afterCommit).toEqual([1])
        expect(ordinary).toEqual([1, 3])
      })
    )

    it.effect("unregistered when its scope closes", () =>
      Effect.gen(function* () {
        const bus = yield* EventBus.make()
        const calls = yield* Ref.make(0)
        const scope = yield* Scope.make()
        yield* Scope.extend(bus.registerDurable("test", on(Ping, () => Ref.update(calls, (n) => n + 1))), scope)
        yield* bus.publish(new Ping({ n: 1 }))
        yield* Scope.close(scope, Exit.void)
        yield* bus.publish(new Ping({ n: 2 }))
        expect(yield* Ref.get(calls)).toBe(1)
      })
    )
  })
})

