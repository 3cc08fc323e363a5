/**
 * Lists and exports at the cost of the data. Rows read back from our own
 * database were checked on their way in, so a list does not decode them
 * into classes and encode them again, field by field, for every request:
 * SQLite writes each row's JSON (`json_object`, from `jsonObjectSql`), and
 * the response is those texts joined. A page is one string
 * (`jsonPageResponse`); an export streams chunk by chunk (`jsonArrayResponse`
 * over `keysetChunks`), each chunk one keyset query, so a large export
 * neither builds one huge string nor holds the event loop while it is sent:
 * between chunks it lets every other request go first.
 *
 * The endpoint still declares its schema (the OpenAPI document and typed
 * clients read it); the list's tests hold the JSON to it. `json_object` is
 * SQLite's; a PostgreSQL store would write `json_build_object` instead.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { createHash } from "node:crypto"
import { Readable } from "node:stream"
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

const encoder = new TextEncoder()

/** Waits for the event loop to turn once: pending I/O (a ping, another client's request) runs first. */
const eventLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * A table chunk by chunk: each call starts a pass, and each run of the
 * effect it returns answers the pass's next chunk, or `null` once there is
 * none.
 */
export type JsonChunks<E, R> = () => Effect.Effect<ReadonlyArray<JsonRow> | null, E, R>

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
}): JsonChunks<E, R> =>
() => {
  let after: Position | undefined
  let done = false
  return Effect.suspend(() =>
    done
      ? Effect.succeed(null)
      : Effect.map(options.read(after, options.size), (rows) => {
        const last = rows[rows.length - 1]
        if (rows.length < options.size || last === undefined) done = true
        else after = options.positionOf(last)
        return rows
      })
  )
}

/** What a streamed array's texts are handed to once the last is sent; `accept` false stops collecting. */
interface Collector {
  readonly accept: (text: string) => boolean
  readonly complete: () => void
}

/**
 * A JSON array streamed from chunks of JSON rows, as a 200 response with
 * `headers` (a `content-disposition` for a download, say). Written straight
 * to the socket through a Node stream: the next chunk is read only when the
 * client has taken the last (backpressure), and only after the event loop
 * has turned once, so concurrent exports take turns with each other and
 * with every other request instead of holding the loop for their whole
 * length (Effect's own yields go through microtasks, which run before any
 * I/O). A failure after the first bytes is logged and ends the connection
 * (the status is sent by then), so the client sees a truncated download,
 * never a well-formed partial one. A client that leaves stops the reading.
 */
export const jsonArrayResponse = <E, R>(
  chunks: JsonChunks<E, R>,
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> => streamed(chunks, headers, undefined)

const streamed = <E, R>(
  chunks: JsonChunks<E, R>,
  headers: Readonly<Record<string, string>>,
  collector: Collector | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.map(Effect.runtime<R>(), (runtime) => {
    const run = Runtime.runPromiseExit(runtime)
    let collecting = collector !== undefined
    const sent = (text: string) => {
      if (collecting) collecting = collector!.accept(text)
      return text
    }
    async function* body() {
      const pull = chunks()
      yield sent("[")
      for (let first = true; ;) {
        const exit = await run(pull)
        if (Exit.isFailure(exit)) {
          await run(Effect.logError("a streamed JSON array failed after it began; the client gets a truncated body", Cause.pretty(exit.cause)))
          throw new Error("the streamed JSON array failed; see the log")
        }
        if (exit.value === null) break
        if (exit.value.length > 0) {
          yield sent(first ? joined(exit.value) : "," + joined(exit.value))
          first = false
        }
        await eventLoopTurn()
      }
      yield sent("]")
      if (collecting) collector!.complete()
    }
    return HttpServerResponse.raw(Readable.from(body()), { contentType: "application/json", headers })
  })

/** `W/"<hash>"` of a body: what conditional GETs compare. */
export const etagOf = (body: Uint8Array): string => `W/"${createHash("sha1").update(body).digest("base64url")}"`

/**
 * A JSON array kept in memory while its table is unchanged: `respond`
 * answers from memory when `version` (a count the table's writes move on)
 * is the one the kept array was read at, and otherwise streams it as
 * `jsonArrayResponse` does, keeping what it sent when it was no larger than
 * `maxChars` and the version did not move while it was read (chunks are
 * separate queries, so only then is it one state of the table). A kept
 * array is sent with its ETag, worked out once.
 */
export interface JsonArrayCache {
  readonly respond: <E, R>(
    version: () => number,
    chunks: JsonChunks<E, R>,
    headers?: Readonly<Record<string, string>>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
}

export const makeJsonArrayCache = (options: { readonly maxChars: number }): JsonArrayCache => {
  let kept: { readonly version: number; readonly body: Uint8Array; readonly etag: string } | undefined
  return {
    respond: (version, chunks, headers = {}) =>
      Effect.suspend(() => {
        const at = version()
        if (kept !== undefined && kept.version === at) {
          return Effect.succeed(
            HttpServerResponse.uint8Array(kept.body, { contentType: "application/json", headers: { ...headers, etag: kept.etag } })
          )
        }
        const texts: Array<string> = []
        let chars = 0
        return streamed(chunks, headers, {
          accept: (text) => {
            chars += text.length
            texts.push(text)
            if (chars <= options.maxChars && version() === at) return true
            texts.length = 0
            return false
          },
          complete: () => {
            if (version() !== at) return
            const body = encoder.encode(texts.join(""))
            kept = { version: at, body, etag: etagOf(body) }
          }
        })
      })
  }
}
