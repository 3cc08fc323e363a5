/**
 * The link at rest: the one row of `cloud_link` (its token sealed with
 * `CLOUD_KEY`) and the rows of `cloud_servers`, the servers mirrored. The
 * writes here are run by the admin changes inside their audit transactions.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { SealedBox, SealingKey } from "@garrison/runtime"
import { storeError } from "../errors.js"
import type { Enabled, Mirrored } from "./linkState.js"
import { isoOf } from "@garrison/runtime"

/** Seals the stored link token (AES-256-GCM). */
export const CLOUD_KEY = {
  name: "cloud-link-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the stored cloud link token (AES-256-GCM)",
    ifReplaced: "the stored link token becomes unreadable: enable the cloud link again"
  }
} as const satisfies SealingKey

export const readLinkRows = (sql: SqlClient.SqlClient) =>
  sql<{ link_token: string; role: string; enabled_at: string }>`SELECT link_token, role, enabled_at FROM cloud_link WHERE id = 1`.pipe(
    Effect.mapError(storeError("read the cloud link"))
  )

export const readMirroredRows = (sql: SqlClient.SqlClient) =>
  sql<{ server_id: string; connected_at: string }>`SELECT server_id, connected_at FROM cloud_servers ORDER BY connected_at, server_id`.pipe(
    Effect.mapError(storeError("read the mirrored servers"))
  )

/** The stored link, its token opened; undefined (logged) when the token does not open. */
export const openLinkRow = (row: { readonly link_token: string; readonly role: string; readonly enabled_at: string } | undefined, box: SealedBox) =>
  Effect.gen(function* () {
    let initial: Enabled | undefined
    if (row !== undefined) {
      const token = box.open(row.link_token, "cloud/link_token")
      if (Either.isRight(token)) initial = { token: token.right, role: row.role, enabledAt: Date.parse(row.enabled_at) }
      else yield* Effect.logError("cloud: the stored link token does not open (its key file changed?): enable the link again")
    }
    return initial
  })

export const mirroredOfRows = (rows: ReadonlyArray<{ readonly server_id: string; readonly connected_at: string }>): ReadonlyArray<Mirrored> =>
  rows.map((row) => ({ serverId: row.server_id, connectedAt: Date.parse(row.connected_at) }))

export const saveLink = (sql: SqlClient.SqlClient, box: SealedBox, token: string, role: string, now: number, by: string) =>
  sql`INSERT INTO cloud_link (id, link_token, role, enabled_at, enabled_by)
      VALUES (1, ${box.seal(token, "cloud/link_token")}, ${role}, ${isoOf(now)}, ${by})
      ON CONFLICT (id) DO UPDATE SET link_token = excluded.link_token, role = excluded.role,
        enabled_at = excluded.enabled_at, enabled_by = excluded.enabled_by`

export const deleteLink = (sql: SqlClient.SqlClient) => sql`DELETE FROM cloud_link WHERE id = 1`

export const insertMirrored = (sql: SqlClient.SqlClient, serverId: string, now: number, by: string) =>
  sql`INSERT INTO cloud_servers (server_id, connected_at, connected_by) VALUES (${serverId}, ${isoOf(now)}, ${by})
      ON CONFLICT (server_id) DO NOTHING`

export const deleteMirrored = (sql: SqlClient.SqlClient, serverId: string) => sql`DELETE FROM cloud_servers WHERE server_id = ${serverId}`
