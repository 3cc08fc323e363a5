/**
 * What the parts of `CloudLink` share: the store, the services they call,
 * and the link held in memory (the enabled link, the mirrored servers, the
 * connection's state, the sender of the connection open now), with the
 * lock that runs admin changes one at a time.
 */
import type * as Socket from "@effect/platform/Socket"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import type * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type * as FiberHandle from "effect/FiberHandle"
import type * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { type AuditActor, type AuditTrailShape, recordForRequest, type SealedBox } from "@garrison/runtime"
import type { RolesShape } from "../../accounts/index.js"
import type { ServersShape } from "../../servers/index.js"
import type { CloudSettings } from "../config.js"
import type { LinkState } from "../contract/Api.js"
import type { Outbound } from "../contract/Protocol.js"

export interface Enabled {
  readonly token: string
  readonly role: string
  readonly enabledAt: number
}

export interface Mirrored {
  readonly serverId: string
  readonly connectedAt: number
}

export interface LinkRuntime {
  readonly state: LinkState
  readonly since: number | null
  readonly attempt: number
  readonly nextAttemptAt: number | null
  readonly lastError: string | null
  readonly lastConnectedAt: number | null
}

export interface CloudContext {
  readonly sql: SqlClient.SqlClient
  readonly box: SealedBox
  readonly settings: CloudSettings
  readonly version: string
  readonly servers: ServersShape
  readonly roles: RolesShape
  readonly audit: AuditTrailShape
  /** Opens a WebSocket (Node's, from `NodeSocket`). */
  readonly makeSocketOf: Context.Tag.Service<typeof Socket.WebSocketConstructor>
  readonly link: Ref.Ref<Enabled | undefined>
  readonly mirrored: Ref.Ref<ReadonlyArray<Mirrored>>
  readonly runtime: Ref.Ref<LinkRuntime>
  /** Sends on the connection that is open and welcomed now; nothing while there is none. */
  readonly sender: Ref.Ref<Option.Option<(message: Outbound) => Effect.Effect<void>>>
  /** Completed by a reconnect to cut a backoff short. */
  readonly wake: Ref.Ref<Deferred.Deferred<void>>
  readonly linkFiber: FiberHandle.FiberHandle<void, never>
  readonly actions: FiberSet.FiberSet<void, never>
  readonly lock: Effect.Semaphore
}

/** Updates the connection's state, `since` moving only when the state changes. */
export const setRuntime = (ctx: CloudContext, change: Partial<LinkRuntime>) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Ref.update(ctx.runtime, (current) => ({ ...current, ...(change.state !== undefined && change.state !== current.state ? { since: now } : {}), ...change }))
  )

export const sendNow = (ctx: CloudContext, message: Outbound) =>
  Effect.flatMap(Ref.get(ctx.sender), Option.match({ onNone: () => Effect.void, onSome: (send) => send(message) }))

export const isMirrored = (ctx: CloudContext, serverId: string) => Effect.map(Ref.get(ctx.mirrored), (list) => list.some((m) => m.serverId === serverId))

/** An admin change's audit record (`by` null: the link's own change, e.g. a server deleted). */
export const audited = (ctx: CloudContext, by: AuditActor | null, action: string, target: string | null, details: Record<string, unknown>) =>
  recordForRequest(ctx.audit, { actor: by?.id ?? null, actorName: by?.name ?? null, action, target, result: "success", details })
