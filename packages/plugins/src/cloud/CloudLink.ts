/**
 * `CloudLink`: one outbound WebSocket to the relay (`CLOUD_RELAY_URL`) that
 * mirrors the chosen servers' status and runs the remote actions the
 * link's role allows (see `internal/remote.ts`).
 *
 * The link runs as one fiber while enabled: connect, say `hello` with the
 * link token, wait for `welcome` (then `connected`: the server list goes
 * out, and every status change of a mirrored server after it), and when
 * the connection fails or ends, wait a backoff (exponential, jittered,
 * `Clock` based) and try again. Disabling interrupts it, which closes the
 * socket (1000). Remote actions run in fibers of their own, so a dropped
 * connection does not cut a restart short; their answers go out on the
 * connection open at the time, if any. Admin changes run one at a time.
 */
import * as Socket from "@effect/platform/Socket"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberHandle from "effect/FiberHandle"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import {
  ADMIN,
  type AuditActor,
  AuditTrail,
  errorMessage,
  GarrisonConfig,
  recordForRequest,
  SealedSecrets,
  type SealingKey,
  uptimeSeconds
} from "@garrison/runtime"
import { Roles } from "../accounts/index.js"
import { type ServerLookupError, Servers } from "../servers/index.js"
import { cloudSettings, displayRelay, MAX_INBOUND_BYTES, OPEN_TIMEOUT } from "./config.js"
import { CloudServer, CloudStatus, type LinkState } from "./contract/Api.js"
import { Inbound, type MirroredServer, type Outbound, PROTOCOL_VERSION } from "./contract/Protocol.js"
import { type CloudStoreError, LinkRoleRefused, NoRelay, NotMirrored, storeError } from "./errors.js"
import { reconnectDelay } from "./internal/backoff.js"
import { runRemoteAction } from "./internal/remote.js"

/** Seals the stored link token (AES-256-GCM). */
export const CLOUD_KEY = {
  name: "cloud-link-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the stored cloud link token (AES-256-GCM)",
    ifReplaced: "the stored link token becomes unreadable: enable the cloud link again"
  }
} as const satisfies SealingKey

/** How long the relay has to answer `hello` with `welcome` before the connection is dropped and tried again. */
export const WELCOME_TIMEOUT = Duration.seconds(30)

export interface CloudLinkShape {
  readonly status: Effect.Effect<CloudStatus>
  readonly enable: (
    input: { readonly token: string; readonly role: string },
    by: AuditActor
  ) => Effect.Effect<CloudStatus, NoRelay | LinkRoleRefused | CloudStoreError>
  readonly disable: (by: AuditActor) => Effect.Effect<CloudStatus, CloudStoreError>
  readonly connect: (serverId: string, by: AuditActor) => Effect.Effect<CloudStatus, ServerLookupError | CloudStoreError>
  readonly disconnect: (serverId: string, by: AuditActor) => Effect.Effect<CloudStatus, NotMirrored | CloudStoreError>
  readonly reconnect: (serverId: string, by: AuditActor) => Effect.Effect<CloudStatus, NotMirrored | CloudStoreError>
  /** A mirrored server's status changed (the servers' bus events): sent to the relay when connected. */
  readonly serverChanged: (serverId: string) => Effect.Effect<void>
  /** A server entry was deleted: no longer mirrored. */
  readonly serverDeleted: (serverId: string) => Effect.Effect<void>
}

interface Enabled {
  readonly token: string
  readonly role: string
  readonly enabledAt: number
}

interface Mirrored {
  readonly serverId: string
  readonly connectedAt: number
}

interface LinkRuntime {
  readonly state: LinkState
  readonly since: number | null
  readonly attempt: number
  readonly nextAttemptAt: number | null
  readonly lastError: string | null
  readonly lastConnectedAt: number | null
}

const iso = (ms: number) => new Date(ms).toISOString()
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
const decodeInbound = Schema.decodeUnknownEither(Inbound)

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

