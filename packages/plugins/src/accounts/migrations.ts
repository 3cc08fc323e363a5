/**
 * Tables of the accounts plugin. Portable SQL (SQLite now, PostgreSQL
 * later): BIGINT epoch milliseconds for times the code compares, ISO text
 * for times people read, INTEGER 0/1 for flags. Never edit a released
 * migration: add the next number. The text inside each statement is byte
 * for byte as released, indentation included (a database's schema keeps it).
 */
import { type Migration, migration } from "@garrison/runtime"
import { BUILT_IN_ROLES } from "./roles/builtIn.js"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create roles and users", (sql) => [
    sql`CREATE TABLE accounts_roles (
        name TEXT PRIMARY KEY,
        description TEXT NOT NULL,
        permissions TEXT NOT NULL,
        built_in INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    sql`CREATE TABLE accounts_users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL REFERENCES accounts_roles (name),
        disabled INTEGER NOT NULL,
        must_change_password INTEGER NOT NULL,
        mfa_enabled INTEGER NOT NULL,
        mfa_secret TEXT,
        mfa_pending_secret TEXT,
        mfa_last_step BIGINT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    sql`CREATE INDEX accounts_users_role ON accounts_users (role)`,
    ...BUILT_IN_ROLES.map(
      (role) => sql`INSERT INTO accounts_roles (name, description, permissions, built_in, created_at, updated_at)
          VALUES (${role.name}, ${role.description}, ${JSON.stringify(role.permissions)}, 1, ${EPOCH}, ${EPOCH})`
    )
  ]),
  // Every issued token has a row until it expires; a token without an active row is refused.
  migration(2, "create sessions", (sql) => [
    sql`CREATE TABLE accounts_sessions (
        jti TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        issued_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        revoked_at BIGINT
      )`,
    sql`CREATE INDEX accounts_sessions_user ON accounts_sessions (user_id)`,
    sql`CREATE INDEX accounts_sessions_expiry ON accounts_sessions (expires_at)`
  ]),
  migration(3, "create login lockout", (sql) => [
    sql`CREATE TABLE accounts_login_failures (
        ip TEXT NOT NULL,
        username_key TEXT NOT NULL,
        at BIGINT NOT NULL
      )`,
    sql`CREATE INDEX accounts_login_failures_pair ON accounts_login_failures (ip, username_key, at)`,
    sql`CREATE TABLE accounts_lockouts (
        ip TEXT NOT NULL,
        username_key TEXT NOT NULL,
        lock_count INTEGER NOT NULL,
        locked_until BIGINT NOT NULL,
        PRIMARY KEY (ip, username_key)
      )`
  ]),
  migration(4, "create recovery codes", (sql) => [
    sql`CREATE TABLE accounts_recovery_codes (
        user_id TEXT NOT NULL REFERENCES accounts_users (id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        PRIMARY KEY (user_id, code_hash)
      )`
  ]),
  // A row is now counted when the attempt starts (pending = 1) and kept as a failure (pending = 0)
  // or removed when it ends; `attempt` names it. Rows already there are failures.
  migration(5, "count login attempts before they are checked", (sql) => [
    sql`ALTER TABLE accounts_login_failures ADD COLUMN attempt TEXT`,
    sql`ALTER TABLE accounts_login_failures ADD COLUMN pending INTEGER NOT NULL DEFAULT 0`
  ])
]

/** Built-in roles predate every user; their timestamps say so. */
const EPOCH = "1970-01-01T00:00:00.000Z"
