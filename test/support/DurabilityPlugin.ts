/**
 * For tests only: a write endpoint whose acknowledgement means "committed",
 * so the durability e2e test can kill the controller mid-stream and check
 * that every acknowledged row survived. Load it with
 * `PLUGINS=./test/dist/support/DurabilityPlugin.js,./packages/testkit/dist/TestAuthPlugin.js`
 * and call it with `Authorization: Bearer test:t:test.write`.
 *
 *   POST /api/test/writes        { seq, payload } -> 201 { seq }   (409 when seq exists)
 *   GET  /api/test/writes/count  -> 200 { count, maxSeq }
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Access, Conflict, Plugin } from "@garrison/runtime"
import { Effect, Schema } from "effect"

export const WRITE_PERMISSION = "test.write"

export class WriteRequest extends Schema.Class<WriteRequest>("DurabilityWriteRequest")({
  seq: Schema.Int.pipe(Schema.nonNegative()),
  payload: Schema.String
}) {}

export class WriteAck extends Schema.Class<WriteAck>("DurabilityWriteAck")({
  seq: Schema.Int
}) {}

export class WriteCount extends Schema.Class<WriteCount>("DurabilityWriteCount")({
  count: Schema.Int,
  /** Highest stored seq, or -1 when the table is empty. */
  maxSeq: Schema.Int
}) {}

export class DurabilityGroup extends HttpApiGroup.make("durability")
  .add(
    HttpApiEndpoint.post("write", "/api/test/writes")
      .setPayload(WriteRequest)
      .addSuccess(WriteAck, { status: 201 })
      .addError(Conflict)
      .annotate(Access, Access.permission(WRITE_PERMISSION))
      .annotate(OpenApi.Summary, "Write one acknowledged row")
  )
  .add(
    HttpApiEndpoint.get("count", "/api/test/writes/count")
      .addSuccess(WriteCount)
      .annotate(Access, Access.permission(WRITE_PERMISSION))
      .annotate(OpenApi.Summary, "Count the rows written")
  ) {}

export class DurabilityApi extends HttpApi.make("durability-test").add(DurabilityGroup) {}

/** SQLite reports a duplicate primary key with this code; PostgreSQL would say 23505. */
const isDuplicateKey = (cause: unknown): boolean =>
  typeof cause === "object" &&
  cause !== null &&
  "code" in cause &&
  (cause.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || cause.code === "23505")

const DurabilityHandlers = HttpApiBuilder.group(DurabilityApi, "durability", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("write", ({ payload }) =>
        // The explicit transaction makes "committed before the 201" visible in the code,
        // not a property of autocommit; other SQL errors stay defects (500).
        sql`INSERT INTO durability_writes (seq, payload) VALUES (${payload.seq}, ${payload.payload})`.pipe(
          sql.withTransaction,
          Effect.as(new WriteAck({ seq: payload.seq })),
          Effect.catchTag("SqlError", (error) =>
            isDuplicateKey(error.cause)
              ? Effect.fail(new Conflict({ message: `seq ${payload.seq} was already written` }))
              : Effect.die(error)
          )
        )
      )
      .handle("count", () =>
        sql<{ readonly count: number | string; readonly max_seq: number | string | null }>`
          SELECT COUNT(*) AS count, MAX(seq) AS max_seq FROM durability_writes`.pipe(
          Effect.map(([row]) => new WriteCount({ count: Number(row?.count ?? 0), maxSeq: Number(row?.max_seq ?? -1) })),
          Effect.orDie
        )
      )
  })
)

export const DurabilityPlugin = Plugin.make({
  id: "test-durability",
  description: "Acknowledged writes for the durability e2e test",
  permissions: [{ name: WRITE_PERMISSION, description: "Write and count rows of the durability test table" }],
  migrations: [
    {
      version: 1,
      name: "create durability_writes",
      up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`CREATE TABLE durability_writes (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)`.pipe(Effect.asVoid)
      )
    }
  ],
  http: Plugin.http(DurabilityApi, DurabilityHandlers)
})

export default DurabilityPlugin