export class CloudLink extends Context.Tag("@garrison/plugins/cloud/CloudLink")<CloudLink, CloudLinkShape>() {
  static readonly layer = Layer.scoped(
    CloudLink,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* cloudSettings
      const { version } = yield* GarrisonConfig
      const servers = yield* Servers
      const roles = yield* Roles
      const audit = yield* AuditTrail
      const makeSocketOf = yield* Effect.provide(Socket.WebSocketConstructor, NodeSocket.layerWebSocketConstructor)

      const linkRows = yield* sql<{ link_token: string; role: string; enabled_at: string }>`SELECT link_token, role, enabled_at FROM cloud_link WHERE id = 1`.pipe(
        Effect.mapError(storeError("read the cloud link"))
      )
      const mirroredRows = yield* sql<{ server_id: string; connected_at: string }>`SELECT server_id, connected_at FROM cloud_servers ORDER BY connected_at, server_id`.pipe(
        Effect.mapError(storeError("read the mirrored servers"))
      )
      const box = yield* (yield* SealedSecrets).box(CLOUD_KEY, { sealedValuesExist: linkRows.length > 0, sealedWhat: "the cloud link token" })
      let initial: Enabled | undefined
      if (linkRows[0] !== undefined) {
        const token = box.open(linkRows[0].link_token, "cloud/link_token")
        if (Either.isRight(token)) initial = { token: token.right, role: linkRows[0].role, enabledAt: Date.parse(linkRows[0].enabled_at) }
        else yield* Effect.logError("cloud: the stored link token does not open (its key file changed?): enable the link again")
      }

      const link = yield* Ref.make<Enabled | undefined>(initial)
      const mirrored = yield* Ref.make<ReadonlyArray<Mirrored>>(
        mirroredRows.map((row) => ({ serverId: row.server_id, connectedAt: Date.parse(row.connected_at) }))
      )
      const runtime = yield* Ref.make<LinkRuntime>({ state: "disabled", since: null, attempt: 0, nextAttemptAt: null, lastError: null, lastConnectedAt: null })
      /** Sends on the connection that is open and welcomed now; nothing while there is none. */
      const sender = yield* Ref.make<Option.Option<(message: Outbound) => Effect.Effect<void>>>(Option.none())
      /** Completed by a reconnect to cut a backoff short. */
      const wake = yield* Ref.make(yield* Deferred.make<void>())
      const linkFiber = yield* FiberHandle.make<void, never>()
      const actions = yield* FiberSet.make<void, never>()
      const lock = yield* Effect.makeSemaphore(1)

      const setRuntime = (change: Partial<LinkRuntime>) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(runtime, (current) => ({ ...current, ...(change.state !== undefined && change.state !== current.state ? { since: now } : {}), ...change }))
        )
      const sendNow = (message: Outbound) => Effect.flatMap(Ref.get(sender), Option.match({ onNone: () => Effect.void, onSome: (send) => send(message) }))
      const isMirrored = (serverId: string) => Effect.map(Ref.get(mirrored), (list) => list.some((m) => m.serverId === serverId))

