/**
 * The audit tables. `audit_log.seq` is the chain position, assigned by the
 * plugin (not by the database) so the SQL stays portable; `audit_head` is
 * one row holding the last position and hash: appending claims it first
 * (a row lock on PostgreSQL, the write lock on SQLite), and verify compares
 * against it, so deleting the newest rows is noticed too.
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
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
  ])
]
