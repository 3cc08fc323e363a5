/**
 * The link's status as the API shows it: the relay, whether the link is
 * enabled and with which role, the connection's state and its last error,
 * and the mirrored servers with their names.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { displayRelay } from "../config.js"
import { CloudServer, CloudStatus } from "../contract/Api.js"
import type { CloudContext } from "./linkState.js"
import { isoOf, isoOrNull } from "@garrison/runtime"

export const makeStatus = (ctx: CloudContext): Effect.Effect<CloudStatus> =>
  Effect.gen(function* () {
    const { settings, servers } = ctx
    const enabled = yield* Ref.get(ctx.link)
    const current = yield* Ref.get(ctx.runtime)
    const list = yield* Ref.get(ctx.mirrored)
    const names = yield* Effect.forEach(list, (m) => Effect.map(Effect.option(servers.entry(m.serverId)), Option.map((entry) => entry.name)))
    return new CloudStatus({
      configured: Option.isSome(settings.relayUrl),
      relay: Option.getOrNull(Option.map(settings.relayUrl, displayRelay)),
      enabled: enabled !== undefined,
      role: enabled?.role ?? null,
      enabledAt: enabled === undefined ? null : isoOf(enabled.enabledAt),
      state: current.state,
      since: isoOrNull(current.since),
      attempt: current.attempt,
      nextAttemptAt: isoOrNull(current.nextAttemptAt),
      lastError: current.lastError,
      lastConnectedAt: isoOrNull(current.lastConnectedAt),
      servers: list.map((m, i) => new CloudServer({ serverId: m.serverId, name: Option.getOrNull(names[i]!), connectedAt: isoOf(m.connectedAt) }))
    })
  })