      /** A server as the relay sees it; none when its entry is gone or unreadable. */
      const mirrorOf = (serverId: string): Effect.Effect<Option.Option<MirroredServer>> =>
        Effect.gen(function* () {
          const entry = yield* Effect.option(servers.entry(serverId))
          if (Option.isNone(entry)) return Option.none()
          // Only servers with an actor have live state; mirroring must not create actors.
          const handle = (yield* servers.supervised).find((h) => h.id === serverId)
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
      const mirrorList = Effect.flatMap(Ref.get(mirrored), (list) =>
        Effect.map(Effect.forEach(list, (m) => mirrorOf(m.serverId)), (found) => found.flatMap((m) => (Option.isSome(m) ? [m.value] : [])))
      )

      const remoteDeps = {
        servers,
        audit,
        mirrored: isMirrored,
        role: Effect.flatMap(Ref.get(link), (enabled) =>
          enabled === undefined
            ? Effect.succeed(Option.none())
            : Effect.map(Effect.orElseSucceed(roles.get(enabled.role), () => Option.none()), (record) => Option.some({ name: enabled.role, record }))
        )
      }

      /** One connection, from open to close: fails (or ends) when it is over. */
      const connectOnce = (url: string, token: string, connected: Effect.Effect<void>) =>
        Effect.scoped(
          Effect.gen(function* () {
            let ws: globalThis.WebSocket | undefined
            const socket = yield* Socket.fromWebSocket(
              Effect.acquireRelease(
                Effect.try({
                  try: () => (ws = makeSocketOf(url)),
                  catch: (cause) => new Socket.SocketGenericError({ reason: "Open", cause })
                }),
                (opened) => Effect.sync(() => opened.close(1000))
              ),
              { openTimeout: OPEN_TIMEOUT, closeCodeIsError: () => true }
            )
            // Never waits: a message for a connection that is closing is dropped (the relay gets the state on its next `welcome`).
            const send = (message: Outbound) =>
              Effect.sync(() => {
                if (ws !== undefined && ws.readyState === 1) ws.send(JSON.stringify(message))
              })
            let welcomed = false
            const welcomeTimer = yield* FiberHandle.make<void, never>()
            yield* Effect.addFinalizer(() => Ref.set(sender, Option.none()))
            const onWelcome = Effect.gen(function* () {
              if (welcomed) return
              welcomed = true
              yield* FiberHandle.clear(welcomeTimer)
              yield* Ref.set(sender, Option.some(send))
              const now = yield* Clock.currentTimeMillis
              yield* setRuntime({ state: "connected", attempt: 0, nextAttemptAt: null, lastConnectedAt: now })
              yield* connected
              yield* send({ type: "servers", servers: yield* mirrorList })
              yield* Effect.logInfo(`cloud: connected to the relay ${displayRelay(url)}`)
            })
            const onMessage = (data: string | Uint8Array): Effect.Effect<void> => {
              const size = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength
              if (size > MAX_INBOUND_BYTES) return send({ type: "error", message: `messages are limited to ${MAX_INBOUND_BYTES} bytes` })
              let parsed: unknown
              try {
                parsed = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data))
              } catch {
                return send({ type: "error", message: "messages are JSON objects" })
              }
              const message = decodeInbound(parsed)
              if (Either.isLeft(message)) return send({ type: "error", message: "unknown message: expected welcome, ping or action" })
              switch (message.right.type) {
                case "welcome":
                  return onWelcome
                case "ping":
                  return send({ type: "pong" })
                case "action": {
                  const request = message.right
                  if (!welcomed) {
                    return send({ type: "action.result", id: request.id, ok: false, error: { code: "not-connected", message: "no action before welcome" } })
                  }
                  // In a fiber of its own: a connection that drops does not cut the action short.
                  return Effect.asVoid(FiberSet.run(actions, Effect.flatMap(runRemoteAction(remoteDeps, request), sendNow)))
                }
              }
            }
            yield* socket.runRaw(onMessage, {
              onOpen: Effect.gen(function* () {
                yield* send({ type: "hello", protocol: PROTOCOL_VERSION, token, controller: { version } })
                yield* FiberHandle.run(welcomeTimer)(
                  Effect.zipRight(
                    Effect.sleep(WELCOME_TIMEOUT),
                    Effect.sync(() => ws?.close(4000, "no welcome"))
                  )
                )
              })
            })
          })
        )

