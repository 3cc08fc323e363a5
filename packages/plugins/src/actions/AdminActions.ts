/**
 * The Provider System for in-game admin actions. Each action of the agent's
 * catalogue runs through the server's agent (the in-house provider) when the
 * entry names one and its health says it and its mod answer; `message` (one
 * player) falls back to RCON (`say <slot>`), as do the `GameControl` actions
 * the servers gateway composes (kick, ban, broadcast, lock, unlock).
 * Everything else needs the agent: without one, the answer is 503
 * `provider-unavailable`, naming why.
 *
 * Every action leaves an audit row (actor, server, action, target,
 * parameters) and publishes `AdminAction`, whatever its outcome.
 */
import { actionsByName, type AgentAction, catalogue } from "@garrison/agent/client"
import {
  ActorError,
  AuditTrail,
  EventBus,
  type OnlinePlayer,
  PlayerIds,
  type Principal
} from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ServerHandle } from "../servers/index.js"
import { agentActorError } from "./agentControl.js"
import { AgentLinks } from "./AgentLinks.js"
import { ProviderUnavailable } from "./contract/errors.js"
import { AdminAction } from "./events.js"

export { ProviderUnavailable }

/** Who would run an action on a server now. */
export interface ActionRoute {
  readonly action: string
  readonly available: boolean
  readonly provider: "agent" | "rcon" | null
  /** Why it is not available, when it is not. */
  readonly reason: string | null
}

export interface RunInput {
  readonly server: ServerHandle
  readonly action: AgentAction
  /** The action's body or query, path parameters merged in, as the catalogue takes it. */
  readonly input: Readonly<Record<string, unknown>>
  readonly caller: Principal
  readonly clientIp: string | null
}

export interface AdminActionsShape {
  /** The game's answer (`data`) of the action, run by the first provider that can, and which one that was. */
  readonly run: (
    input: RunInput
  ) => Effect.Effect<{ readonly provider: "agent" | "rcon"; readonly data: unknown }, ActorError | ProviderUnavailable>
  /** Every catalogue action on this server, with the provider that would serve it now or why none can. */
  readonly routes: (server: ServerHandle) => Effect.Effect<ReadonlyArray<ActionRoute>>
}

/** The actions RCON can stand in for: the mod's `player.message` is `say <slot>`. */
const RCON_FALLBACK = new Set(["player.message"])

/** The player an RCON fallback aims at: by Steam64 (proven by the logs, or the GUID it hashes to), or DayZ ID. */
const findOnline = (players: ReadonlyArray<OnlinePlayer>, platformId: string): OnlinePlayer | undefined => {
  if (PlayerIds.isSteam64(platformId)) {
    const guid = PlayerIds.toBattlEyeGuid(platformId)
    return players.find((p) => p.steam64 === platformId || p.guid === guid)
  }
  return players.find((p) => p.dayzId === platformId)
}

export class AdminActions extends Context.Tag("@garrison/plugins/actions/AdminActions")<AdminActions, AdminActionsShape>() {
  static readonly make = Effect.gen(function* () {
    const links = yield* AgentLinks
    const bus = yield* EventBus
    const audit = yield* AuditTrail

    /** The agent's availability for this server: set up and answering, or why not. */
    const agentOf = (server: ServerHandle) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const link = links.forEntry(entry)
        if (Option.isNone(link)) return Either.left("no agent is set up for this server (set the entry's agent)")
        const availability = yield* link.value.availability
        return availability.available ? Either.right(link.value) : Either.left(availability.reason)
      })

    const routes: AdminActionsShape["routes"] = (server) =>
      Effect.gen(function* () {
        const agent = yield* agentOf(server)
        const rconCan = (yield* server.control.capabilities).includes("message")
        return catalogue.map((action): ActionRoute => {
          if (Either.isRight(agent)) return { action: action.name, available: true, provider: "agent", reason: null }
          if (RCON_FALLBACK.has(action.name) && rconCan) return { action: action.name, available: true, provider: "rcon", reason: null }
          return { action: action.name, available: false, provider: null, reason: agent.left }
        })
      })

    /** `player.message` through RCON: the player found among the ones RCON lists, then `say <slot>`. */
    const messageOverRcon = (server: ServerHandle, input: Readonly<Record<string, unknown>>) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const platformId = String(input["platformId"])
        const player = findOnline(yield* server.control.players, platformId)
        if (player === undefined) {
          return yield* new ActorError({
            serverId: entry.id,
            reason: "refused",
            message: `${entry.name}: no player ${platformId} is online (RCON lists no one by that id)`
          })
        }
        yield* server.control.message(player, String(input["message"]))
        return { sent: true, slot: player.slot }
      })

    const run: AdminActionsShape["run"] = ({ server, action, input, caller, clientIp }) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const agent = yield* agentOf(server)
        const target = typeof input["platformId"] === "string" ? input["platformId"] : typeof input["vehicleId"] === "string" ? input["vehicleId"] : null
        const provider: "agent" | "rcon" | undefined = Either.isRight(agent)
          ? "agent"
          : RCON_FALLBACK.has(action.name) && (yield* server.control.capabilities).includes("message")
            ? "rcon"
            : undefined
        const record = (ok: boolean, error?: string) =>
          Effect.gen(function* () {
            const at = new Date(yield* Clock.currentTimeMillis).toISOString()
            yield* audit.record({
              actor: caller.id,
              ip: clientIp,
              action: `action.${action.name}`,
              target: entry.id,
              result: ok ? "success" : "failure",
              details: { server: entry.name, provider: provider ?? null, target, params: input, ...(error === undefined ? {} : { error }) }
            })
            yield* bus.publish(
              new AdminAction({
                serverId: entry.id,
                action: provider === "rcon" ? "rcon.message" : action.name,
                actor: caller.name,
                target,
                provider: provider ?? "agent",
                ok,
                ...(error === undefined ? {} : { error }),
                at
              })
            )
          })
        if (provider === undefined) {
          const reason = Either.isLeft(agent) ? agent.left : "no provider"
          yield* record(false, reason)
          return yield* new ProviderUnavailable({
            message: `${entry.name}: nothing can run ${action.name} now: ${reason}${RCON_FALLBACK.has(action.name) ? "; RCON cannot either" : ""}`,
            details: { serverId: entry.id, action: action.name, reason }
          })
        }
        const result =
          provider === "agent" && Either.isRight(agent)
            ? agent.right.client.call(action, input).pipe(Effect.mapError((error) => agentActorError(entry.id, entry.name, action.name, error)))
            : messageOverRcon(server, input)
        const data = yield* result.pipe(Effect.tapBoth({ onFailure: (error) => record(false, error.message), onSuccess: () => record(true) }))
        return { provider, data }
      })

    return AdminActions.of({ run, routes })
  })

  static readonly layer = Layer.effect(AdminActions, AdminActions.make)
}

/** The catalogue action by mod action name (the routes are made from the catalogue, so it is always there). */
export const actionNamed = (name: string): AgentAction => actionsByName.get(name)!
