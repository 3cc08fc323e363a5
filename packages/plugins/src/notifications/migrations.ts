/**
 * Notifications are stored once, with their audience; each caller's state
 * is two watermarks (read and cleared up to a position) plus one row per
 * notification read individually, so a broadcast costs one row however many
 * users see it. `seq` comes from `notification_counter`, bumped inside the
 * publishing transaction, so positions follow commit order and are never
 * reused (watermarks depend on both).
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create notifications, reads, user state and counter", (sql) => [
    sql`CREATE TABLE notifications (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          audience_kind TEXT NOT NULL,
          audience_key TEXT NOT NULL,
          level TEXT NOT NULL,
          title TEXT NOT NULL,
          message TEXT NOT NULL,
          link TEXT
        )`,
    // The read query is an OR of (kind, key) equalities ordered by seq: each term is an index range.
    sql`CREATE INDEX notifications_audience ON notifications (audience_kind, audience_key, seq)`,
    sql`CREATE INDEX notifications_created ON notifications (created_at)`,
    sql`CREATE TABLE notification_reads (
          user_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          read_at TEXT NOT NULL,
          PRIMARY KEY (user_id, seq)
        )`,
    sql`CREATE TABLE notification_user_state (
          user_id TEXT PRIMARY KEY,
          read_seq INTEGER NOT NULL,
          cleared_seq INTEGER NOT NULL
        )`,
    sql`CREATE TABLE notification_counter (
          id INTEGER PRIMARY KEY,
          last_seq INTEGER NOT NULL
        )`,
    sql`INSERT INTO notification_counter (id, last_seq) VALUES (1, 0)`
  ]),
  // The server a notification is about (NULL: none): callers scoped to some servers see only theirs.
  migration(2, "notifications about a server", (sql) => [
    sql`ALTER TABLE notifications ADD COLUMN server_id TEXT`,
    sql`CREATE INDEX notifications_server ON notifications (server_id, seq)`
  ])
]