      /** Connects, and after every failure or end waits the backoff and connects again; runs until interrupted. */
      const runLink = (url: string, token: string) =>
        Effect.gen(function* () {
          let failures = 0
          for (;;) {
            yield* setRuntime({ state: "connecting", attempt: failures + 1, nextAttemptAt: null })
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
            yield* setRuntime({ state: "backing-off", attempt: failures, nextAttemptAt: now + delay, lastError: reason })
            yield* Effect.logWarning(`cloud: ${reason}; next attempt in ${Duration.format(Duration.millis(delay))}`)
            const woken = yield* Ref.get(wake)
            yield* Effect.race(Effect.sleep(delay), Deferred.await(woken))
            yield* Ref.set(wake, yield* Deferred.make<void>())
          }
        })

      const start = Effect.gen(function* () {
        const enabled = yield* Ref.get(link)
        if (enabled === undefined || Option.isNone(settings.relayUrl)) return
        yield* FiberHandle.run(linkFiber)(runLink(settings.relayUrl.value, enabled.token))
      })
      const stop = Effect.gen(function* () {
        yield* FiberHandle.clear(linkFiber)
        yield* Ref.set(sender, Option.none())
        yield* setRuntime({ state: "disabled", attempt: 0, nextAttemptAt: null })
      })

      const status: CloudLinkShape["status"] = Effect.gen(function* () {
        const enabled = yield* Ref.get(link)
        const current = yield* Ref.get(runtime)
        const list = yield* Ref.get(mirrored)
        const names = yield* Effect.forEach(list, (m) => Effect.map(Effect.option(servers.entry(m.serverId)), Option.map((entry) => entry.name)))
        return new CloudStatus({
          configured: Option.isSome(settings.relayUrl),
          relay: Option.getOrNull(Option.map(settings.relayUrl, displayRelay)),
          enabled: enabled !== undefined,
          role: enabled?.role ?? null,
          enabledAt: enabled === undefined ? null : iso(enabled.enabledAt),
          state: current.state,
          since: isoOrNull(current.since),
          attempt: current.attempt,
          nextAttemptAt: isoOrNull(current.nextAttemptAt),
          lastError: current.lastError,
          lastConnectedAt: isoOrNull(current.lastConnectedAt),
          servers: list.map((m, i) => new CloudServer({ serverId: m.serverId, name: Option.getOrNull(names[i]!), connectedAt: iso(m.connectedAt) }))
        })
      })

      const audited = (by: AuditActor | null, action: string, target: string | null, details: Record<string, unknown>) =>
        recordForRequest(audit, { actor: by?.id ?? null, actorName: by?.name ?? null, action, target, result: "success", details })

