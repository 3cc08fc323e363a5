/**
 * Tables of the accounts plugin. Portable SQL (SQLite now, PostgreSQL
 * later): BIGINT epoch milliseconds for times the code compares, ISO text
 * for times people read, INTEGER 0/1 for flags. Never edit a released
 * migration: add the next number.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { SqlError } from "@effect/sql/SqlError"
import type { Migration } from "@garrison/runtime"
import { BUILT_IN_ROLES } from "./roles/builtIn.js"

const run = (statements: (sql: SqlClient.SqlClient) => ReadonlyArray<Effect.Effect<unknown, SqlError>>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.all(statements(sql), { discard: true }))

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "create roles and users",
    up: run((sql) => [
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
    ])
  },
  {
    version: 2,
    name: "create sessions",
    // Every issued token has a row until it expires; a token without an active row is refused.
    up: run((sql) => [
      sql`CREATE TABLE accounts_sessions (
        jti TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        issued_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        revoked_at BIGINT
      )`,
      sql`CREATE INDEX accounts_sessions_user ON accounts_sessions (user_id)`,
      sql`CREATE INDEX accounts_sessions_expiry ON accounts_sessions (expires_at)`
    ])
  },
  {
    version: 3,
    name: "create login lockout",
    up: run((sql) => [
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
    ])
  },
  {
    version: 4,
    name: "create recovery codes",
    up: run((sql) => [
      sql`CREATE TABLE accounts_recovery_codes (
        user_id TEXT NOT NULL REFERENCES accounts_users (id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        PRIMARY KEY (user_id, code_hash)
      )`
    ])
  },
  {
    version: 5,
    name: "count login attempts before they are checked",
    // A row is now counted when the attempt starts (pending = 1) and kept as a failure (pending = 0)
    // or removed when it ends; `attempt` names it. Rows already there are failures.
    up: run((sql) => [
      sql`ALTER TABLE accounts_login_failures ADD COLUMN attempt TEXT`,
      sql`ALTER TABLE accounts_login_failures ADD COLUMN pending INTEGER NOT NULL DEFAULT 0`
    ])
  }
]

/** Built-in roles predate every user; their timestamps say so. */
const EPOCH = "1970-01-01T00:00:00.000Z"
