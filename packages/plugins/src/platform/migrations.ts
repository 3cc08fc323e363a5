/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create platform_settings", (sql) => [
    // One row per setting (steamcmd_path, web_api_url, web_api_key, steam_username, steam_password, ...);
    // secrets are stored sealed (AES-256-GCM, see PlatformSettings).
    sql`CREATE TABLE platform_settings (
          name TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`
  ])
]