      const enable: CloudLinkShape["enable"] = (input, by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            if (Option.isNone(settings.relayUrl)) {
              return yield* new NoRelay({ message: "no relay is configured (set CLOUD_RELAY_URL): the cloud link cannot be enabled" })
            }
            const role = yield* roles.get(input.role).pipe(Effect.mapError((error) => storeError("read the link's role")(error)))
            if (Option.isNone(role)) return yield* new LinkRoleRefused({ field: "role", message: `no role is named "${input.role}"` })
            if (role.value.permissions.some((grant) => grant === ADMIN)) {
              return yield* new LinkRoleRefused({
                field: "role",
                message: `the role "${input.role}" grants admin: the link acts with a role granting only what remote actions need (server.start, server.stop, server.restart, players.kick, chat.send)`
              })
            }
            const now = yield* Clock.currentTimeMillis
            yield* Effect.zipRight(
              sql`INSERT INTO cloud_link (id, link_token, role, enabled_at, enabled_by)
                  VALUES (1, ${box.seal(input.token, "cloud/link_token")}, ${input.role}, ${iso(now)}, ${by.id})
                  ON CONFLICT (id) DO UPDATE SET link_token = excluded.link_token, role = excluded.role,
                    enabled_at = excluded.enabled_at, enabled_by = excluded.enabled_by`,
              audited(by, "cloud.enable", null, { role: input.role, relay: displayRelay(settings.relayUrl.value) })
            ).pipe(sql.withTransaction, Effect.mapError(storeError("enable the cloud link")))
            yield* Ref.set(link, { token: input.token, role: input.role, enabledAt: now })
            yield* start
            return yield* status
          })
        )

      const disable: CloudLinkShape["disable"] = (by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            yield* stop
            if ((yield* Ref.get(link)) !== undefined) {
              yield* Effect.zipRight(sql`DELETE FROM cloud_link WHERE id = 1`, audited(by, "cloud.disable", null, {})).pipe(
                sql.withTransaction,
                Effect.mapError(storeError("disable the cloud link"))
              )
              yield* Ref.set(link, undefined)
              yield* Effect.logInfo("cloud: link disabled")
            }
            return yield* status
          })
        )

      const connect: CloudLinkShape["connect"] = (serverId, by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const entry = yield* servers.entry(serverId)
            if (!(yield* isMirrored(serverId))) {
              const now = yield* Clock.currentTimeMillis
              yield* Effect.zipRight(
                sql`INSERT INTO cloud_servers (server_id, connected_at, connected_by) VALUES (${serverId}, ${iso(now)}, ${by.id})
                    ON CONFLICT (server_id) DO NOTHING`,
                audited(by, "cloud.server.connect", serverId, { name: entry.name })
              ).pipe(sql.withTransaction, Effect.mapError(storeError("mirror a server")))
              yield* Ref.update(mirrored, (list) => [...list, { serverId, connectedAt: now }])
              const server = yield* mirrorOf(serverId)
              if (Option.isSome(server)) yield* sendNow({ type: "server.connected", server: server.value })
            }
            return yield* status
          })
        )

      const forget = (serverId: string, by: AuditActor | null, reason: string) =>
        Effect.gen(function* () {
          yield* Effect.zipRight(
            sql`DELETE FROM cloud_servers WHERE server_id = ${serverId}`,
            audited(by, "cloud.server.disconnect", serverId, by === null ? { reason } : {})
          ).pipe(sql.withTransaction, Effect.mapError(storeError("stop mirroring a server")))
          yield* Ref.update(mirrored, (list) => list.filter((m) => m.serverId !== serverId))
          yield* sendNow({ type: "server.disconnected", serverId })
        })

      const notMirrored = (serverId: string) => new NotMirrored({ serverId, message: `server ${serverId} is not connected to the cloud` })

      const disconnect: CloudLinkShape["disconnect"] = (serverId, by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            if (!(yield* isMirrored(serverId))) return yield* notMirrored(serverId)
            yield* forget(serverId, by, "disconnect")
            return yield* status
          })
        )

      const reconnect: CloudLinkShape["reconnect"] = (serverId, by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            if (!(yield* isMirrored(serverId))) return yield* notMirrored(serverId)
            yield* audited(by, "cloud.server.reconnect", serverId, {})
            yield* sendNow({ type: "server.disconnected", serverId })
            const server = yield* mirrorOf(serverId)
            if (Option.isSome(server)) yield* sendNow({ type: "server.connected", server: server.value })
            // A link waiting out its backoff tries now.
            if ((yield* Ref.get(runtime)).state === "backing-off") yield* Deferred.succeed(yield* Ref.get(wake), undefined)
            return yield* status
          })
        )

      const serverChanged: CloudLinkShape["serverChanged"] = (serverId) =>
        Effect.gen(function* () {
          if (!(yield* isMirrored(serverId)) || Option.isNone(yield* Ref.get(sender))) return
          const server = yield* mirrorOf(serverId)
          if (Option.isSome(server)) yield* sendNow({ type: "server.status", server: server.value })
        })

      const serverDeleted: CloudLinkShape["serverDeleted"] = (serverId) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            if (yield* isMirrored(serverId)) yield* Effect.ignoreLogged(forget(serverId, null, "server deleted"))
          })
        )

      yield* start
      return CloudLink.of({ status, enable, disable, connect, disconnect, reconnect, serverChanged, serverDeleted })
    })
  )
}
