/**
 * Rows written before text was made well-formed (see text.ts) may hold lone
 * surrogates. SQLite kept them as their WTF-8 bytes (a surrogate encoded
 * like any other code point), which read back as U+FFFD: the text no longer
 * matches the row's hash although nobody changed the row. Read as bytes and
 * decoded as WTF-8, each field is again the string that was hashed, so
 * verify tries this reading before calling such a row altered.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ChainedFields } from "./chain.js"
import { versionOf } from "./rows.js"

/** UTF-8 bytes that may also encode lone surrogates (`ED A0..BF 80..BF`), as a JavaScript string. */
export const decodeWtf8 = (bytes: Uint8Array): string => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let text = ""
  let start = 0
  for (let i = 0; i + 2 < buffer.length; i++) {
    const second = buffer[i + 1]!
    const third = buffer[i + 2]!
    if (buffer[i] === 0xed && (second & 0xe0) === 0xa0 && (third & 0xc0) === 0x80) {
      text += buffer.toString("utf8", start, i) + String.fromCharCode(0xd000 | ((second & 0x3f) << 6) | (third & 0x3f))
      i += 2
      start = i + 1
    }
  }
  return text + buffer.toString("utf8", start)
}

type Bytes = Uint8Array | null

interface RawRow {
  readonly hash_version: number | string
  readonly at: Bytes
  readonly actor: Bytes
  readonly actor_name: Bytes
  readonly ip: Bytes
  readonly action: Bytes
  readonly target: Bytes
  readonly result: Bytes
  readonly details: Bytes
  readonly prev_hash: Bytes
}

const text = (bytes: Bytes): string | null => (bytes === null ? null : decodeWtf8(bytes))

/**
 * The chained fields of row `seq` read as WTF-8; none when the row is gone
 * or the database cannot read text as bytes (only SQLite ever stored such rows).
 * Such rows are all version 1, but the version is read like the rest, so
 * the row is hashed as it says.
 */
export const wtf8Fields = (sql: SqlClient.SqlClient, seq: number): Effect.Effect<Option.Option<ChainedFields>> =>
  sql<RawRow>`SELECT hash_version, CAST(at AS BLOB) AS at, CAST(actor AS BLOB) AS actor,
      CAST(actor_name AS BLOB) AS actor_name, CAST(ip AS BLOB) AS ip,
      CAST(action AS BLOB) AS action, CAST(target AS BLOB) AS target, CAST(result AS BLOB) AS result,
      CAST(details AS BLOB) AS details, CAST(prev_hash AS BLOB) AS prev_hash
    FROM audit_log WHERE seq = ${seq}`.pipe(
    Effect.map((rows) =>
      Option.map(Option.fromNullable(rows[0]), (row): ChainedFields => ({
        version: versionOf(row.hash_version),
        prevHash: text(row.prev_hash) ?? "",
        at: text(row.at) ?? "",
        actor: text(row.actor),
        actorName: text(row.actor_name),
        ip: text(row.ip),
        action: text(row.action) ?? "",
        target: text(row.target),
        result: text(row.result) ?? "",
        details: text(row.details)
      }))
    ),
    Effect.orElseSucceed(() => Option.none())
  )
