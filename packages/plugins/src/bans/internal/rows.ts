/** Rows of `bans` as read back. */
import * as Schema from "effect/Schema"
import { perDialect } from "@garrison/runtime"
import { Ban } from "../contract/Api.js"

export const SELECT_COLUMNS = `id, platform_id AS "platformId", player_name AS "playerName", reason, banned_by AS "bannedBy",
  banned_at AS "bannedAt", expires_at AS "expiresAt", source`

export const decodeBans = Schema.decodeUnknown(Schema.Array(Ban))

/** A ban as the list and the export read it: its JSON, written by the database, and its sort key. */
export interface BanJsonRow {
  readonly json: string
  readonly bannedAt: string
  readonly id: string
}

/**
 * The `Ban` schema's fields in its order, as the database writes them (the
 * runtime's `jsonSql`; every column is text or null); `bannedAt` and `id`
 * again for the keyset. In the client's dialect: `jsonColumns(sql)`.
 */
export const jsonColumns = perDialect((json) =>
  `${
    json.text(json.object({
      id: "id",
      platformId: "platform_id",
      playerName: "player_name",
      reason: "reason",
      bannedBy: "banned_by",
      bannedAt: "banned_at",
      expiresAt: "expires_at",
      source: "source"
    }))
  } AS json, banned_at AS "bannedAt", id`
)
