/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL): money is
 * INTEGER minor units (at most 99,999,999: 32 bits hold it), times are
 * ISO-8601 UTC text, flags INTEGER 0/1. The text inside each statement is
 * byte for byte as released, indentation included, hence lines deeper than
 * the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create store products, purchases and payment config", (sql) => [
    // duration: 30d, 90d, 1y, permanent or custom; duration_days: the days it gives (NULL: permanent).
    sql`CREATE TABLE store_products (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          description TEXT NOT NULL,
          role TEXT NOT NULL,
          amount INTEGER NOT NULL,
          currency TEXT NOT NULL,
          duration TEXT NOT NULL,
          duration_days INTEGER,
          active INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`,
    // One row per checkout, with the product as bought (no foreign key: a removed product keeps its purchases).
    // A paid session completes its row once: the webhook's UPDATE ... WHERE status <> 'completed' is the guard,
    // in the grant's transaction; the provider's session and event ids are unique.
    sql`CREATE TABLE store_purchases (
          id TEXT PRIMARY KEY,
          created_at TEXT NOT NULL,
          status TEXT NOT NULL,
          platform_id TEXT NOT NULL,
          player_name TEXT NOT NULL,
          product_id TEXT NOT NULL,
          product_name TEXT NOT NULL,
          role TEXT NOT NULL,
          duration TEXT NOT NULL,
          duration_days INTEGER,
          amount INTEGER NOT NULL,
          currency TEXT NOT NULL,
          started_by TEXT NOT NULL,
          provider_session_id TEXT UNIQUE,
          provider_event_id TEXT UNIQUE,
          completed_at TEXT,
          entry_id TEXT,
          grant_outcome TEXT,
          entry_expires_at TEXT
        )`,
    sql`CREATE INDEX store_purchases_created ON store_purchases (created_at, id)`,
    sql`CREATE INDEX store_purchases_status ON store_purchases (status, created_at, id)`,
    // One row (id 1) once anything was set; the secrets sealed (AES-256-GCM, see PaymentSettings).
    sql`CREATE TABLE store_payment_config (
          id INTEGER PRIMARY KEY,
          enabled INTEGER NOT NULL,
          currency TEXT NOT NULL,
          base_url TEXT NOT NULL,
          secret_key TEXT,
          webhook_secret TEXT,
          success_url TEXT,
          cancel_url TEXT,
          updated_at TEXT NOT NULL,
          updated_by TEXT
        )`
  ])
]
