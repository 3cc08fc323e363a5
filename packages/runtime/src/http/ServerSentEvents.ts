/**
 * A Server-Sent Events answer (`text/event-stream`): each value of a stream
 * as one event, `event: <name>` and its JSON on one `data:` line. The
 * stream's end ends the answer. Proxies are asked not to buffer it
 * (`X-Accel-Buffering: no`), and it is never cached.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Stream from "effect/Stream"

const encoder = new TextEncoder()

/** One event; `data` is JSON-encoded (so it is one line). */
export const sseEvent = (event: string, data: unknown): Uint8Array => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)

export const serverSentEvents = <A>(values: Stream.Stream<A>, event: string, encode: (value: A) => unknown): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.stream(
    Stream.map(values, (value) => sseEvent(event, encode(value))),
    { contentType: "text/event-stream", headers: { "cache-control": "no-store", "x-accel-buffering": "no" } }
  )
