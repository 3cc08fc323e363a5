/**
 * Lists and exports at the cost of the data. Rows read back from our own
 * database were checked on their way in, so a list does not decode them
 * into classes and encode them again, field by field, for every request:
 * SQLite writes each row's JSON (`json_object`, from `jsonObjectSql`), and
 * the response is those texts joined. A page is one string
 * (`jsonPageResponse`); an export streams chunk by chunk (`jsonArrayResponse`
 * over `keysetChunks`), each chunk one keyset query, so a large export
 * neither builds one huge string nor holds the event loop while it is sent.
 *
 * The endpoint still declares its schema (the OpenAPI document and typed
 * clients read it); the list's tests hold the JSON to it. `json_object` is
 * SQLite's; a PostgreSQL store would write `json_build_object` instead.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { PageOf } from "./Page.js"

/** A row as the list reads it: its JSON text (alias `json` in the query), plus whatever the sort key needs. */
export interface JsonRow {
  readonly json: string
}

/**
 * `json_object('id', id, 'platformId', platform_id, ...)` for `fields`
 * (JSON field name to SQL expression). Both come from code, never from
 * input: they are written into the SQL as they are.
 */
export const jsonObjectSql = (fields: Readonly<Record<string, string>>): string =>
  `json_object(${Object.entries(fields)
    .map(([name, expression]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`jsonObjectSql: "${name}" is not a plain field name`)
      return `'${name}', ${expression}`
    })
    .join(", ")})`

const joined = (rows: ReadonlyArray<JsonRow>): string => {
  let text = ""
  for (let i = 0; i < rows.length; i++) text += i === 0 ? rows[i]!.json : "," + rows[i]!.json
  return text
}

/**
 * The list envelope `{"items": [...], "nextCursor": ...}` (and `extra`
 * fields, `total` say) as a 200 response, from a page of JSON rows.
 */
export const jsonPageResponse = (page: PageOf<JsonRow>, extra: Readonly<Record<string, unknown>> = {}): HttpServerResponse.HttpServerResponse => {
  let text = `{"items":[${joined(page.items)}],"nextCursor":${JSON.stringify(page.nextCursor)}`
  for (const [name, value] of Object.entries(extra)) text += `,${JSON.stringify(name)}:${JSON.stringify(value)}`
  return HttpServerResponse.text(text + "}", { contentType: "application/json" })
}

/**
 * Chunks of a table in a keyset's order, one query each: `read(after, size)`
 * answers up to `size` rows after the position (from the start when
 * undefined); the next chunk starts after the last row's position, and a
 * short chunk is the last.
 */
export const keysetChunks = <Row extends JsonRow, Position, E, R>(options: {
  readonly size: number
  readonly read: (after: Position | undefined, size: number) => Effect.Effect<ReadonlyArray<Row>, E, R>
  readonly positionOf: (row: Row) => Position
}): Stream.Stream<ReadonlyArray<Row>, E, R> =>
  Stream.paginateEffect(undefined as Position | undefined, (after) =>
    Effect.map(options.read(after, options.size), (rows) => {
      const last = rows[rows.length - 1]
      const next = rows.length < options.size || last === undefined ? Option.none() : Option.some<Position | undefined>(options.positionOf(last))
      return [rows, next] as const
    })
  )

const encoder = new TextEncoder()

/**
 * A JSON array streamed from chunks of JSON rows, as a 200 response with
 * `headers` (a `content-disposition` for a download, say). A failure after
 * the first bytes ends the connection (the status is sent by then), so the
 * client sees a truncated download, never a well-formed partial one.
 */
export const jsonArrayResponse = <E, R>(
  chunks: Stream.Stream<ReadonlyArray<JsonRow>, E, R>,
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    const body = Stream.make("[").pipe(
      Stream.concat(
        chunks.pipe(
          Stream.filter((rows) => rows.length > 0),
          Stream.mapAccum(true, (first, rows): readonly [boolean, string] => [false, first ? joined(rows) : "," + joined(rows)])
        )
      ),
      Stream.concat(Stream.make("]")),
      Stream.map((text) => encoder.encode(text)),
      Stream.provideContext(context)
    )
    return HttpServerResponse.stream(body, { contentType: "application/json", headers })
  })
