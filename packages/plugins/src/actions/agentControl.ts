/**
 * The agent as a `GameControl` provider: what admins do to a running game
 * that the companion mod can do by Steam64 (kick, message one player, ban),
 * asked before RCON. A player whose Steam64 the server's logs have not
 * proven yet is refused as `unsupported`, and the composite control asks
 * RCON, which names players by their BattlEye slot.
 */
import type { AgentError } from "@garrison/agent/client"
import { ActorError, type GameCapability, type GameControl, type OnlinePlayer } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import type { ProvidedControl } from "../servers/index.js"
import type { AgentLink } from "./AgentLinks.js"

const CAPABILITIES: ReadonlyArray<GameCapability> = ["kick", "message", "ban"]

/** An agent failure as the actor reasons every server route maps (`actorErrorToHttp`). */
export const agentActorError = (serverId: string, serverName: string, action: string, error: AgentError): ActorError => {
  const fail = (reason: ActorError["reason"], message: string) => new ActorError({ serverId, reason, message })
  switch (error._tag) {
    case "AgentTimedOut":
      return fail("agent-timed-out", `${serverName}: the game did not answer ${action} in time (${error.error}); the command was withdrawn`)
    case "AgentModError":
      return fail("refused", `${serverName}: the game refused ${action}: ${error.error}`)
    case "AgentUnreachable":
      return fail("provider-unavailable", `${serverName}: ${error.error}`)
    case "AgentUnavailable":
      return fail("provider-unavailable", `${serverName}: the agent cannot queue ${action} now: ${error.error}`)
    case "AgentUnauthorized":
      return fail("agent-failed", `${serverName}: the agent refused Garrison's key (set the entry's agent.apiKey to its SIDECAR_API_KEY)`)
    case "AgentInvalidInput":
      return fail("agent-failed", `${serverName}: the agent refused ${action}'s input: ${error.error}`)
    case "AgentBadResponse":
      return fail("agent-failed", `${serverName}: ${error.error}`)
  }
}

export const agentControl = (server: { readonly id: string; readonly name: string }, link: AgentLink): ProvidedControl => {
  const unsupported = (what: string) =>
    Effect.fail(new ActorError({ serverId: server.id, reason: "unsupported", message: `${server.name}: the agent cannot ${what}` }))
  const run = (action: string, input: Readonly<Record<string, unknown>>) =>
    link.client.call(action, input).pipe(Effect.mapError((error) => agentActorError(server.id, server.name, action, error)), Effect.asVoid)
  /** The mod knows players by Steam64: one the logs have not proven is for RCON to handle. */
  const byPlayer = (player: OnlinePlayer, action: string, input: Readonly<Record<string, unknown>>) =>
    player.steam64 === null ? unsupported(`${action} ${player.name}: their Steam64 is not known yet`) : run(action, { platformId: player.steam64, ...input })

  const control: GameControl = {
    provider: "agent",
    capabilities: Effect.succeed(CAPABILITIES),
    players: unsupported("list players (RCON lists them with their slots)"),
    kick: (player, reason) => byPlayer(player, "player.kick", { reason }),
    broadcast: () => unsupported("broadcast"),
    message: (player, message) => byPlayer(player, "player.message", { message }),
    lock: unsupported("lock the server"),
    unlock: unsupported("unlock the server"),
    shutdown: unsupported("shut the server down"),
    ban: (player, ban) => byPlayer(player, "player.ban", { reason: ban.reason, duration: Math.max(0, Math.floor(ban.minutes)) }),
    raw: () => unsupported("run raw RCON commands")
  }
  return { availability: link.availability, capabilities: CAPABILITIES, control }
}
