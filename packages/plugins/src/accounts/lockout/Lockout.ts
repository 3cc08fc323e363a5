/**
 * Login lockout per (IP, username), and a budget of failed sign-ins per IP
 * (`schedule.ts`), both persisted so a restart does not reset them. Each
 * attempt is a row with its time, counted before the password is checked:
 * the lock test and the count are one statement, so parallel requests
 * cannot all slip past a pair that has one attempt left, and a controller
 * that dies while a password is checked has counted the attempt. A row is
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

/** The first key of the sign-in advisory locks on PostgreSQL (the second is the address's hash): "lock" as 4 bytes, apart from other locks. */
const LOCKOUT_LOCK_SPACE = 0x6c6f636b

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
  /** The pair had a lock row (a lock now ended, remembered for the next one's length) when the attempt was counted. */
  readonly hadLock: boolean
}

/** What counting an attempt reads, in one statement: the pair's lock, the address's failures, the pair's attempts. */
interface AttemptState {
  readonly lock_count: number | null
  readonly locked_until: number | null
  readonly address_n: number
  readonly address_oldest: number | null
  readonly pair_n: number
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

    /** Why the pair may not have another attempt now (from `attemptState`), or undefined when it may. */
    const refusal = (state: AttemptState | undefined, now: number): LockedOut | undefined => {
      const lock: Option.Option<LockRow> =
        state === undefined || state.locked_until === null || state.lock_count === null
          ? Option.none()
          : Option.some({ lock_count: Number(state.lock_count), locked_until: Number(state.locked_until) })
      if (Option.isSome(lock) && Number(lock.value.locked_until) > now) {
        return new LockedOut({ reason: "locked", retryAfterSeconds: secondsUntil(Number(lock.value.locked_until), now) })
      }
      if (Number(state?.address_n ?? 0) >= MAX_ADDRESS_FAILURES) {
        const oldest = Number(state?.address_oldest ?? now)
        return new LockedOut({ reason: "address-at-limit", retryAfterSeconds: secondsUntil(oldest + ADDRESS_WINDOW_MS, now) })
      }
      if (Number(state?.pair_n ?? 0) >= MAX_FAILURES) {
        // The attempts under way will most likely lock the pair: wait as long as that lock would last.
        const wait = lockDurationMs(rememberedLocks(lock, now) + 1)
        return new LockedOut({ reason: "attempts-at-limit", retryAfterSeconds: secondsUntil(now + wait, now) })
      }
      return undefined
    }

    /** The pair's lock, the address's failures and the pair's attempts, in one statement. */
    const attemptState = (pair: Reservation["pair"], now: number) =>
      Effect.map(
        sql<AttemptState>`SELECT
          (SELECT lock_count FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key}) AS lock_count,
          (SELECT locked_until FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key}) AS locked_until,
          (SELECT COUNT(*) FROM accounts_login_failures WHERE ip = ${pair.ip} AND at > ${now - ADDRESS_WINDOW_MS}) AS address_n,
          (SELECT MIN(at) FROM accounts_login_failures WHERE ip = ${pair.ip} AND at > ${now - ADDRESS_WINDOW_MS}) AS address_oldest,
          (SELECT COUNT(*) FROM accounts_login_failures
            WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND at > ${now - FAILURE_WINDOW_MS}) AS pair_n`,
        (rows) => rows[0]
      )

    /**
     * Counts the attempt in one statement: its row is inserted only where
     * the pair is not locked and neither the address nor the pair is at its
     * limit (the test and the count are one statement, so parallel requests
     * cannot all slip past a pair that has one place left). Answers whether
     * the pair has a lock row (an ended lock, remembered for the next
     * one's length), or nothing when the row was refused.
     */
    /**
     * On PostgreSQL, where sign-ins run side by side in transactions of their
     * own, an address's attempts take turns (an advisory lock until the
     * transaction ends): the counts below are then exact, as on SQLite, whose
     * writes are one at a time anyway. Nothing on SQLite.
     */
    const oneAttemptPerAddress = (ip: string) =>
      sql.onDialectOrElse({
        pg: () => Effect.asVoid(sql`SELECT pg_advisory_xact_lock(${LOCKOUT_LOCK_SPACE}, hashtext(${ip}))`),
        orElse: () => Effect.void
      })

