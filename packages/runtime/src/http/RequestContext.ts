/**
 * Facts the host established about the current request before the handler
 * runs: its id and the client IP (after the TRUST_PROXY rule). Handlers read
 * them here instead of re-deriving them from headers.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"

export interface RequestFacts {
  readonly requestId: string
  /** The client IP the rate limits and lockouts use. */
  readonly clientIp: string
}

/** One per process, however many copies of this module are loaded (see `currentPrincipalRef`). */
export const currentRequestRef: FiberRef.FiberRef<Option.Option<RequestFacts>> = globalValue(
  Symbol.for("@garrison/runtime/currentRequestRef"),
  () => FiberRef.unsafeMake(Option.none<RequestFacts>())
)

/** The current request's facts; `None` outside an HTTP request (jobs, embedding). */
export const CurrentRequest: Effect.Effect<Option.Option<RequestFacts>> = FiberRef.get(currentRequestRef)
