/**
 * The mirrored servers: each as the relay sees it, and the admin changes
 * that add, drop or resend one (told to the relay when connected). A
 * server's status change goes out as `server.status`; a deleted server is
 * no longer mirrored.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { type AuditActor, uptimeSeconds } from "@garrison/runtime"
import type { ServerLookupError } from "../../servers/index.js"
import type { CloudStatus } from "../contract/Api.js"
import type { MirroredServer } from "../contract/Protocol.js"
import { type CloudStoreError, NotMirrored, storeError } from "../errors.js"
import { audited, type CloudContext, isMirrored, sendNow } from "./linkState.js"
import { deleteMirrored, insertMirrored } from "./store.js"

/** A server as the relay sees it; none when its entry is gone or unreadable. */
export const mirrorOf = (ctx: CloudContext, serverId: string): Effect.Effect<Option.Option<MirroredServer>> =>
  Effect.gen(function* () {
    const entry = yield* Effect.option(ctx.servers.entry(serverId))
    if (Option.isNone(entry)) return Option.none()
    // Only servers with an actor have live state; mirroring must not create actors.
    const handle = (yield* ctx.servers.supervised).find((h) => h.id === serverId)
    const state = handle === undefined ? undefined : yield* handle.state
    const now = yield* Clock.currentTimeMillis
    return Option.some({
      id: serverId,
      name: entry.value.name,
      status: state?.status ?? "stopped",
      players: state?.players.length ?? 0,
      map: state?.map ?? null,
      version: state?.version ?? null,
      locked: state?.locked ?? false,
      uptimeSeconds: state === undefined ? 0 : uptimeSeconds(state, now)
    })
  })

/** Every mirrored server as the relay sees it (the list sent after `welcome`). */
export const mirrorList = (ctx: CloudContext) =>
  Effect.flatMap(Ref.get(ctx.mirrored), (list) =>
    Effect.map(Effect.forEach(list, (m) => mirrorOf(ctx, m.serverId)), (found) => found.flatMap((m) => (Option.isSome(m) ? [m.value] : [])))
  )

export const makeMirroredServers = (ctx: CloudContext, status: Effect.Effect<CloudStatus>) => {
  const { sql, lock } = ctx

  const connect = (serverId: string, by: AuditActor): Effect.Effect<CloudStatus, ServerLookupError | CloudStoreError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        const entry = yield* ctx.servers.entry(serverId)
        if (!(yield* isMirrored(ctx, serverId))) {
          const now = yield* Clock.currentTimeMillis
          yield* Effect.zipRight(
            insertMirrored(sql, serverId, now, by.id),
            audited(ctx, by, "cloud.server.connect", serverId, { name: entry.name })
          ).pipe(sql.withTransaction, Effect.mapError(storeError("mirror a server")))
          yield* Ref.update(ctx.mirrored, (list) => [...list, { serverId, connectedAt: now }])
          const server = yield* mirrorOf(ctx, serverId)
          if (Option.isSome(server)) yield* sendNow(ctx, { type: "server.connected", server: server.value })
        }
        return yield* status
      })
    )

  const forget = (serverId: string, by: AuditActor | null, reason: string) =>
    Effect.gen(function* () {
      yield* Effect.zipRight(
        deleteMirrored(sql, serverId),
        audited(ctx, by, "cloud.server.disconnect", serverId, by === null ? { reason } : {})
      ).pipe(sql.withTransaction, Effect.mapError(storeError("stop mirroring a server")))
      yield* Ref.update(ctx.mirrored, (list) => list.filter((m) => m.serverId !== serverId))
      yield* sendNow(ctx, { type: "server.disconnected", serverId })
    })

  const notMirrored = (serverId: string) => new NotMirrored({ serverId, message: `server ${serverId} is not connected to the cloud` })

  const disconnect = (serverId: string, by: AuditActor): Effect.Effect<CloudStatus, NotMirrored | CloudStoreError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        if (!(yield* isMirrored(ctx, serverId))) return yield* notMirrored(serverId)
        yield* forget(serverId, by, "disconnect")
        return yield* status
      })
    )

  const reconnect = (serverId: string, by: AuditActor): Effect.Effect<CloudStatus, NotMirrored | CloudStoreError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        if (!(yield* isMirrored(ctx, serverId))) return yield* notMirrored(serverId)
        yield* audited(ctx, by, "cloud.server.reconnect", serverId, {})
        yield* sendNow(ctx, { type: "server.disconnected", serverId })
        const server = yield* mirrorOf(ctx, serverId)
        if (Option.isSome(server)) yield* sendNow(ctx, { type: "server.connected", server: server.value })
        // A link waiting out its backoff tries now.
        if ((yield* Ref.get(ctx.runtime)).state === "backing-off") yield* Deferred.succeed(yield* Ref.get(ctx.wake), undefined)
        return yield* status
      })
    )

  const serverChanged = (serverId: string): Effect.Effect<void> =>
    Effect.gen(function* () {
      if (!(yield* isMirrored(ctx, serverId)) || Option.isNone(yield* Ref.get(ctx.sender))) return
      const server = yield* mirrorOf(ctx, serverId)
      if (Option.isSome(server)) yield* sendNow(ctx, { type: "server.status", server: server.value })
    })

  const serverDeleted = (serverId: string): Effect.Effect<void> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        if (yield* isMirrored(ctx, serverId)) yield* Effect.ignoreLogged(forget(serverId, null, "server deleted"))
      })
    )

  return { connect, disconnect, reconnect, serverChanged, serverDeleted }
}
