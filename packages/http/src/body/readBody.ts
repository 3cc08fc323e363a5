/**
 * A request body's bytes, read straight from Node's request: chunks kept in
 * a list and joined once (the platform's byte reader copies the whole
 * buffer on every chunk, quadratic for a 20 MB import), a size limit for
 * bodies without Content-Length, and a client that goes away told apart
 * from one that sent too much.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { IncomingMessage } from "node:http"

export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", { limit: Schema.Number }) {}

/** The connection closed before the body ended: the client aborted (or the network failed). */
export class BodyAborted extends Schema.TaggedError<BodyAborted>()("BodyAborted", {}) {}

export const readBodyBytes = (incoming: IncomingMessage, limit: number): Effect.Effect<Buffer, BodyTooLarge | BodyAborted> =>
  Effect.async((resume) => {
    if (incoming.destroyed) return resume(Effect.fail(new BodyAborted()))
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        stop()
        // Read no more; the 413 goes out on a connection that then closes.
        incoming.pause()
        resume(Effect.fail(new BodyTooLarge({ limit })))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(Buffer.concat(chunks, size)))
    }
    // Node emits `error` (ECONNRESET "aborted") only to listeners, then `close`; either means gone.
    const onGone = () => {
      stop()
      resume(Effect.fail(new BodyAborted()))
    }
    const stop = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onGone)
      incoming.off("close", onGone)
    }
    incoming.on("data", onData)
    incoming.on("end", onEnd)
    incoming.on("error", onGone)
    incoming.on("close", onGone)
    return Effect.sync(stop)
  })
