/**
 * `webhooks`: one row per target, its URL and signing secret sealed (the
 * URL often holds a token). `webhook_deliveries`: the persisted queue and
 * the delivery log in one table: a delivery is `pending` (with the time of
 * its next attempt) until it is `delivered` or `failed`; the event-bus
 * handler writes one row per matching webhook, the dispatcher sends them.
 * Instants are ISO-8601 text (UTC, fixed width), flags INTEGER 0/1.
 * Never edit a released migration: add the next number instead (the
 * conventions test pins each statement's text, indentation included).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create webhooks and webhook_deliveries", (sql) => [
    sql`CREATE TABLE webhooks (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          kind TEXT NOT NULL,
          url TEXT NOT NULL,
          url_masked TEXT NOT NULL,
          secret TEXT NOT NULL,
          events TEXT NOT NULL,
          servers TEXT,
          enabled INTEGER NOT NULL,
          disabled_reason TEXT,
          failing_since TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`,
    sql`CREATE TABLE webhook_deliveries (
          id TEXT PRIMARY KEY,
          webhook_id TEXT NOT NULL,
          idempotency_key TEXT NOT NULL,
          event TEXT NOT NULL,
          severity TEXT NOT NULL,
          summary TEXT NOT NULL,
          server_id TEXT,
          server_name TEXT,
          payload TEXT NOT NULL,
          status TEXT NOT NULL,
          test INTEGER NOT NULL,
          replay_of TEXT,
          attempts INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          next_attempt_at TEXT,
          last_attempt_at TEXT,
          response_status INTEGER,
          duration_ms BIGINT,
          response_body TEXT,
          error TEXT
        )`,
    // The log, newest first per webhook (keyset on created_at, id).
    sql`CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, id)`,
    // The queue: what is due, per webhook.
    sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, webhook_id, next_attempt_at)`
  ]),
  // When the attempt under way started (set before its request goes out, cleared when it is recorded): one still set
  // at start-up was cut short by a kill or a stop, and is counted before anything is sent again.
  // cut_attempts: of the attempts counted, those cut short so (the target may or may not have had them).
  migration(2, "webhook delivery attempt start", (sql) => [
    sql`ALTER TABLE webhook_deliveries ADD COLUMN attempt_started_at TEXT`,
    sql`ALTER TABLE webhook_deliveries ADD COLUMN cut_attempts INTEGER NOT NULL DEFAULT 0`
  ]),
  // The outbox: one row per event some webhooks take, written with the publisher's change (one row, not one per
  // webhook, so the publisher's cost does not grow with the webhooks); the dispatcher turns each into a delivery per
  // webhook in `webhook_ids` (a JSON array) and deletes it, in one transaction.
  migration(3, "webhook outbox", (sql) => [
    sql`CREATE TABLE webhook_outbox (
          id TEXT PRIMARY KEY,
          event TEXT NOT NULL,
          severity TEXT NOT NULL,
          summary TEXT NOT NULL,
          server_id TEXT,
          server_name TEXT,
          payload TEXT NOT NULL,
          webhook_ids TEXT NOT NULL,
          created_at TEXT NOT NULL
        )`,
    sql`CREATE INDEX webhook_outbox_order ON webhook_outbox (created_at, id)`
  ])
]
