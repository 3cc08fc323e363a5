/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL). The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 *
 * Times are epoch milliseconds (`*_ms`). Players are keyed by DayZ ID (the
 * `id=` of the admin log); `steam64` is filled in once RCON has linked them.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create the game log tables", (sql) => [
    // Where each server's admin log has been read to. Written in the same transaction as what the lines
    // it covers produced, so a crash re-reads exactly the lines whose results were not committed.
    // pending: JSON of the fatal hits not yet matched with their kill line (headshots, zones).
    sql`CREATE TABLE gamelog_cursors (
          server_id TEXT PRIMARY KEY,
          file_name TEXT NOT NULL,
          byte_offset BIGINT NOT NULL,
          log_date TEXT,
          last_seconds INTEGER,
          day_shift INTEGER NOT NULL,
          pending TEXT NOT NULL,
          lines_read BIGINT NOT NULL,
          lines_unknown BIGINT NOT NULL,
          updated_ms BIGINT NOT NULL
        )`,
    sql`CREATE TABLE game_players (
          id TEXT PRIMARY KEY,
          steam64 TEXT,
          name TEXT NOT NULL,
          name_folded TEXT NOT NULL,
          first_seen_ms BIGINT NOT NULL,
          last_seen_ms BIGINT NOT NULL
        )`,
    sql`CREATE INDEX game_players_steam64 ON game_players (steam64)`,
    sql`CREATE INDEX game_players_last_seen ON game_players (last_seen_ms, id)`,
    sql`CREATE TABLE game_player_names (
          player_id TEXT NOT NULL,
          name TEXT NOT NULL,
          name_folded TEXT NOT NULL,
          first_seen_ms BIGINT NOT NULL,
          last_seen_ms BIGINT NOT NULL,
          PRIMARY KEY (player_id, name)
        )`,
    sql`CREATE INDEX game_player_names_folded ON game_player_names (name_folded)`,
    // online_since_ms: the connect of the session still open (null: offline); playtime counts closed sessions.
    sql`CREATE TABLE game_player_servers (
          player_id TEXT NOT NULL,
          server_id TEXT NOT NULL,
          first_seen_ms BIGINT NOT NULL,
          last_seen_ms BIGINT NOT NULL,
          sessions INTEGER NOT NULL,
          playtime_ms BIGINT NOT NULL,
          online_since_ms BIGINT,
          PRIMARY KEY (player_id, server_id)
        )`,
    sql`CREATE INDEX game_player_servers_server ON game_player_servers (server_id, last_seen_ms)`,
    sql`CREATE TABLE game_seasons (
          id TEXT PRIMARY KEY,
          server_id TEXT NOT NULL,
          number INTEGER NOT NULL,
          reason TEXT NOT NULL,
          started_ms BIGINT NOT NULL,
          ended_ms BIGINT,
          UNIQUE (server_id, number)
        )`,
    // id: `<server>:<file>:<byte offset of the line>`, so a line re-read after a crash can never count twice.
    sql`CREATE TABLE game_kills (
          id TEXT PRIMARY KEY,
          server_id TEXT NOT NULL,
          season_id TEXT NOT NULL,
          at_ms BIGINT NOT NULL,
          killer_kind TEXT NOT NULL,
          killer_id TEXT,
          killer_name TEXT,
          victim_id TEXT,
          victim_name TEXT NOT NULL,
          weapon TEXT,
          distance REAL,
          zone TEXT,
          headshot INTEGER NOT NULL,
          killer_x REAL,
          killer_y REAL,
          killer_z REAL,
          victim_x REAL,
          victim_y REAL,
          victim_z REAL
        )`,
    sql`CREATE INDEX game_kills_at ON game_kills (at_ms, id)`,
    sql`CREATE INDEX game_kills_server ON game_kills (server_id, at_ms, id)`,
    // A player's pages read these newest first; the rare kills of one player in the same millisecond are ordered
    // by id after the index (a small sort, not a wider index on every insert).
    sql`CREATE INDEX game_kills_killer ON game_kills (killer_id, at_ms)`,
    sql`CREATE INDEX game_kills_victim ON game_kills (victim_id, at_ms)`,
    sql`CREATE TABLE game_stats (
          season_id TEXT NOT NULL,
          player_id TEXT NOT NULL,
          name TEXT NOT NULL,
          kills INTEGER NOT NULL,
          deaths INTEGER NOT NULL,
          headshots INTEGER NOT NULL,
          longest_distance REAL,
          longest_weapon TEXT,
          longest_victim TEXT,
          longest_at_ms BIGINT,
          PRIMARY KEY (season_id, player_id)
        )`,
    sql`CREATE INDEX game_stats_kills ON game_stats (season_id, kills)`,
    // The last place each player was seen on each server (the live map without an agent).
    sql`CREATE TABLE game_positions (
          server_id TEXT NOT NULL,
          player_id TEXT NOT NULL,
          name TEXT NOT NULL,
          x REAL NOT NULL,
          y REAL NOT NULL,
          z REAL NOT NULL,
          at_ms BIGINT NOT NULL,
          online INTEGER NOT NULL,
          PRIMARY KEY (server_id, player_id)
        )`
  ])
]
