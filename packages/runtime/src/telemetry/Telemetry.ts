/**
 * What the controller tells an exporter about itself, without knowing any
 * exporter: a kernel-owned seam, like `AuditTrail`, so the plugins and the
 * host depend on the runtime and never on the plugin that serves metrics
 * (the prometheus plugin).
 *
 * - Pushed, as plain function calls: each answered request (the host's front
 *   door calls `requestAnswered` once per request that reached it) and each
 *   failed call to a game server (RCON, the agent: `failed`). With no
 *   observer attached each is one loop over an empty array; an observer must
 *   be as cheap (no fiber, no I/O: count and return).
 * - Pulled at scrape time: gauges a plugin registers (`registerGauge`) over
 *   what it owns (the servers by status, the webhook queue's depth), read
 *   only when an exporter asks (`gauges`).
 *
 * One per runtime (`Runtime.layer` provides a fresh one), so many
 * controllers in one process (tests) never share counts. Code built outside
 * a runtime (an actor in a runtime test) sees the default, which drops
 * everything.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"

/** Where a failed call to a game server went. */
export type FailureSource = "rcon" | "agent"

/** Why an RCON call failed: the server did not answer in time, refused the password, or the socket failed or closed. */
export type RconFailureKind = "timeout" | "login-refused" | "socket-error"

export interface TelemetryObserver {
  /**
   * One answered request: its method, the route's template path
   * (`/api/servers/:id`, never the raw path), the status sent (499: the
   * client left first) and how long it took in milliseconds.
   */
  readonly requestAnswered?: (method: string, route: string, status: number, milliseconds: number) => void
  /** One failed call to a game server: by whom (`rcon`, `agent`), on which server, and of what kind. */
  readonly failed?: (source: FailureSource, serverId: string, kind: string) => void
}

export interface GaugeSample {
  /** A value for each of the gauge's `labelNames`. */
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface TelemetryGauge {
  /** Lower-case words joined by `_`, without a prefix (the exporter adds its own): `servers`, `players_online`. */
  readonly name: string
  readonly help: string
  readonly labelNames: ReadonlyArray<string>
  /** Read at scrape time: from memory, or one cheap query. A failure leaves the gauge out of that scrape. */
  readonly collect: Effect.Effect<ReadonlyArray<GaugeSample>, unknown>
}

export interface TelemetryShape {
  readonly requestAnswered: (method: string, route: string, status: number, milliseconds: number) => void
  readonly failed: (source: FailureSource, serverId: string, kind: string) => void
  /** Attaches an observer until the scope closes. */
  readonly observe: (observer: TelemetryObserver) => Effect.Effect<void, never, Scope.Scope>
  /** Registers a gauge until the scope closes. */
  readonly registerGauge: (gauge: TelemetryGauge) => Effect.Effect<void, never, Scope.Scope>
  /** The gauges registered now, in registration order. */
  readonly gauges: () => ReadonlyArray<TelemetryGauge>
}

export const makeTelemetry = (): TelemetryShape => {
  // Arrays replaced on change, never mutated: a call in progress keeps looping over the one it read.
  let requestObservers: ReadonlyArray<NonNullable<TelemetryObserver["requestAnswered"]>> = []
  let failureObservers: ReadonlyArray<NonNullable<TelemetryObserver["failed"]>> = []
  let gauges: ReadonlyArray<TelemetryGauge> = []
  const without = <A>(items: ReadonlyArray<A>, item: A | undefined) => items.filter((x) => x !== item)
  return {
    requestAnswered: (method, route, status, milliseconds) => {
      for (let i = 0; i < requestObservers.length; i++) requestObservers[i]!(method, route, status, milliseconds)
    },
    failed: (source, serverId, kind) => {
      for (let i = 0; i < failureObservers.length; i++) failureObservers[i]!(source, serverId, kind)
    },
    observe: (observer) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          if (observer.requestAnswered !== undefined) requestObservers = [...requestObservers, observer.requestAnswered]
          if (observer.failed !== undefined) failureObservers = [...failureObservers, observer.failed]
        }),
        () =>
          Effect.sync(() => {
            requestObservers = without(requestObservers, observer.requestAnswered)
            failureObservers = without(failureObservers, observer.failed)
          })
      ),
    registerGauge: (gauge) =>
      Effect.acquireRelease(
        Effect.sync(() => void (gauges = [...gauges, gauge])),
        () => Effect.sync(() => void (gauges = without(gauges, gauge)))
      ),
    gauges: () => gauges
  }
}

/** Drops everything: what code built outside a runtime sees. */
const inert: TelemetryShape = {
  requestAnswered: () => {},
  failed: () => {},
  observe: () => Effect.void,
  registerGauge: () => Effect.void,
  gauges: () => []
}

export class Telemetry extends Context.Reference<Telemetry>()("@garrison/runtime/Telemetry", {
  defaultValue: (): TelemetryShape => inert
}) {
  /** A fresh one: `Runtime.layer` provides it, one per runtime. */
  static readonly layer = Layer.sync(Telemetry, makeTelemetry)
}
