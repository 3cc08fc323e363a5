/**
 * The audit tables. `audit_log.seq` is the chain position, assigned by the
 * plugin (not by the database) so the SQL stays portable; `audit_head` is
 * one row holding the last position and hash, moved by a trigger on every
 * insert (version 2; before it, appending updated it itself), and verify
 * compares against it, so deleting the newest rows is noticed too. Since
 * version 3 each row also holds its actor's name and its hash version.
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { type Migration, migration } from "@garrison/runtime"
import { GENESIS_HASH } from "./internal/chain.js"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create audit_log and audit_head", (sql) => [
    sql`CREATE TABLE audit_log (
          seq INTEGER PRIMARY KEY,
          at TEXT NOT NULL,
          actor TEXT,
          ip TEXT,
          action TEXT NOT NULL,
          target TEXT,
          result TEXT NOT NULL,
          details TEXT,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL
        )`,
    // Filters are combined with ORDER BY seq DESC: the trailing seq keeps each index ordered.
    sql`CREATE INDEX audit_log_actor ON audit_log (actor, seq)`,
    sql`CREATE INDEX audit_log_action ON audit_log (action, seq)`,
    sql`CREATE INDEX audit_log_at ON audit_log (at)`,
    sql`CREATE TABLE audit_head (
          id INTEGER PRIMARY KEY,
          seq INTEGER NOT NULL,
          hash TEXT NOT NULL
        )`,
    sql`INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, ${GENESIS_HASH})`
  ]),
  // The head follows every insert in the same statement, so an append is one statement (see internal/append.ts).
  migration(
    2,
    "audit_head follows each appended row",
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.onDialectOrElse({
        pg: () =>
          Effect.all([
            sql`CREATE FUNCTION audit_log_head() RETURNS trigger AS $$
          BEGIN
            UPDATE audit_head SET seq = NEW.seq, hash = NEW.hash WHERE id = 1;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`,
            sql`CREATE TRIGGER audit_log_head AFTER INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_head()`
          ], { discard: true }),
        orElse: () =>
          Effect.asVoid(sql`CREATE TRIGGER audit_log_head AFTER INSERT ON audit_log
          BEGIN
            UPDATE audit_head SET seq = NEW.seq, hash = NEW.hash WHERE id = 1;
          END`)
      })
    )
  ),
  // Rows name their actor besides its id and say how they were hashed (internal/chain.ts); rows already there are version 1.
  migration(3, "audit rows name their actor", (sql) => [
    sql`ALTER TABLE audit_log ADD COLUMN actor_name TEXT`,
    sql`ALTER TABLE audit_log ADD COLUMN hash_version INTEGER NOT NULL DEFAULT 1`,
    // The actor filter matches the name too.
    sql`CREATE INDEX audit_log_actor_name ON audit_log (actor_name, seq)`
  ])
]
