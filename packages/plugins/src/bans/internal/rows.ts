/** Rows of `bans` as read back. */
import * as Schema from "effect/Schema"
import { Ban } from "../contract/Api.js"

export const SELECT_COLUMNS = `id, platform_id AS "platformId", player_name AS "playerName", reason, banned_by AS "bannedBy",
  banned_at AS "bannedAt", expires_at AS "expiresAt", source`

export const decodeBans = Schema.decodeUnknown(Schema.Array(Ban))
