/**
 * The chat bot's tables. Instants are ISO-8601 text (UTC), except the
 * signatures' expiry, compared as a number. Never edit a released
 * migration: add the next number.
 *
 * - `chat_user_roles`: a chat user's role (absent: the built-in `chat-bot`).
 * - `chat_bot_key`: one row at most (`id` 1), the bot key sealed
 *   (`chat-bot-key`, context `chat/bot-key`); `revealed_at` says whether
 *   an admin has seen it (it is shown once).
 * - `chat_signatures`: every signature accepted, until its timestamp has
 *   left the window: a replay is a second insert of the same signature, on
 *   any controller sharing the database, across restarts.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create chat_user_roles, chat_bot_key, chat_signatures", (sql) => [
    sql`CREATE TABLE chat_user_roles (
          chat_user_id TEXT PRIMARY KEY,
          role TEXT NOT NULL,
          chat_user_tag TEXT,
          updated_at TEXT NOT NULL,
          updated_by TEXT
        )`,
    sql`CREATE INDEX chat_user_roles_role ON chat_user_roles (role)`,
    sql`CREATE TABLE chat_bot_key (
          id INTEGER PRIMARY KEY,
          bot_key TEXT NOT NULL,
          created_at TEXT NOT NULL,
          created_by TEXT,
          revealed_at TEXT
        )`,
    sql`CREATE TABLE chat_signatures (
          signature TEXT PRIMARY KEY,
          expires_at BIGINT NOT NULL
        )`,
    sql`CREATE INDEX chat_signatures_expiry ON chat_signatures (expires_at)`
  ])
]
