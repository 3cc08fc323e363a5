/** Rows as stored, and their API form: decoded (`toAuditRow`), or as JSON written by the database (`jsonColumns`). */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type JsonSql, type JsonSqlValue, perDialect } from "@garrison/runtime"
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

/** The `details` a row lists: null, the object its text holds, or `{unreadable: text}` for anything else. */
const detailsOf = (details: string | null): AuditRow["details"] =>
  details === null ? null : Option.getOrElse(decodeDetails(details), () => ({ unreadable: details }))

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
    details: detailsOf(row.details),
    hashVersion: versionOf(row.hash_version),
    prevHash: row.prev_hash,
    hash: row.hash
  })

/** The row's JSON, `details` written by the given SQL: the `AuditRow` schema's fields in its order. */
const rowJson = (json: JsonSql, details: JsonSqlValue) =>
  json.text(json.object({
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
  }))

/** An integer `-0`: `-0` before what can end a number (`,`, `}`, `]`, JSON whitespace); instr is far cheaper than GLOB. */
const INTEGER_NEGATIVE_ZERO = `(instr(details, '-0') > 0 AND (${[`','`, `'}'`, `']'`, `' '`, "char(9)", "char(10)", "char(13)"]
  .map((after) => `instr(details, '-0' || ${after}) > 0`)
  .join(" OR ")}))`

/**
 * SQLite: `toAuditRow` in SQL. `details` null stays null; a JSON object
 * that reads back as it is goes in with `json()`; anything `toAuditRow`
 * cannot read as an object is `{unreadable: text}`. Where SQLite and
 * JavaScript may read the text apart, `json` is null and the row is read
 * again the decoded way ("odd"):
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
const sqliteColumns = (json: JsonSql) => {
  const unreadable = rowJson(json, json.object({ unreadable: "details" }))
  return `CASE
    WHEN typeof(hash_version) <> 'integer' OR hash_version NOT BETWEEN 0 AND 9007199254740991 THEN NULL
    WHEN details IS NULL THEN ${rowJson(json, json.null)}
    WHEN typeof(details) <> 'text' THEN NULL
    WHEN instr(details, char(0)) > 0 THEN ${unreadable}
    WHEN NOT json_valid(details) THEN CASE WHEN length(CAST(details AS BLOB)) <= 2000 THEN ${unreadable} END
    WHEN json_type(details) <> 'object' THEN ${unreadable}
    WHEN json_type(details, '$."__proto__"') IS NOT NULL OR ${INTEGER_NEGATIVE_ZERO}
      OR EXISTS (SELECT 1 FROM json_tree(details)
        WHERE type IN ('integer', 'real') AND (abs(atom) >= 1e308 OR (type = 'real' AND abs(atom) < 1e-300))) THEN NULL
    ELSE ${rowJson(json, json.parse("details"))}
  END AS json, seq`
}

/** The row's JSON before `details` (`{"id":...,"result":...}`) and after it (`{"hashVersion":...}`), as the database writes them. */
const pgColumns = (json: JsonSql) =>
  `${
    json.text(json.object({
      id: "CAST(seq AS TEXT)",
      at: "at",
      actor: "actor",
      actorName: "actor_name",
      ip: "ip",
      action: "action",
      target: "target",
      result: "result"
    }))
  } AS head, details, ${json.text(json.object({ hashVersion: "hash_version", prevHash: "prev_hash", hash: "hash" }))} AS tail, seq`

/**
 * `toAuditRow` in SQL for the client's dialect, and `seq` again for the
 * keyset. SQLite: the row's JSON (`AuditJsonRow`), null for a row to read
 * again the decoded way ("odd"). PostgreSQL (`AuditPgJsonRow`): the JSON
 * around `details`, and `details` as stored, which JavaScript writes
 * (`pgRowJson`). PostgreSQL 15 has no `json_valid` (nor `IS JSON`, which
 * is 16's), a cast of text that is not JSON fails the whole query, and
 * proving the text is what `JSON.stringify` writes with regular expressions
 * costs the server more than `JSON.parse` costs us; so there the details
 * are decoded as the decoded list decodes them (the same `detailsOf`), in
 * the same single statement, and every other field is the database's.
 */
export const jsonColumns = perDialect((json) => json.dialect === "pg" ? pgColumns(json) : sqliteColumns(json))

/** A row as the list reads it on SQLite: its JSON, written by the database (null when odd: see `jsonColumns`), and its position. */
export interface AuditJsonRow {
  readonly json: string | null
  readonly seq: number | string
}

/** A row as the list reads it on PostgreSQL: its JSON before and after `details`, `details` as stored, and its position. */
export interface AuditPgJsonRow {
  readonly head: string
  readonly details: string | null
  readonly tail: string
  readonly seq: number | string
}

const encodeDetails = Schema.encodeSync(AuditRow.fields.details)

/**
 * The row's JSON on PostgreSQL: `details` as the decoded row's field is
 * written (`JSON.stringify` of the same value, nested or alone), between
 * the database's two halves.
 */
export const pgRowJson = (row: AuditPgJsonRow): string =>
  `${row.head.slice(0, -1)},"details":${JSON.stringify(encodeDetails(detailsOf(row.details)))},${row.tail.slice(1)}`

const encodeRow = Schema.encodeSync(AuditRow)

/** Rows read the decoded way, as the endpoint's schema encodes them: the odd rows of a JSON page. */
export const decodedJson = (rows: ReadonlyArray<StoredRow>): Map<number, string> =>
  new Map(rows.map((row) => [Number(row.seq), JSON.stringify(encodeRow(toAuditRow(row)))]))
