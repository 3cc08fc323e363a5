/**
 * Login lockout per (IP, username), and a budget of failed sign-ins per IP
 * (`schedule.ts`), both persisted so a restart does not reset them. Each attempt is a row with its time, counted before the password is
 * checked: the lock test and the count are one transaction, so parallel
 * requests cannot all slip past a pair that has one attempt left. A row is
 * pending while its check runs, then kept as a failure or removed. A lock is
 * one row per pair with its count and end. Every lock is an audit row.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AuditTrail } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { type AccountStoreError, LockedOut, storeError } from "../errors.js"
import { usernameKey } from "../users/username.js"
import {
  ADDRESS_WINDOW_MS,
  FAILURE_MEMORY_MS,
  FAILURE_WINDOW_MS,
  LOCK_MEMORY_MS,
  lockDurationMs,
  MAX_ADDRESS_FAILURES,
  MAX_FAILURES,
  secondsUntil
} from "./schedule.js"

export interface LockoutKey {
  readonly ip: string
  /** The username as typed (for the audit row); the pair is keyed by `usernameKey`. */
  readonly username: string
}

/**
 * What a finished check means for the lockout: `failure` stays counted,
 * `success` clears the pair (a sign-in), `uncounted` gives the attempt back
 * (it proved nothing wrong, e.g. "MFA code required" after a right password).
 */
export type Verdict = "failure" | "success" | "uncounted"

export interface LockoutShape {
  /**
   * Runs `check` as one attempt of the pair. Refused with `LockedOut` before
   * it runs while the pair is locked, or while it already has as many
   * attempts in the window (failed or still running) as it may fail; else
   * counted, run, and settled by `verdict`. A failure that locks the pair
   * fails with `LockedOut` in place of the check's own error. An interrupted
   * check counts as a failure. Counting or settling it fails with
   * `AccountStoreError` when the database does.
   */
  readonly attempt: <A, E, R>(
    key: LockoutKey,
    check: Effect.Effect<A, E, R>,
    verdict: (exit: Exit.Exit<A, E>) => Verdict
  ) => Effect.Effect<A, E | LockedOut | AccountStoreError, R>
  /** Forgets attempts outside the window and locks past their memory. */
  readonly cleanup: Effect.Effect<void, AccountStoreError>
  /** Lifts every lock and forgets every counted failure of a username, from every IP (a password reset). */
  readonly releaseUser: (username: string) => Effect.Effect<void, AccountStoreError>
}

interface LockRow {
  readonly lock_count: number
  readonly locked_until: number
}

interface Reservation {
  readonly key: LockoutKey
  readonly pair: { readonly ip: string; readonly key: string }
  readonly id: string
}

interface NewLock {
  readonly lockCount: number
  readonly retryAfterSeconds: number
}

