/**
 * The trust network's tables. Times the code compares are BIGINT epoch
 * milliseconds; instants shown are ISO-8601 text. Never edit a released
 * migration: add the next number.
 *
 * - `trust_communities`: this instance's own community (`local`) and each
 *   partner whose feed it follows; `weight` 0-2, `held` while an overturn
 *   rate above 30 % keeps it at 0 until an admin reviews it.
 * - `trust_bans`: the pool, one row per player and ban; `status` pending,
 *   active, overturned or expired (the last two are tombstones);
 *   `updated_ms` orders the partner export. At most one open (pending or
 *   active) row per player.
 * - `trust_vouches`: a community's submission of a pool ban, with the
 *   global ban it came from (local submissions).
 * - `trust_appeals`: a player's appeal of a pool ban, decided by an admin.
 * - `trust_players`: the service id (UUID) of every player the pool or a
 *   link has named, for lookups by service id.
 * - `trust_chat_links`: a chat user linked to a player, for lookups by chat
 *   user id.
 * - `trust_feed`: one row, the feed's clock: every change of a pool ban
 *   takes the next tick in its own transaction (the row stays locked until
 *   it commits), so the export's order is the order changes committed in.
 * - `trust_partner_keys`: keys partners export with, stored as SHA-256.
 * - `trust_subscriptions`: partners' exports this instance follows, with
 *   their key (sealed, `trust-subscriptions-key`), policy and where the
 *   last pull ended; `trust_subscription_bans`: the local ban each
 *   followed pool ban made, to lift it on its tombstone.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create the trust pool", (sql) => [
    sql`CREATE TABLE trust_communities (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          kind TEXT NOT NULL,
          weight DOUBLE PRECISION NOT NULL,
          held INTEGER NOT NULL DEFAULT 0,
          held_reason TEXT,
          created_at TEXT NOT NULL,
          reviewed_at TEXT,
          reviewed_by TEXT
        )`,
    sql`CREATE TABLE trust_bans (
          id TEXT PRIMARY KEY,
          platform_id TEXT NOT NULL,
          reason_category TEXT NOT NULL,
          status TEXT NOT NULL,
          expires_ms BIGINT,
          activated_ms BIGINT,
          created_ms BIGINT NOT NULL,
          updated_ms BIGINT NOT NULL
        )`,
    sql`CREATE UNIQUE INDEX trust_bans_open ON trust_bans (platform_id) WHERE status IN ('pending', 'active')`,
    sql`CREATE INDEX trust_bans_player ON trust_bans (platform_id, status)`,
    sql`CREATE INDEX trust_bans_feed ON trust_bans (updated_ms, id)`,
    sql`CREATE INDEX trust_bans_expiry ON trust_bans (expires_ms) WHERE status IN ('pending', 'active')`,
    sql`CREATE TABLE trust_vouches (
          ban_id TEXT NOT NULL,
          community_id TEXT NOT NULL,
          reason_category TEXT NOT NULL,
          local_ban_id TEXT,
          note TEXT,
          submitted_ms BIGINT NOT NULL,
          submitted_by TEXT,
          PRIMARY KEY (ban_id, community_id)
        )`,
    sql`CREATE INDEX trust_vouches_community ON trust_vouches (community_id, submitted_ms)`,
    sql`CREATE TABLE trust_appeals (
          id TEXT PRIMARY KEY,
          ban_id TEXT NOT NULL,
          statement TEXT NOT NULL,
          status TEXT NOT NULL,
          created_ms BIGINT NOT NULL,
          created_by TEXT,
          decided_ms BIGINT,
          decided_by TEXT,
          decision_note TEXT
        )`,
    sql`CREATE INDEX trust_appeals_ban ON trust_appeals (ban_id)`,
    sql`CREATE TABLE trust_players (
          service_id TEXT PRIMARY KEY,
          platform_id TEXT NOT NULL UNIQUE
        )`,
    sql`CREATE TABLE trust_chat_links (
          chat_user_id TEXT PRIMARY KEY,
          platform_id TEXT NOT NULL,
          linked_at TEXT NOT NULL,
          linked_by TEXT
        )`,
    sql`CREATE TABLE trust_feed (
          id INTEGER PRIMARY KEY,
          at_ms BIGINT NOT NULL
        )`,
    sql`INSERT INTO trust_feed (id, at_ms) VALUES (1, 0)`,
    sql`CREATE TABLE trust_partner_keys (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          tier TEXT NOT NULL,
          key_hash TEXT NOT NULL UNIQUE,
          hint TEXT NOT NULL,
          created_ms BIGINT NOT NULL,
          created_by TEXT,
          revoked_ms BIGINT,
          last_used_ms BIGINT
        )`,
    sql`CREATE TABLE trust_subscriptions (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          base_url TEXT NOT NULL,
          partner_key TEXT NOT NULL,
          min_vouches INTEGER NOT NULL,
          categories TEXT NOT NULL,
          exemptions TEXT NOT NULL,
          interval_s INTEGER NOT NULL,
          enabled INTEGER NOT NULL,
          since_ms BIGINT NOT NULL,
          last_pull_ms BIGINT,
          last_error TEXT,
          last_changes INTEGER,
          created_ms BIGINT NOT NULL,
          created_by TEXT
        )`,
    sql`CREATE TABLE trust_subscription_bans (
          subscription_id TEXT NOT NULL,
          remote_ban_id TEXT NOT NULL,
          platform_id TEXT NOT NULL,
          local_ban_id TEXT NOT NULL,
          PRIMARY KEY (subscription_id, remote_ban_id)
        )`
  ])
]
