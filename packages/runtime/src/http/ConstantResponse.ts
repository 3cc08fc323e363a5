/**
 * An endpoint whose answer never changes (a liveness ping) can declare it;
 * the host then answers from its front door without entering a fiber, which
 * keeps health checks cheap under load. The endpoint's handler must return
 * the same value, for in-process callers. Only `Access.none` endpoints may
 * declare one (the front door does not authenticate).
 *
 *   HttpApiEndpoint.get("ping", "/api/health/ping")
 *     .annotate(Access, Access.none)
 *     .annotate(ConstantResponse, { status: 200, body: { status: "ok" } })
 */
import * as Context from "effect/Context"

export interface ConstantResponseValue {
  readonly status: number
  readonly body: unknown
}

export class ConstantResponse extends Context.Tag("@garrison/runtime/ConstantResponse")<
  ConstantResponse,
  ConstantResponseValue
>() {}
