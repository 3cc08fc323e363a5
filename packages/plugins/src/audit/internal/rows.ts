/** Rows as stored, and their API form: decoded (`toAuditRow`), or as JSON written by SQLite (`JSON_COLUMNS`). */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { jsonObjectSql } from "@garrison/runtime"
import { AuditRow } from "../contract/Api.js"
import type { ChainedFields } from "./chain.js"

export interface StoredRow {
  readonly seq: number | string
  readonly at: string
  readonly actor: string | null
  readonly actor_name: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: string | null
  readonly hash_version: number | string
  readonly prev_hash: string
  readonly hash: string
}

export const COLUMNS = "seq, at, actor, actor_name, ip, action, target, result, details, hash_version, prev_hash, hash"

/**
 * `hash_version` as a number: an integer (PostgreSQL may give it as digits),
 * or 0, no version at all, for one edited into something else.
 */
export const versionOf = (stored: unknown): number =>
  typeof stored === "number"
    ? (Number.isFinite(stored) ? stored : 0)
    : typeof stored === "string" && /^[0-9]{1,15}$/.test(stored)
      ? Number(stored)
      : 0

export const chainedFields = (row: Omit<StoredRow, "hash">): ChainedFields => ({
  version: versionOf(row.hash_version),
  prevHash: row.prev_hash,
  at: row.at,
  actor: row.actor,
  actorName: row.actor_name,
  ip: row.ip,
  action: row.action,
  target: row.target,
  result: row.result,
  details: row.details
})

const decodeDetails = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

/** Total: a row edited into nonsense is still listed (verify reports it), never a 500. */
export const toAuditRow = (row: StoredRow): AuditRow =>
  new AuditRow({
    id: String(row.seq),
    at: row.at,
    actor: row.actor,
    actorName: row.actor_name,
    ip: row.ip,
    action: row.action,
    target: row.target,
    result: row.result,
    details: row.details === null
      ? null
      : Option.getOrElse(decodeDetails(row.details), () => ({ unreadable: row.details })),
    hashVersion: versionOf(row.hash_version),
    prevHash: row.prev_hash,
    hash: row.hash
  })

/** The row's JSON, `details` written by the given SQL: the `AuditRow` schema's fields in its order. */
const rowJson = (details: string) =>
  jsonObjectSql({
    id: "CAST(seq AS TEXT)",
    at: "at",
    actor: "actor",
    actorName: "actor_name",
    ip: "ip",
    action: "action",
    target: "target",
    result: "result",
    details,
    hashVersion: "hash_version",
    prevHash: "prev_hash",
    hash: "hash"
  })

const UNREADABLE = rowJson("json_object('unreadable', details)")

/** An integer `-0`: `-0` before what can end a number (`,`, `}`, `]`, JSON whitespace); instr is far cheaper than GLOB. */
const INTEGER_NEGATIVE_ZERO = `(instr(details, '-0') > 0 AND (${[`','`, `'}'`, `']'`, `' '`, "char(9)", "char(10)", "char(13)"]
  .map((after) => `instr(details, '-0' || ${after}) > 0`)
  .join(" OR ")}))`

/**
 * `toAuditRow` in SQL, and `seq` again for the keyset. `details` null stays
 * null; a JSON object that reads back as it is goes in with `json()`;
 * anything `toAuditRow` cannot read as an object is `{unreadable: text}`.
 * Where SQLite and JavaScript may read the text apart, `json` is null and
 * the row is read again the decoded way ("odd"):
 *
 * - A blob (the decoded list wraps its bytes).
 * - Raw NUL: never JSON to `JSON.parse`, but `json_valid` stops reading at it.
 * - Invalid for SQLite but longer than 2,000 bytes: may be valid JSON nested
 *   deeper than SQLite's 1,000 levels.
 * - A `__proto__` key (escaped too: SQLite compares keys unescaped): the
 *   decoded record drops it.
 * - Numbers JavaScript writes otherwise: a negative zero (`-0`, `-0.0`, a
 *   negative value too small for a double), which `JSON.stringify` writes
 *   `0`, and a value beyond a double, written `null`. The tree walk finds
 *   reals within 1e-300 of zero and anything from 1e308 on (margins, as the
 *   two parsers may round apart at a double's ends); an integer `-0` reads
 *   as 0 there, so the text shows it.
 * - A `hash_version` edited into anything but an integer a double holds
 *   exactly (`toAuditRow` reads text as 0).
 *
 * What `append` writes is odd only at those margins (or with a `__proto__`
 * key); everything else odd was edited in the database.
 */
export const JSON_COLUMNS = `CASE
    WHEN typeof(hash_version) <> 'integer' OR hash_version NOT BETWEEN 0 AND 9007199254740991 THEN NULL
    WHEN details IS NULL THEN ${rowJson("NULL")}
    WHEN typeof(details) <> 'text' THEN NULL
    WHEN instr(details, char(0)) > 0 THEN ${UNREADABLE}
    WHEN NOT json_valid(details) THEN CASE WHEN length(CAST(details AS BLOB)) <= 2000 THEN ${UNREADABLE} END
    WHEN json_type(details) <> 'object' THEN ${UNREADABLE}
    WHEN json_type(details, '$."__proto__"') IS NOT NULL OR ${INTEGER_NEGATIVE_ZERO}
      OR EXISTS (SELECT 1 FROM json_tree(details)
        WHERE type IN ('integer', 'real') AND (abs(atom) >= 1e308 OR (type = 'real' AND abs(atom) < 1e-300))) THEN NULL
    ELSE ${rowJson("json(details)")}
  END AS json, seq`

/** A row as the list reads it: its JSON, written by SQLite (null when odd: see `JSON_COLUMNS`), and its position. */
export interface AuditJsonRow {
  readonly json: string | null
  readonly seq: number | string
}

const encodeRow = Schema.encodeSync(AuditRow)

/** Rows read the decoded way, as the endpoint's schema encodes them: the odd rows of a JSON page. */
export const decodedJson = (rows: ReadonlyArray<StoredRow>): Map<number, string> =>
  new Map(rows.map((row) => [Number(row.seq), JSON.stringify(encodeRow(toAuditRow(row)))]))
