/**
 * `npm run move-to-postgres`: copies a stopped controller's SQLite database
 * (`<DATA_DIR>/garrison.db`) into the empty PostgreSQL database
 * `DATABASE_URL` names, and checks the copy before it commits it.
 *
 * - Refuses, with one line and exit code 1: `DATABASE_URL` unset or not a
 *   PostgreSQL URL; no database file, or one failing `PRAGMA quick_check`;
 *   a process holding the file open (a controller running on the data
 *   directory: on Linux, read off `/proc/locks`, see `move/source.ts`); a
 *   source whose migrations are not exactly this code's (behind: start the
 *   controller on SQLite once; ahead: this is older code or other
 *   `PLUGINS`); a PostgreSQL database that already has tables. The
 *   password is never printed (the runtime's store names the server without it).
 * - The schema is the controller's own: the migrations of the same plugin
 *   list (`defaultPlugins` plus `PLUGINS`) through `runMigrations` on the
 *   runtime's PostgreSQL store.
 * - One PostgreSQL transaction holds it all: the migrations, the rows the
 *   migrations seeded (built-in roles, `audit_head`, ...) replaced by the
 *   source's, every table's rows (foreign keys' order, tables a trigger
 *   writes after the table it fires on, multi-row INSERTs with bound
 *   parameters), then the checks: each table's row count, the migrations,
 *   the audit chain (`AuditLog.verify` on PostgreSQL, its last hash the
 *   source's), and that no process opened the SQLite file meanwhile. Any
 *   failure rolls it all back, so the target is as empty as it was and the
 *   command can simply run again.
 * - The source is opened read-only and read in one read transaction (one
 *   snapshot). SQLite may create an empty `-wal`/`-shm` beside it, as any
 *   reader of a WAL database does; the database file itself is never written.
 *
 * This file is the entry: the settings, the one line printed, the exit code.
 * The move is in `move/`: `program.ts` runs it; `source.ts` and `target.ts`
 * are the two databases; `values.ts` and `copy.ts` carry the rows across;
 * `checks.ts` is the proof before COMMIT; `summary.ts` what is printed.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { errorMessage, GarrisonConfig } from "@garrison/runtime"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { program } from "./move/program.js"
import { describeSummary } from "./move/summary.js"

const describe = (error: unknown) => (ConfigError.isConfigError(error) ? `bad configuration: ${String(error)}` : errorMessage(error))

program.pipe(
  Effect.flatMap((summary) => Console.log(describeSummary(summary))),
  Effect.provide(GarrisonConfig.layer),
  // The store's and the migrations' Info lines are noise here; warnings and errors still show.
  Logger.withMinimumLogLevel(LogLevel.Warning),
  Effect.catchAllCause((cause) =>
    Console.error(
      Cause.isInterruptedOnly(cause)
        ? "cannot move: interrupted; nothing was committed to PostgreSQL"
        : `cannot move: ${Option.match(Cause.failureOption(cause), { onNone: () => Cause.pretty(cause), onSome: describe })}`
    ).pipe(Effect.zipRight(Effect.failCause(cause)))
  ),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
