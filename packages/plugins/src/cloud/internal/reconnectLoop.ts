/**
 * The link's fiber while enabled: connect, and when the connection fails
 * or ends, wait a backoff (exponential, jittered, `Clock` based; a
 * reconnect cuts it short) and try again. Disabling interrupts it, which
 * closes the socket (1000).
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberHandle from "effect/FiberHandle"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Ref from "effect/Ref"
import { errorMessage } from "@garrison/runtime"
import { OPEN_TIMEOUT } from "../config.js"
import { reconnectDelay } from "./backoff.js"
import { makeConnectOnce } from "./connection.js"
import { type CloudContext, setRuntime } from "./linkState.js"

/** Why a connection failed or ended, for `lastError` and the log. */
const describeEnd = (ended: Either.Either<void, unknown>): string => {
  if (Either.isRight(ended)) return "the relay closed the connection"
  const error = ended.left as { readonly reason?: string; readonly code?: number; readonly closeReason?: string; readonly cause?: unknown }
  if (error.reason === "Close") {
    return `the relay closed the connection (${error.code}${error.closeReason ? `: ${error.closeReason.slice(0, 200)}` : ""})`
  }
  if (error.reason === "OpenTimeout") return `the relay did not accept the connection within ${Duration.format(OPEN_TIMEOUT)}`
  if (error.reason === "Open" || error.reason === "Read" || error.reason === "Write") {
    const cause = error.cause as { readonly message?: string; readonly error?: { readonly message?: string } } | undefined
    const detail = cause?.error?.message ?? cause?.message
    return `${error.reason === "Open" ? "could not connect to the relay" : "the connection to the relay failed"}${detail ? ` (${detail.slice(0, 200)})` : ""}`
  }
  return errorMessage(ended.left)
}

/** `start` runs the link's fiber when the link is enabled and a relay configured; `stop` interrupts it. */
export const makeLinkFiber = (ctx: CloudContext) => {
  const { settings } = ctx
  const connectOnce = makeConnectOnce(ctx)

  /** Connects, and after every failure or end waits the backoff and connects again; runs until interrupted. */
  const runLink = (url: string, token: string) =>
    Effect.gen(function* () {
      let failures = 0
      for (;;) {
        yield* setRuntime(ctx, { state: "connecting", attempt: failures + 1, nextAttemptAt: null })
        // A defect ends this attempt like a failure (and is logged), never the loop: the link keeps trying.
        const ended = yield* Effect.either(
          connectOnce(url, token, Effect.sync(() => void (failures = 0))).pipe(
            Effect.catchAllDefect((defect) => Effect.zipRight(Effect.logError("cloud: the link failed", defect), Effect.fail(defect)))
          )
        )
        failures++
        const reason = describeEnd(ended)
        const delay = reconnectDelay(failures, settings.reconnectBase, settings.reconnectMax, yield* Random.next)
        const now = yield* Clock.currentTimeMillis
        yield* setRuntime(ctx, { state: "backing-off", attempt: failures, nextAttemptAt: now + delay, lastError: reason })
        yield* Effect.logWarning(`cloud: ${reason}; next attempt in ${Duration.format(Duration.millis(delay))}`)
        const woken = yield* Ref.get(ctx.wake)
        yield* Effect.race(Effect.sleep(delay), Deferred.await(woken))
        yield* Ref.set(ctx.wake, yield* Deferred.make<void>())
      }
    })

  const start = Effect.gen(function* () {
    const enabled = yield* Ref.get(ctx.link)
    if (enabled === undefined || Option.isNone(settings.relayUrl)) return
    yield* FiberHandle.run(ctx.linkFiber)(runLink(settings.relayUrl.value, enabled.token))
  })
  const stop = Effect.gen(function* () {
    yield* FiberHandle.clear(ctx.linkFiber)
    yield* Ref.set(ctx.sender, Option.none())
    yield* setRuntime(ctx, { state: "disabled", attempt: 0, nextAttemptAt: null })
  })

  return { start, stop }
}
