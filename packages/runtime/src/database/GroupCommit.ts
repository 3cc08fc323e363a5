/**
 * Group commit: writes that arrive while another is being written share
 * the next commit, so 50 writers need far fewer than 50 fsyncs, and each
 * still answers only once its write is on disk.
 *
 * `transaction(effect)` queues the write. A leader fiber opens one
 * transaction and runs the queued writes in it one after another, each in
 * a savepoint of its own (`sql.withTransaction` nested: a write that fails
 * is rolled back alone, the others stay), taking every write that queues
 * meanwhile, then commits once. Each write's fiber runs its own effect, with
 * the batch's connection in its context, and gets its answer after the
 * commit; if the commit fails, every write of the batch fails with it.
 *
 * Called inside a transaction already, it is that transaction's savepoint,
 * as `sql.withTransaction` is. A write waiting for its turn that is
 * interrupted leaves the queue; one interrupted during its turn is rolled
 * back to its savepoint, like any failure.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

type Connection = Context.Tag.Service<typeof SqlClient.TransactionConnection>

/** A write's turn: the batch's connection, and whether the write runs in a savepoint (all but the batch's first). */
interface Turn {
  readonly connection: Connection
  readonly savepoint: boolean
}

/** The batch's first write failed: its transaction is rolled back whole (nothing else ran in it) and the next batch begins. */
class FirstWriteFailed {
  readonly _tag = "FirstWriteFailed"
}

interface Member {
  /** This write's turn, when it comes (or why the batch could not begin). */
  readonly turn: Deferred.Deferred<Turn, SqlError>
  /** This write's part is over: true when it succeeded (failed or interrupted: false). The leader goes on. */
  readonly partDone: Deferred.Deferred<boolean>
  /** The batch's commit: on disk, or why not. */
  readonly committed: Deferred.Deferred<void, SqlError>
  /** Its fiber went away before its turn: skipped. */
  gone: boolean
}

export interface GroupCommitShape {
  /**
   * Runs `effect` as a write that may share its commit with others queued
   * at the same time; answers once that commit is on disk.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>
}

export class GroupCommit extends Context.Tag("@garrison/runtime/GroupCommit")<GroupCommit, GroupCommitShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.scope
    const queue: Array<Member> = []
    let leading = false

    /** Runs the queued writes in one transaction, taking those that queue meanwhile, then commits once. */
    const lead: Effect.Effect<void> = Effect.gen(function* () {
      // Let the event loop run once first: requests already read but not yet here join this batch, not the next.
      yield* Effect.async<void>((resume) => {
        setImmediate(() => resume(Effect.void))
      })
      const batch: Array<Member> = []
      const outcome = yield* Effect.exit(
        sql.withTransaction(
          Effect.gen(function* () {
            // An invariant: withTransaction put the connection in the context (its type does not say so).
            const connection = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.TransactionConnection))
            for (let member = queue.shift(); member !== undefined; member = queue.shift()) {
              if (member.gone) continue
              // The first write needs no savepoint: when it fails, the whole transaction holds only it.
              const first = batch.length === 0
              batch.push(member)
              yield* Deferred.succeed(member.turn, { connection, savepoint: !first })
              const succeeded = yield* Deferred.await(member.partDone)
              if (first && !succeeded) return yield* Effect.fail(new FirstWriteFailed())
            }
          })
        )
      )
      if (Exit.isSuccess(outcome)) {
        for (const member of batch) yield* Deferred.succeed(member.committed, undefined)
        yield* Effect.logDebug(`group commit: ${batch.length} write(s) in one commit`)
      } else if (!(Option.getOrUndefined(Cause.failureOption(outcome.cause)) instanceof FirstWriteFailed)) {
        // The database refused the batch (its BEGIN or COMMIT): every write in it fails, and those queued behind it
        // (they would fail alike). A failed first write was rolled back with nothing else in it and has its answer.
        const cause = outcome.cause as Cause.Cause<SqlError>
        for (const member of [...batch, ...queue.splice(0)]) {
          yield* Deferred.failCause(member.turn, cause)
          yield* Deferred.failCause(member.committed, cause)
        }
      }
      leading = false
      if (queue.length > 0) yield* startLeader
    }).pipe(Effect.catchAllCause((cause) => Effect.logError("group commit: a batch failed", cause)))

    const startLeader = Effect.suspend(() => {
      if (leading) return Effect.void
      leading = true
      return Effect.asVoid(Effect.forkIn(lead, scope))
    })

    const transaction: GroupCommitShape["transaction"] = (effect) =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (inside) =>
        Option.isSome(inside)
          ? sql.withTransaction(effect)
          : Effect.uninterruptibleMask((restore) =>
              Effect.gen(function* () {
                const member: Member = {
                  turn: yield* Deferred.make<Turn, SqlError>(),
                  partDone: yield* Deferred.make<boolean>(),
                  committed: yield* Deferred.make<void, SqlError>(),
                  gone: false
                }
                queue.push(member)
                yield* startLeader
                const turn = yield* restore(Deferred.await(member.turn)).pipe(
                  // Gone before its turn: skipped; if the turn was given meanwhile, the leader is told this part failed.
                  Effect.onInterrupt(() => Effect.sync(() => void (member.gone = true)).pipe(Effect.zipRight(Deferred.succeed(member.partDone, false))))
                )
                // Its part, in the batch's transaction: in a savepoint of its own (a failure is rolled back alone),
                // or, as the batch's first, in the transaction itself (a failure rolls it back whole).
                const part = yield* Effect.exit(
                  restore(turn.savepoint ? sql.withTransaction(effect) : effect).pipe(
                    Effect.provideService(SqlClient.TransactionConnection, [turn.connection[0], 0] as const)
                  )
                )
                yield* Deferred.succeed(member.partDone, Exit.isSuccess(part))
                if (Exit.isFailure(part)) return yield* part
                yield* Deferred.await(member.committed)
                return yield* part
              })
            )
      )

    return GroupCommit.of({ transaction })
  })

  static readonly layer: Layer.Layer<GroupCommit, never, SqlClient.SqlClient> = Layer.scoped(GroupCommit, GroupCommit.make)
}
