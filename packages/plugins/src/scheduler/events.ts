/**
 * Published once per scheduled run (not per warning), after it finished,
 * so webhooks and notifications can report it.
 */
import * as Schema from "effect/Schema"
import { JobKind } from "./contract/Api.js"

export class ScheduledJobRan extends Schema.TaggedClass<ScheduledJobRan>()("ScheduledJobRan", {
  serverId: Schema.String,
  jobId: Schema.String,
  kind: JobKind,
  /** False when the action failed; a skipped run (server not running) is ok with `skipped` set. */
  ok: Schema.Boolean,
  error: Schema.optional(Schema.String),
  /** Why nothing was done, for example "server not running". */
  skipped: Schema.optional(Schema.String),
  /** ISO-8601, the moment the run was due. */
  dueAt: Schema.String
}) {}
