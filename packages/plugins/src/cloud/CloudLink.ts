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
 *
 * This file holds the service's interface and the layer that wires its
 * parts (`internal/`): the store, the connection and its reconnect loop,
 * the protocol, the mirrored servers, enabling and the status view.
 */
import * as Socket from "@effect/platform/Socket"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberHandle from "effect/FiberHandle"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { type AuditActor, AuditTrail, GarrisonConfig, SealedSecrets } from "@garrison/runtime"
import { Roles } from "../accounts/index.js"
import { type ServerLookupError, Servers } from "../servers/index.js"
import { cloudSettings } from "./config.js"
import type { CloudStatus } from "./contract/Api.js"
import type { Outbound } from "./contract/Protocol.js"
import type { CloudStoreError, LinkRoleRefused, NoRelay, NotMirrored } from "./errors.js"
import { makeEnablement } from "./internal/enablement.js"
import type { CloudContext, Enabled, LinkRuntime } from "./internal/linkState.js"
import { makeMirroredServers } from "./internal/mirroredServers.js"
import { makeLinkFiber } from "./internal/reconnectLoop.js"
import { makeStatus } from "./internal/status.js"
import { CLOUD_KEY, mirroredOfRows, openLinkRow, readLinkRows, readMirroredRows } from "./internal/store.js"

export { WELCOME_TIMEOUT } from "./internal/connection.js"
export { CLOUD_KEY } from "./internal/store.js"

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

      const linkRows = yield* readLinkRows(sql)
      const mirroredRows = yield* readMirroredRows(sql)
      const box = yield* (yield* SealedSecrets).box(CLOUD_KEY, { sealedValuesExist: linkRows.length > 0, sealedWhat: "the cloud link token" })
      const initial = yield* openLinkRow(linkRows[0], box)

      const ctx: CloudContext = {
        sql,
        box,
        settings,
        version,
        servers,
        roles,
        audit,
        makeSocketOf,
        link: yield* Ref.make<Enabled | undefined>(initial),
        mirrored: yield* Ref.make(mirroredOfRows(mirroredRows)),
        runtime: yield* Ref.make<LinkRuntime>({ state: "disabled", since: null, attempt: 0, nextAttemptAt: null, lastError: null, lastConnectedAt: null }),
        sender: yield* Ref.make<Option.Option<(message: Outbound) => Effect.Effect<void>>>(Option.none()),
        wake: yield* Ref.make(yield* Deferred.make<void>()),
        linkFiber: yield* FiberHandle.make<void, never>(),
        actions: yield* FiberSet.make<void, never>(),
        lock: yield* Effect.makeSemaphore(1)
      }

      const status = makeStatus(ctx)
      const linkFiber = makeLinkFiber(ctx)
      const { enable, disable } = makeEnablement(ctx, linkFiber, status)
      const { connect, disconnect, reconnect, serverChanged, serverDeleted } = makeMirroredServers(ctx, status)

      yield* linkFiber.start
      return CloudLink.of({ status, enable, disable, connect, disconnect, reconnect, serverChanged, serverDeleted })
    })
  )
}
