/**
 * A player's service id: a UUID (v5) of their Steam64 under Garrison's own
 * namespace, so the same player has the same service id on every Garrison
 * instance of the federation, and a partner can name a player without a
 * platform id. The reverse lookup (service id to player) holds the players
 * the pool or a chat link has named.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { v5 as uuidv5 } from "uuid"

/** Garrison's namespace for service ids (a fixed random UUID: changing it changes every service id). */
export const SERVICE_ID_NAMESPACE = "5b0e9f1c-3d2a-4c6b-9e8f-7a1d2c3b4e5f"

export const serviceIdOf = (steam64: string): string => uuidv5(`steam64:${steam64}`, SERVICE_ID_NAMESPACE)

/** Remembers the player's service id (once), inside the caller's transaction. */
export const rememberPlayer = (sql: SqlClient.SqlClient, steam64: string) =>
  sql`INSERT INTO trust_players (service_id, platform_id) VALUES (${serviceIdOf(steam64)}, ${steam64}) ON CONFLICT (service_id) DO NOTHING`.pipe(Effect.asVoid)
