/**
 * Login lockout per (IP, username), persisted so a restart does not reset
 * it. Failures are rows with their time; a lock is one row per pair with
 * its count and end. Every lock is an audit row.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AuditTrail } from "@garrison/runtime"
import { usernameKey } from "../users/username.js"
import { FAILURE_WINDOW_MS, LOCK_MEMORY_MS, lockDurationMs, MAX_FAILURES, secondsUntil } from "./schedule.js"

export interface LockoutKey {
  readonly ip: string
  /** The username as typed (for the audit row); the pair is keyed by `usernameKey`. */
  readonly username: string
}

export interface NewLock {
  readonly lockCount: number
  readonly retryAfterSeconds: number
}

export interface LockoutShape {
  /** Seconds until the pair may try again, when it is locked now. */
  readonly lockedFor: (key: LockoutKey) => Effect.Effect<Option.Option<number>>
  /** Counts a failure; returns the lock it caused, if it was the fifth in the window. */
  readonly recordFailure: (key: LockoutKey) => Effect.Effect<Option.Option<NewLock>>
  /** A successful sign-in: the pair's failures and locks are cleared. */
  readonly clear: (key: LockoutKey) => Effect.Effect<void>
  /** Forgets failures outside the window and locks past their memory. */
  readonly cleanup: Effect.Effect<void>
}


interface LockRow {
  readonly lock_count: number
  readonly locked_until: number
}

export class Lockout extends Context.Tag("@garrison/plugins/accounts/Lockout")<Lockout, LockoutShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const lockRow = (ip: string, key: string) =>
      Effect.map(
        sql<LockRow>`SELECT lock_count, locked_until FROM accounts_lockouts WHERE ip = ${ip} AND username_key = ${key}`,
        (rows) => Option.fromNullable(rows[0])
      )

    const lockedFor: LockoutShape["lockedFor"] = ({ ip, username }) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const row = yield* lockRow(ip, usernameKey(username))
        return Option.flatMap(row, (r) =>
          Number(r.locked_until) > now ? Option.some(secondsUntil(Number(r.locked_until), now)) : Option.none()
        )
      }).pipe(Effect.orDie)

    const recordFailure: LockoutShape["recordFailure"] = ({ ip, username }) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const key = usernameKey(username)
        const lock = yield* Effect.gen(function* () {
          yield* sql`INSERT INTO accounts_login_failures (ip, username_key, at) VALUES (${ip}, ${key}, ${now})`
          const since = now - FAILURE_WINDOW_MS
          yield* sql`DELETE FROM accounts_login_failures WHERE ip = ${ip} AND username_key = ${key} AND at <= ${since}`
          const [counted] = yield* sql<{ readonly n: number }>`
            SELECT COUNT(*) AS n FROM accounts_login_failures WHERE ip = ${ip} AND username_key = ${key}`
          if (Number(counted?.n ?? 0) < MAX_FAILURES) return Option.none<NewLock>()

          const previous = yield* lockRow(ip, key)
          const remembered = Option.filter(previous, (r) => Number(r.locked_until) + LOCK_MEMORY_MS > now)
          const lockCount = Option.match(remembered, { onNone: () => 0, onSome: (r) => Number(r.lock_count) }) + 1
          const until = now + lockDurationMs(lockCount)
          yield* sql`INSERT INTO accounts_lockouts (ip, username_key, lock_count, locked_until)
            VALUES (${ip}, ${key}, ${lockCount}, ${until})
            ON CONFLICT (ip, username_key) DO UPDATE SET lock_count = excluded.lock_count, locked_until = excluded.locked_until`
          // The next lock needs five new failures.
          yield* sql`DELETE FROM accounts_login_failures WHERE ip = ${ip} AND username_key = ${key}`
          return Option.some({ lockCount, retryAfterSeconds: secondsUntil(until, now) })
        }).pipe(sql.withTransaction, Effect.orDie)

        if (Option.isSome(lock)) {
          const audit = yield* AuditTrail
          yield* audit.record({
            actor: null,
            ip,
            action: "auth.lockout",
            target: username.slice(0, 128),
            result: "denied",
            details: { lockCount: lock.value.lockCount, lockedForSeconds: lock.value.retryAfterSeconds }
          })
        }
        return lock
      })

    const clear: LockoutShape["clear"] = ({ ip, username }) => {
      const key = usernameKey(username)
      return Effect.all(
        [
          sql`DELETE FROM accounts_login_failures WHERE ip = ${ip} AND username_key = ${key}`,
          sql`DELETE FROM accounts_lockouts WHERE ip = ${ip} AND username_key = ${key}`
        ],
        { discard: true }
      ).pipe(sql.withTransaction, Effect.orDie)
    }

    const cleanup: LockoutShape["cleanup"] = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.all(
        [
          sql`DELETE FROM accounts_login_failures WHERE at <= ${now - FAILURE_WINDOW_MS}`,
          sql`DELETE FROM accounts_lockouts WHERE locked_until <= ${now - LOCK_MEMORY_MS}`
        ],
        { discard: true }
      )
    ).pipe(Effect.orDie)

    return Lockout.of({ lockedFor, recordFailure, clear, cleanup })
  })

  static readonly layer = Layer.effect(Lockout, Lockout.make)
}