    const countAttempt = (pair: Reservation["pair"], id: string, now: number) =>
      sql.onDialectOrElse({
        pg: () => sql.withTransaction(Effect.zipRight(oneAttemptPerAddress(pair.ip), countStatement(pair, id, now))),
        orElse: () => countStatement(pair, id, now)
      })

    const countStatement = (pair: Reservation["pair"], id: string, now: number) =>
      Effect.map(
        sql<{ readonly locks: number }>`INSERT INTO accounts_login_failures (ip, username_key, at, attempt, pending)
          SELECT ${pair.ip}, ${pair.key}, ${now}, ${id}, 1
          WHERE NOT EXISTS (SELECT 1 FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND locked_until > ${now})
            AND (SELECT COUNT(*) FROM accounts_login_failures WHERE ip = ${pair.ip} AND at > ${now - ADDRESS_WINDOW_MS}) < ${MAX_ADDRESS_FAILURES}
            AND (SELECT COUNT(*) FROM accounts_login_failures
              WHERE ip = ${pair.ip} AND username_key = ${pair.key} AND at > ${now - FAILURE_WINDOW_MS}) < ${MAX_FAILURES}
          RETURNING (SELECT COUNT(*) FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key}) AS locks`,
        (rows) => (rows[0] === undefined ? Option.none<boolean>() : Option.some(Number(rows[0].locks) > 0))
      )

    /**
     * Counts an attempt, or says why it may not run. The common case is one
     * statement (`countAttempt`); a refusal reads the state to say why. If
     * the state changed in between (a lock just ended) and no reason is
     * left, the attempt is counted again. Failures older than the windows
     * are not counted, and the `forget-login-failures` job removes them.
     */
    const reserve = (key: LockoutKey): Effect.Effect<Reservation, LockedOut | AccountStoreError> =>
      Effect.gen(function* () {
        const pair = { ip: key.ip, key: usernameKey(key.username) }
        const id = randomUUID()
        for (let tries = 0; ; tries++) {
          const now = yield* Clock.currentTimeMillis
          const counted = yield* countAttempt(pair, id, now)
          if (Option.isSome(counted)) return { key, pair, id, hadLock: counted.value } satisfies Reservation
          const why = refusal(yield* attemptState(pair, now), now)
          if (why !== undefined) return yield* why
          // Refused a moment ago, free now: count it again (twice at most; then the state keeps moving, so wait).
          if (tries >= 2) return yield* new LockedOut({ reason: "attempts-at-limit", retryAfterSeconds: 1 })
        }
      }).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("count a sign-in attempt")(e))))

    /** The attempt failed: it stays counted; the failure that makes `MAX_FAILURES` locks the pair. */
    const failed = ({ key, pair, id }: Reservation): Effect.Effect<Option.Option<NewLock>, AccountStoreError> =>
      Effect.gen(function* () {
        const lock = yield* Effect.gen(function* () {
          yield* oneAttemptPerAddress(pair.ip)
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
            // Whoever tried is unknown (the username tried is the target): no actor.
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

    /**
     * A sign-in: the pair's attempts (other running ones too) and locks are
     * cleared. A pair without a lock row when this attempt was counted has
     * none now either: while this attempt's row is pending it holds one of
     * the `MAX_FAILURES` places, so the others cannot fail often enough to
     * lock the pair. Then one statement clears it. (Unless another sign-in
     * cleared the pair, this row with it, meanwhile: a lock that failures
     * after that sign-in earn then stays, as it should.)
     */
    const succeeded = ({ pair, hadLock }: Reservation) => {
      const failures = sql`DELETE FROM accounts_login_failures WHERE ip = ${pair.ip} AND username_key = ${pair.key}`
      const cleared = hadLock
        ? Effect.all([failures, sql`DELETE FROM accounts_lockouts WHERE ip = ${pair.ip} AND username_key = ${pair.key}`], { discard: true }).pipe(
            sql.withTransaction
          )
        : Effect.asVoid(failures)
      return cleared.pipe(Effect.mapError(storeError("clear the sign-in failures of a pair")))
    }

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
