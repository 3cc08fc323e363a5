/**
 * What a piece of work costs the database, counted at the driver
 * (`DriverStatements.ts`): its statements, transaction control included,
 * and its commits, each one fsync with `synchronous = FULL`. The bench
 * prints the same counts for whole requests.
 *
 * Counts are per process: work of other fibers at the same time is counted
 * too, so take them while nothing else runs.
 */
import * as Effect from "effect/Effect"
import { onDriverStatements } from "./DriverStatements.js"

/** What one stretch of work ran. */
export interface StatementTally {
  /** Every statement, transaction control included. */
  readonly statements: number
  /** Commits, each one fsync: a `COMMIT`, and a write run outside a transaction. */
  readonly commits: number
  /** The SQL of each, in order (whitespace folded), to say what to cut. */
  readonly sql: ReadonlyArray<string>
}

/**
 * Runs `work` and answers what it ran beside its value:
 * `const { tally } = yield* countingStatements(call("POST", ...))`.
 */
export const countingStatements = <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<{ readonly value: A; readonly tally: StatementTally }, E, R> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const tally = { statements: 0, commits: 0, sql: [] as Array<string> }
      const stop = onDriverStatements((sql, commit) => {
        tally.statements++
        if (commit) tally.commits++
        tally.sql.push(sql.replace(/\s+/g, " ").trim())
      })
      return { tally, stop }
    }),
    ({ tally }) => Effect.map(work, (value) => ({ value, tally: { statements: tally.statements, commits: tally.commits, sql: [...tally.sql] } })),
    ({ stop }) => Effect.sync(stop)
  )
