/**
 * A savepoint in the transaction the fiber is in, written out: a failure of
 * `effect` is rolled back alone and the transaction goes on. Outside a
 * transaction, `outside(effect)` runs instead (`GroupCommit.transaction`,
 * say).
 *
 * `sql.withTransaction` nested does the same, but copies the fiber's whole
 * context twice on the way in (and leaves its savepoints unreleased); on a
 * request's fiber, whose context holds every service, that costs more than
 * the small write it guards. For writes on a hot path (a staged event's
 * outbox row); elsewhere `withTransaction` is simpler.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"

/** `name` is written into the SQL as it is: a plain identifier (letters, digits, `_`). */
export const inSavepoint = <A, E, R, A2, E2, R2>(
  sql: SqlClient.SqlClient,
  name: string,
  effect: Effect.Effect<A, E, R>,
  outside: (effect: Effect.Effect<A, E, R>) => Effect.Effect<A2, E2, R2>
): Effect.Effect<A | A2, E | E2 | SqlError, R | R2> => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return Effect.dieMessage(`inSavepoint: "${name}" is not a plain identifier`)
  return Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction): Effect.Effect<A | A2, E | E2 | SqlError, R | R2> =>
    Option.isNone(transaction)
      ? outside(effect)
      : Effect.uninterruptibleMask((restore) =>
          Effect.gen(function* () {
            yield* sql.unsafe(`SAVEPOINT ${name}`)
            const exit = yield* Effect.exit(restore(effect))
            if (Exit.isFailure(exit)) yield* sql.unsafe(`ROLLBACK TO SAVEPOINT ${name}`)
            yield* sql.unsafe(`RELEASE SAVEPOINT ${name}`)
            return yield* exit
          })
        )
  )
}
