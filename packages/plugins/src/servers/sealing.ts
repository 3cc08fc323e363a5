/**
 * The credentials a server entry holds (its RCON password, its agent's API
 * key) must be kept readable to connect: they are stored sealed by the
 * runtime's `SealedSecrets` (AES-256-GCM, key in
 * `<data>/secrets/servers-credentials-key.key`) and opened when entries are
 * read, so only the in-memory entries carry them in clear. The server's id
 * and which credential it is are the context: a sealed value copied into
 * another entry's row, or into the other field, does not open.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isSealed, type OpenFailure, type SealedBox, ServerEntry, type SealingKey } from "@garrison/runtime"

export const SERVERS_KEY = {
  name: "servers-credentials-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the servers' RCON passwords and agent keys (AES-256-GCM)",
    ifReplaced: "every stored RCON password and agent key becomes unreadable: enter each server's again"
  }
} as const satisfies SealingKey

export const rconPasswordContext = (serverId: string): string => `servers/${serverId}/rcon-password`
export const agentKeyContext = (serverId: string): string => `servers/${serverId}/agent-api-key`

/** A credential sealed, unless it is empty (none) or sealed already. */
const sealValue = (box: SealedBox, value: string, context: string) => (value === "" || isSealed(value) ? value : box.seal(value, context))

/** The entry as stored: its RCON password and agent key sealed (an empty one, meaning none, stays empty). */
export const sealEntry = (box: SealedBox, entry: ServerEntry): ServerEntry => {
  if (entry.rcon === undefined && entry.agent === undefined) return entry
  return new ServerEntry({
    ...entry,
    rcon: entry.rcon === undefined ? undefined : { ...entry.rcon, password: sealValue(box, entry.rcon.password, rconPasswordContext(entry.id)) },
    agent: entry.agent === undefined ? undefined : { ...entry.agent, apiKey: sealValue(box, entry.agent.apiKey, agentKeyContext(entry.id)) }
  })
}

/** Which credential of an entry did not open. */
export type SealedField = "RCON password" | "agent key"

/**
 * The entry as the actors use it: its credentials opened. A credential still
 * in clear (written before sealing, until the migration ran) passes as it is.
 * A credential that does not open is emptied (the rest of the entry is
 * kept), and named in `failed`.
 */
export const openEntry = (
  box: SealedBox,
  entry: ServerEntry
): { readonly entry: ServerEntry; readonly failed: ReadonlyArray<{ readonly field: SealedField; readonly failure: OpenFailure }> } => {
  const failed: Array<{ field: SealedField; failure: OpenFailure }> = []
  const open = (value: string, context: string, field: SealedField) => {
    if (!isSealed(value)) return value
    return Either.match(box.open(value, context), {
      onRight: (clear) => clear,
      onLeft: (failure) => {
        failed.push({ field, failure })
        return ""
      }
    })
  }
  if (entry.rcon === undefined && entry.agent === undefined) return { entry, failed }
  const opened = new ServerEntry({
    ...entry,
    rcon: entry.rcon === undefined ? undefined : { ...entry.rcon, password: open(entry.rcon.password, rconPasswordContext(entry.id), "RCON password") },
    agent: entry.agent === undefined ? undefined : { ...entry.agent, apiKey: open(entry.agent.apiKey, agentKeyContext(entry.id), "agent key") }
  })
  return { entry: opened, failed }
}

/** What `openEntry` failing means, for the log line. */
export const describeOpenFailure = (failure: OpenFailure): string =>
  failure === "other-key"
    ? "was sealed with another key than the one in the key file"
    : failure === "tampered"
      ? "does not open (altered, or copied from another entry)"
      : "is not a sealed value"

/**
 * A stored row's JSON with its RCON password sealed, for the migration that
 * seals passwords written in clear; None when nothing needs sealing (or the
 * row is not readable JSON, which the store reports when it loads).
 */
const Loose = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const StoredRow = Schema.parseJson(
  Schema.Struct({ rcon: Schema.optional(Schema.Struct({ password: Schema.String }, Loose)) }, Loose)
)
const decodeStoredRow = Schema.decodeUnknownOption(StoredRow)

export const sealStoredJson = (box: SealedBox, serverId: string, json: string): string | undefined => {
  const row = decodeStoredRow(json)
  if (row._tag === "None") return undefined
  const rcon = row.value.rcon
  if (rcon === undefined || rcon.password === "" || isSealed(rcon.password)) return undefined
  return JSON.stringify({ ...row.value, rcon: { ...rcon, password: box.seal(rcon.password, rconPasswordContext(serverId)) } })
}
