/**
 * The sign-in lockout on a real PostgreSQL 15, where attempts run side by
 * side on a pool of connections: a burst of wrong passwords still has at
 * most 5 checked for one (address, username) and at most 15 for one
 * address, exactly as on SQLite (whose writes are one at a time anyway).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { describe, expect, it } from "@effect/vitest"
import { SealedSecrets } from "@garrison/runtime"
import { usePostgres } from "@garrison/testkit/filePostgres"
import { Effect, Exit, Layer, Redacted } from "effect"
import { Lockout } from "../../src/accounts/lockout/Lockout.js"
import { MAX_ADDRESS_FAILURES, MAX_FAILURES } from "../../src/accounts/lockout/schedule.js"
import { migrations } from "../../src/accounts/migrations.js"

const postgres = usePostgres()

/** The lockout over a fresh database with the accounts tables, on a pool of 10 connections. */
const lockoutOnFreshDatabase = Effect.gen(function* () {
  const url = yield* postgres.freshDatabaseUrl
  const client = PgClient.layer({ url: Redacted.make(url), maxConnections: 10 })
  yield* Effect.forEach(migrations, (migration) => migration.up, { discard: true }).pipe(
    // An empty database: no migration here opens a sealed box.
    Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
    Effect.provide(client),
    Effect.orDie
  )
  return Layer.effect(Lockout, Lockout.make).pipe(Layer.provide(client))
})

/** Wrong passwords at once, one per key: how many checks ran, and how many attempts ended `LockedOut` (refused unchecked, or the failure that locked). */
const burst = (keys: ReadonlyArray<{ readonly ip: string; readonly username: string }>) =>
  Effect.gen(function* () {
    const lockout = yield* Lockout
    let checked = 0
    // A check that takes a while (as a password hash does), so the attempts overlap.
    const wrongPassword = Effect.zipRight(Effect.sync(() => void checked++), Effect.zipRight(Effect.sleep("30 millis"), Effect.fail("invalid-credentials" as const)))
    const exits = yield* Effect.all(
      keys.map((key) => Effect.exit(lockout.attempt(key, wrongPassword, (exit) => (Exit.isSuccess(exit) ? "success" : "failure")))),
      { concurrency: "unbounded" }
    )
    const lockedOut = exits.filter((exit) => Exit.isFailure(exit) && JSON.stringify(exit.cause).includes("LockedOut")).length
    return { checked, lockedOut }
  })

describe("the sign-in lockout on PostgreSQL", () => {
  it.live(
    "15 wrong passwords at once for one address and username: 5 checked; the fifth locks, the other 10 are refused unchecked",
    () =>
      Effect.gen(function* () {
        const layer = yield* lockoutOnFreshDatabase
        const result = yield* burst(Array.from({ length: 15 }, () => ({ ip: "203.0.113.7", username: "target" }))).pipe(Effect.provide(layer))
        expect(result).toEqual({ checked: MAX_FAILURES, lockedOut: 15 - MAX_FAILURES + 1 })
      }),
    120_000
  )

  it.live(
    "30 wrong passwords at once from one address over 30 usernames: 15 checked",
    () =>
      Effect.gen(function* () {
        const layer = yield* lockoutOnFreshDatabase
        const result = yield* burst(Array.from({ length: 30 }, (_, n) => ({ ip: "203.0.113.8", username: `user${n}` }))).pipe(Effect.provide(layer))
        expect(result).toEqual({ checked: MAX_ADDRESS_FAILURES, lockedOut: 30 - MAX_ADDRESS_FAILURES })
      }),
    120_000
  )
})
