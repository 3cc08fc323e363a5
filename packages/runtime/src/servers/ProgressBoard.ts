/**
 * The progress of long work per server (an update, a rollout), as its
 * status endpoint and its event stream show it: the latest status of each
 * server, every change streamed to whoever follows, until the work ends.
 * One board per kind of work; statuses live in memory (a controller
 * restart ends the work with its fibers).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"

export interface ProgressBoard<S> {
  /** The latest status, if the server ever had one. */
  readonly get: (serverId: string) => Effect.Effect<S | undefined>
  readonly put: (serverId: string, status: S) => Effect.Effect<void>
  /** Changes the latest status; nothing when there is none. */
  readonly update: (serverId: string, f: (status: S) => S) => Effect.Effect<void>
  /** `now`, then every change, until a status that is not running (included). */
  readonly follow: (serverId: string, now: S) => Stream.Stream<S>
  /** The first status that is not running, from now (at once when none runs). */
  readonly awaitEnd: (serverId: string) => Effect.Effect<S | undefined>
}

export const makeProgressBoard = <S>(isRunning: (status: S) => boolean): Effect.Effect<ProgressBoard<S>> =>
  Effect.map(SubscriptionRef.make<ReadonlyMap<string, S>>(new Map()), (statuses) => ({
    get: (serverId) => Effect.map(SubscriptionRef.get(statuses), (all) => all.get(serverId)),
    put: (serverId, status) => SubscriptionRef.update(statuses, (all) => new Map(all).set(serverId, status)),
    update: (serverId, f) =>
      SubscriptionRef.update(statuses, (all) => {
        const current = all.get(serverId)
        return current === undefined ? all : new Map(all).set(serverId, f(current))
      }),
    follow: (serverId, now) =>
      !isRunning(now)
        ? Stream.make(now)
        : statuses.changes.pipe(
            Stream.map((all) => all.get(serverId) ?? now),
            Stream.changes,
            Stream.takeUntil((status) => !isRunning(status))
          ),
    awaitEnd: (serverId) =>
      statuses.changes.pipe(
        Stream.map((all) => all.get(serverId)),
        Stream.filter((status) => status === undefined || !isRunning(status)),
        Stream.runHead,
        Effect.map(Option.getOrUndefined)
      )
  }))
