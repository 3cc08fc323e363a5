/**
 * Published after every change to the priority queue has been stored (and
 * the servers' `priority.txt` files synced), for webhooks, the chat bot
 * and other later plugins.
 */
import * as Schema from "effect/Schema"

export const PRIORITY_CHANGE_ACTIONS = ["added", "updated", "removed", "imported", "cleaned"] as const
export const PriorityChangeAction = Schema.Literal(...PRIORITY_CHANGE_ACTIONS)
export type PriorityChangeAction = typeof PriorityChangeAction.Type

export class PriorityChanged extends Schema.TaggedClass<PriorityChanged>()("PriorityChanged", {
  action: PriorityChangeAction,
  /** Entry ids concerned. */
  ids: Schema.Array(Schema.String),
  /** Their players' Steam64 ids, in the same order. */
  platformIds: Schema.Array(Schema.String)
}) {}
