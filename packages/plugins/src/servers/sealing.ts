/**
 * RCON passwords are the one credential a server entry holds, and Garrison
 * must keep them in clear to connect: they are stored sealed by the
 * runtime's `SealedSecrets` (AES-256-GCM, key in
 * `<data>/secrets/servers-credentials-key.key`) and opened when entries are
 * read, so only the in-memory entries the actors use carry them in clear.
 * The server's id is the context: a sealed password copied into another
 * entry's row does not open.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isSealed, type OpenFailure, type SealedBox, ServerEntry, type SealingKey } from "@garrison/runtime"

export const SERVERS_KEY = {
  name: "servers-credentials-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the servers' RCON passwords (AES-256-GCM)",
    ifReplaced: "every stored RCON password becomes unreadable: enter each server's RCON password again"
  }
} as const satisfies SealingKey

export const rconPasswordContext = (serverId: string): string => `servers/${serverId}/rcon-password`

/** The entry as stored: its RCON password sealed (an empty password, meaning none, stays empty). */
export const sealEntry = (box: SealedBox, entry: ServerEntry): ServerEntry =>
  entry.rcon === undefined || entry.rcon.password === "" || isSealed(entry.rcon.password)
    ? entry
    : new ServerEntry({ ...entry, rcon: { ...entry.rcon, password: box.seal(entry.rcon.password, rconPasswordContext(entry.id)) } })

/**
 * The entry as the actors use it: its RCON password opened. A password still
 * in clear (written before sealing, until the migration ran) passes as it is.
 */
export const openEntry = (box: SealedBox, entry: ServerEntry): Either.Either<ServerEntry, OpenFailure> => {
  if (entry.rcon === undefined || !isSealed(entry.rcon.password)) return Either.right(entry)
  const rcon = entry.rcon
  return Either.map(
    box.open(rcon.password, rconPasswordContext(entry.id)),
    (password) => new ServerEntry({ ...entry, rcon: { ...rcon, password } })
  )
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
