/**
 * Server-sent events: the live console as `data: <json>\n\n` frames, with a
 * comment every 15 s so proxies and browsers keep an idle stream open. The
 * stream ends when the server's entry is deleted. It subscribes to the bus
 * before its first byte, so a client that has read the first heartbeat
 * misses no line published after it (and tests know when to publish).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ConsoleLine, EventBus, ServerDeleted } from "@garrison/runtime"

export const HEARTBEAT = "15 seconds"
/** Lines waiting for a slow client; past it the oldest go (a console view, not a record). */
const CLIENT_BUFFER = 1000

const encoder = new TextEncoder()

export const frame = (line: ConsoleLine): string =>
  `data: ${JSON.stringify({ at: new Date(line.at).toISOString(), text: line.text })}\n\n`

/** True when the caller asked for a stream (`?stream=1` or `Accept: text/event-stream`). */
export const wantsStream = (accept: string | undefined, streamParam: string | undefined): boolean =>
  streamParam !== undefined || (accept ?? "").toLowerCase().includes("text/event-stream")

/**
 * The frames of one server's console. It ends (the response completes) when
 * `deleted` emits a `ServerDeleted` for this server.
 */
export const consoleStream = (
  serverId: string,
  lines: Stream.Stream<ConsoleLine>,
  deleted: Stream.Stream<ServerDeleted> = Stream.never
) => {
  const data = lines.pipe(
    Stream.filter((line) => line.serverId === serverId),
    Stream.buffer({ capacity: CLIENT_BUFFER, strategy: "sliding" }),
    Stream.map(frame)
  )
  // `tick` emits at once, which doubles as the first byte that tells the client the stream is open
  // (and, with `lines` and `deleted` subscribed already, that it hears).
  const heartbeat = Stream.tick(HEARTBEAT).pipe(Stream.map(() => ": heartbeat\n\n"))
  const gone = deleted.pipe(
    Stream.filter((event) => event.serverId === serverId),
    Stream.take(1),
    Stream.runDrain
  )
  return Stream.merge(data, heartbeat).pipe(
    Stream.interruptWhen(gone),
    Stream.map((text) => encoder.encode(text))
  )
}

export const consoleResponse = (serverId: string) =>
  Effect.map(EventBus, (bus) =>
    HttpServerResponse.stream(
      // Subscribed when the body starts, before its first heartbeat; unsubscribed when it ends.
      Stream.unwrapScoped(
        Effect.zipWith(bus.subscribe(ConsoleLine), bus.subscribe(ServerDeleted), (lines, deleted) =>
          consoleStream(serverId, lines, deleted)
        )
      ),
      {
        contentType: "text/event-stream",
        headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
      }
    )
  )