export class Lockout extends Context.Tag("@garrison/plugins/accounts/Lockout")<Lockout, LockoutShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const lockRow = (ip: string, key: string) =>
      Effect.map(
        sql<LockRow>`SELECT lock_count, locked_until FROM accounts_lockouts WHERE ip = ${ip} AND username_key = ${key}`,
        (rows) => Option.fromNullable(rows[0])
      )

    /** How many locks the pair has had recently: the next one lasts longer. */
    const rememberedLocks = (row: Option.Option<LockRow>, now: number) =>
      Option.match(Option.filter(row, (r) => Number(r.locked_until) + LOCK_MEMORY_MS > now), {
        onNone: () => 0,
        onSome: (r) => Number(r.lock_count)
      })

    /** Counts an attempt, or says why it may not run. One transaction, so attempts queue here one by one. */
    const reserve = (key: LockoutKey): Effect.Effect<Reservation, LockedOut | AccountStoreError> =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const pair = { ip: key.ip, key: usernameKey(key.username) }
        return yield* Effect.gen(function* () {
          // A write first, so the transaction holds the write lock before it reads.
          yield* sql`DELETE FROM accounts_login_failures
            WHERE ip = ${pair.ip} AND at <= ${now - FAILURE_MEMORY_MS}`
          const lock = yield* lockRow(pair.ip, pair.key)
          if (Option.isSome(lock) && Number(lock.value.locked_until) > now) {
            return yield* new LockedOut({ reason: "locked", retryAfterSeconds: secondsUntil(Number(lock.value.locked_until), now) })
          }
          const [fromAddress] = yield* sql<{ readonly n: number; readonly oldest: number | null }>`SELECT COUNT(*) AS n, MIN(at) AS oldest
            FROM accounts_login_failures WHERE ip = ${pair.ip} AND at > ${now - ADDRESS_WINDOW_MS}`
          if (Number(fromAddress?.n ?? 0) >= MAX_ADDRESS_FAILURES) {
            const oldest = Number(fromAddress?.oldest ?? now)
            return yield* new LockedOut({ reason: "address-at-limit", retryAfterSeconds: secondsUntil(oldest + ADDRESS_WINDOW_MS, now) })
          }
          const [counted] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_login_failures
            WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND at > ${now - FAILURE_WINDOW_MS}`
          if (Number(counted?.n ?? 0) >= MAX_FAILURES) {
            // The attempts under way will most likely lock the pair: wait as long as that lock would last.
            const wait = lockDurationMs(rememberedLocks(lock, now) + 1)
            return yield* new LockedOut({ reason: "attempts-at-limit", retryAfterSeconds: secondsUntil(now + wait, now) })
          }
          const id = randomUUID()
          yield* sql`INSERT INTO accounts_login_failures (ip, username_key, at, attempt, pending)
            VALUES (${pair.ip}, ${pair.key}, ${now}, ${id}, 1)`
          return { key, pair, id } satisfies Reservation
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("SqlError", (e) => Effect.fail(storeError("count a sign-in attempt")(e)))
        )
      })

    /** The attempt failed: it stays counted; the failure that makes `MAX_FAILURES` locks the pair. */
    const failed = ({ key, pair, id }: Reservation): Effect.Effect<Option.Option<NewLock>, AccountStoreError> =>
      Effect.gen(function* () {
        const lock = yield* Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const marked = yield* sql`UPDATE accounts_login_failures SET pending = 0
            WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND attempt = ${id} RETURNING attempt`
          // A success of another attempt cleared the pair meanwhile: this failure still counts.
          if (marked.length === 0) {
            yield* sql`INSERT INTO accounts_login_failures (ip, username_key, at, attempt, pending)
              VALUES (${pair.ip}, ${pair.key}, ${now}, ${id}, 0)`
          }
          const [counted] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_login_failures
            WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND pending = 0 AND at > ${now - FAILURE_WINDOW_MS}`
          if (Number(counted?.n ?? 0) < MAX_FAILURES) return Option.none<NewLock>()

          const lockCount = rememberedLocks(yield* lockRow(pair.ip, pair.key), now) + 1
          const until = now + lockDurationMs(lockCount)
          yield* sql`INSERT INTO accounts_lockouts (ip, username_key, lock_count, locked_until)
            VALUES (${pair.ip}, ${pair.key}, ${lockCount}, ${until})
            ON CONFLICT (ip, username_key) DO UPDATE SET lock_count = excluded.lock_count, locked_until = excluded.locked_until`
          // The next lock needs five new failures.
          yield* sql`DELETE FROM accounts_login_failures WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND pending = 0`
          return Option.some({ lockCount, retryAfterSeconds: secondsUntil(until, now) })
        }).pipe(sql.withTransaction, Effect.mapError(storeError("record a failed sign-in")))

        if (Option.isSome(lock)) {
          const audit = yield* AuditTrail
          yield* audit.record({
            actor: null,
            ip: key.ip,
            action: "auth.lockout",
            target: key.username,
            result: "denied",
            details: { lockCount: lock.value.lockCount, lockedForSeconds: lock.value.retryAfterSeconds }
          })
        }
        return lock
      })

    /** A sign-in: the pair's attempts (other running ones too) and locks are cleared. */
    const succeeded = ({ pair }: Reservation) =>
      Effect.all(
        [
          sql`DELETE FROM accounts_login_failures WHERE ip = ${pair.ip} AND username_key = ${pair.key}`,
          sql`DELETE FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key}`
        ],
        { discard: true }
      ).pipe(sql.withTransaction, Effect.mapError(storeError("clear the sign-in failures of a pair")))

    const release = ({ pair, id }: Reservation) =>
      sql`DELETE FROM accounts_login_failures WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND attempt = ${id}`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError("give back a sign-in attempt"))
      )

    const attempt: LockoutShape["attempt"] = (key, check, verdict) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function* () {
          const reservation = yield* reserve(key)
          const exit = yield* Effect.exit(restore(check))
          const settled = Exit.isInterrupted(exit) ? "failure" : verdict(exit)
          if (settled === "success") yield* succeeded(reservation)
          if (settled === "uncounted") yield* release(reservation)
          if (settled === "failure") {
            const lock = yield* failed(reservation)
            if (Option.isSome(lock) && !Exit.isInterrupted(exit)) {
              return yield* new LockedOut({ reason: "locked-now", retryAfterSeconds: lock.value.retryAfterSeconds })
            }
          }
          return yield* exit
        })
      )

    const cleanup: LockoutShape["cleanup"] = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.all(
        [
          sql`DELETE FROM accounts_login_failures WHERE at <= ${now - FAILURE_MEMORY_MS}`,
          sql`DELETE FROM accounts_lockouts WHERE locked_until <= ${now - LOCK_MEMORY_MS}`
        ],
        { discard: true }
      )
    ).pipe(Effect.mapError(storeError("forget old sign-in failures and locks")))

    const releaseUser: LockoutShape["releaseUser"] = (username) =>
      sql
        .withTransaction(
          Effect.all(
            [
              sql`DELETE FROM accounts_login_failures WHERE username_key = ${usernameKey(username)} AND pending = 0`,
              sql`DELETE FROM accounts_lockouts WHERE username_key = ${usernameKey(username)}`
            ],
            { discard: true }
          )
        )
        .pipe(Effect.mapError(storeError("lift a user's sign-in locks")))

    return Lockout.of({ attempt, cleanup, releaseUser })
  })

  static readonly layer = Layer.effect(Lockout, Lockout.make)
}
