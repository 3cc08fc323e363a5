/**
 * The Provider System for in-game admin actions. Each action of the agent's
 * catalogue runs through the server's agent (the in-house provider) when the
 * entry names one and its health says it and its mod answer; `message` (one
 * player) falls back to RCON (`say <slot>`), as do the `GameControl` actions
 * the servers gateway composes (kick, ban, broadcast, lock, unlock).
 * Everything else needs the agent: on a server without one the answer is
 * 409 `agent-not-configured` naming the field to set (waiting cannot help);
 * with one that cannot be reached, 503 `provider-unavailable`, naming why.
 *
 * Every action leaves an audit row (actor, server, action, target,
 * parameters) and publishes `AdminAction`, whatever its outcome.
 */
import { actionsByName, type AgentAction, catalogue } from "@garrison/agent/client"
import {
  ActorError,
  ADMIN,
  grants,
  AuditTrail,
  EventBus,
  type OnlinePlayer,
  PlayerIds,
  type Principal,
  type ServerEntry
} from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ServerHandle } from "../servers/index.js"
import { agentActorError } from "./agentControl.js"
import { type AgentLink, AgentLinks, reasonFor } from "./AgentLinks.js"
import { AgentNotConfigured, ProviderUnavailable } from "./contract/errors.js"
import { AdminAction } from "./events.js"

export { AgentNotConfigured, ProviderUnavailable }

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
  ) => Effect.Effect<{ readonly provider: "agent" | "rcon"; readonly data: unknown }, ActorError | ProviderUnavailable | AgentNotConfigured>
  /** Every catalogue action on this server, with the provider that would serve it now or why none can. */
  readonly routes: (server: ServerHandle) => Effect.Effect<ReadonlyArray<ActionRoute>>
  /**
   * Adds what the controller knows to an action's answer (a later plugin's: the game log's player history on
   * `player.details`). The game's answer is kept as it is when the addition fails.
   */
  readonly addToAnswer: (action: string, add: AnswerAddition) => Effect.Effect<void>
}

/** What a plugin adds to an action's answer: the new answer, from the call and the game's answer. */
export type AnswerAddition = (call: Pick<RunInput, "server" | "input" | "caller">, data: unknown) => Effect.Effect<unknown, { readonly message: string }>

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

/** No agent set up, and RCON cannot stand in: a configuration to change, not a passing state. */
const noAgent = (entry: ServerEntry, action: AgentAction) =>
  new AgentNotConfigured({
    message:
      `server "${entry.name}" has no agent, so nothing can run ${action.name}` +
      `${RCON_FALLBACK.has(action.name) ? " (RCON cannot either)" : ""}: set its agent's URL and key ` +
      `(PATCH /api/servers/${entry.id} with {"agent": {"url": ..., "apiKey": ...}})`,
    details: { serverId: entry.id, action: action.name }
  })

const noProvider = (entry: ServerEntry, action: AgentAction, reason: string) =>
  new ProviderUnavailable({
    message: `${entry.name}: nothing can run ${action.name} now: ${reason}${RCON_FALLBACK.has(action.name) ? "; RCON cannot either" : ""}`,
    details: { serverId: entry.id, action: action.name, reason }
  })

export class AdminActions extends Context.Tag("@garrison/plugins/actions/AdminActions")<AdminActions, AdminActionsShape>() {
  static readonly make = Effect.gen(function* () {
    const links = yield* AgentLinks
    const bus = yield* EventBus
    const audit = yield* AuditTrail

    /** The server's agent and what its health says now (`reason` is null when it looks usable), or why there is none. */
    const agentOf = (server: ServerHandle) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const link = links.forEntry(entry)
        if (Option.isNone(link)) return Either.left("no agent is set up for this server (set the entry's agent)")
        const availability = yield* link.value.availability
        return Either.right({ link: link.value, reason: availability.available ? null : availability.reason })
      })

