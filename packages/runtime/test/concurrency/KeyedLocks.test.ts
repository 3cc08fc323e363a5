/** `makeKeyedLocks`: one holder per key, other keys free, and a key's lock forgotten once no one holds or awaits it. */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import { makeKeyedLocks } from "../../src/concurrency/KeyedLocks.js"

describe("makeKeyedLocks", () => {
  it.effect("serializes one key, leaves others free, and forgets a key when its last user is done (interrupted waiters too)", () =>
    Effect.gen(function* () {
      const locks = yield* makeKeyedLocks()
      const release = yield* Deferred.make<void>()
      const held = yield* Effect.fork(locks.withLock("a", Deferred.await(release)))
      yield* Effect.yieldNow()
      expect(yield* locks.size).toBe(1)
      // Busy: none now, and waiting would block.
      expect(yield* locks.withLockIfFree("a", Effect.succeed("ran"))).toEqual(Option.none())
      const waiter = yield* Effect.fork(locks.withLock("a", Effect.succeed("second")))
      // Another key is free.
      expect(yield* locks.withLockIfFree("b", Effect.succeed("b ran"))).toEqual(Option.some("b ran"))
      expect(yield* locks.size).toBe(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(held)
      expect(yield* Fiber.join(waiter)).toBe("second")
      expect(yield* locks.size).toBe(0)

      // A waiter interrupted while waiting gives its place back.
      const again = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(locks.withLock("c", Deferred.await(again)))
      yield* Effect.yieldNow()
      const impatient = yield* Effect.fork(locks.withLock("c", Effect.void))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(impatient)
      yield* Deferred.succeed(again, undefined)
      yield* Fiber.join(holder)
      expect(yield* locks.size).toBe(0)
      // A failure releases too.
      expect(yield* Effect.either(locks.withLock("d", Effect.fail("no")))).toMatchObject({ _tag: "Left" })
      expect(yield* locks.size).toBe(0)
    }))
})
