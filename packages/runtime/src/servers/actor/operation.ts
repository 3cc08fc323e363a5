/**
 * Long operations of an actor (a restart with its retries now; an update
 * and a mod rollout later) run as a child fiber beside the mailbox, so the
 * mailbox keeps answering while they work: a stop cancels them and wins.
 * What runs, since when and how far it got is part of the server's status.
 */
import type * as Effect from "effect/Effect"

export type OperationKind = "restart" | "update" | "mod-rollout"

export interface ServerOperation {
  readonly kind: OperationKind
  /** `Clock` milliseconds when it began. */
  readonly startedAt: number
  /** 0 to 1, or undefined while it cannot tell. */
  readonly progress: number | undefined
  /** What it is doing now, as a person reads it ("attempt 2 of 3: starting"). */
  readonly message: string
}

/** What an operation's body is given: a way to say how far it got. */
export interface OperationContext {
  readonly progress: (progress: number | undefined, message: string) => Effect.Effect<void>
}