    /**
     * Who runs the action: the agent when it looks usable; RCON for the
     * actions it can stand in for when the agent looks down; otherwise the
     * agent all the same (a health answer is a few seconds old and never
     * refuses on its own: the agent's own wait for the mod decides).
     */
    const choose = (server: ServerHandle, action: AgentAction, agent: Either.Either<{ readonly reason: string | null }, string>) =>
      Effect.gen(function* () {
        if (Either.isRight(agent) && agent.right.reason === null) return "agent" as const
        if (RCON_FALLBACK.has(action.name) && (yield* server.control.capabilities).includes("message")) return "rcon" as const
        return Either.isRight(agent) ? ("agent" as const) : undefined
      })

    const routes: AdminActionsShape["routes"] = (server) =>
      Effect.gen(function* () {
        const agent = yield* agentOf(server)
        return yield* Effect.forEach(catalogue, (action) =>
          Effect.map(choose(server, action, agent), (provider): ActionRoute => {
            const reason = Either.isLeft(agent) ? agent.left : agent.right.reason
            if (provider === "agent" && reason !== null) {
              return { action: action.name, available: false, provider, reason: `${reason}; a call is still sent to the agent, which waits for the mod` }
            }
            return provider === undefined
              ? { action: action.name, available: false, provider: null, reason }
              : { action: action.name, available: true, provider, reason: null }
          })
        )
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

    /**
     * The action through the agent. An agent that looked down and cannot be
     * reached (or refuses the key) is a 503 naming what its health said; a
     * mod that does not answer is the agent's own 504; a call that proves
     * the kept health answer wrong makes it be asked again.
     */
    const viaAgent = (
      entry: ServerEntry,
      action: AgentAction,
      input: Readonly<Record<string, unknown>>,
      agent: { readonly link: AgentLink; readonly reason: string | null },
      isAdmin: boolean
    ) =>
      agent.link.client.call(action, input).pipe(
        Effect.tapBoth({
          onSuccess: () => (agent.reason === null ? Effect.void : agent.link.refresh),
          onFailure: (error) => (agent.reason === null && (error._tag === "AgentUnreachable" || error._tag === "AgentTimedOut") ? agent.link.refresh : Effect.void)
        }),
        Effect.mapError((error) =>
          agent.reason !== null && (error._tag === "AgentUnreachable" || error._tag === "AgentUnavailable" || error._tag === "AgentUnauthorized")
            ? noProvider(entry, action, reasonFor(isAdmin, agent.reason))
            : agentActorError(entry.id, entry.name, action.name, error)
        )
      )

    const run: AdminActionsShape["run"] = ({ server, action, input, caller, clientIp }) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const agent = yield* agentOf(server)
        const target = typeof input["platformId"] === "string" ? input["platformId"] : typeof input["vehicleId"] === "string" ? input["vehicleId"] : null
        const provider = yield* choose(server, action, agent)
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
          return yield* Effect.fail(Either.isLeft(agent) ? noAgent(entry, action) : noProvider(entry, action, reason))
        }
        const result = provider === "agent" && Either.isRight(agent) ? viaAgent(entry, action, input, agent.right, grants(caller.permissions, ADMIN)) : messageOverRcon(server, input)
        const data = yield* result.pipe(Effect.tapBoth({ onFailure: (error) => record(false, error.message), onSuccess: () => record(true) }))
        const addition = additions.get(action.name)
        if (addition === undefined) return { provider, data }
        const added = addition({ server, input, caller }, data).pipe(
          Effect.catchAll((error) => Effect.as(Effect.logWarning(`${action.name}: the controller's part of the answer is left out: ${error.message}`), data))
        )
        return { provider, data: yield* added }
      })

    const additions = new Map<string, AnswerAddition>()
    const addToAnswer: AdminActionsShape["addToAnswer"] = (action, add) => Effect.sync(() => void additions.set(action, add))

    return AdminActions.of({ run, routes, addToAnswer })
  })

  static readonly layer = Layer.effect(AdminActions, AdminActions.make)
}

/** The catalogue action by mod action name (the routes are made from the catalogue, so it is always there). */
export const actionNamed = (name: string): AgentAction => actionsByName.get(name)!
