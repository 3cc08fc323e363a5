import * as Schema from "effect/Schema"

/**
 * A database operation after start-up failed (an online backup, an integrity
 * check). Start-up problems are `StartupError`s instead, because they stop the
 * controller; this one is reported and the controller keeps running.
 */
export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  operation: Schema.Literal("backup", "quick-check"),
  message: Schema.String
}) {}
