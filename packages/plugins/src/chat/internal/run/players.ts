/**
 * Actions about players: who is on, one player's record, a kick, and the
 * in-game admin actions (heal, kill, teleport, ...) through the Provider
 * System (the agent's mod; RCON stands in for a message to one player).
 */
import { actionsByName } from "@garrison/agent/client"
import * as Effect from "effect/Effect"
import { type OnlinePlayer, PlayerIds } from "@garrison/runtime"
import { PlayerKicked, resolvePlayer } from "../../../players/index.js"
import { number, optionalBoolean, optionalText, type Params, steam64, text } from "../params.js"
import { InvalidChatInput } from "../../errors.js"
import { asRefusal, refused } from "../refusals.js"
import type { ServerRunner } from "./context.js"

const DEFAULT_KICK_REASON = "Kicked by an admin"

const onlineView = (p: OnlinePlayer) => ({ slot: p.slot, name: p.name, ping: p.ping, steam64: p.steam64 ?? null, inLobby: p.inLobby })

export const players: ServerRunner = (_call, server) =>
  Effect.gen(function* () {
    const online = yield* asRefusal(server.control.players)
    const entry = yield* server.entry
    return {
      message: online.length === 0 ? `${entry.name}: nobody is online.` : `${entry.name}: ${online.length} online: ${online.map((p) => p.name).join(", ")}`,
      players: online.map(onlineView)
    }
  })

/** The player's record from the agent's mod when there is one; otherwise what RCON knows of them while online. */
export const playerInfo: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const platformId = yield* steam64(call.params)
    const fromAgent = yield* services.actions
      .run({ server, action: actionsByName.get("player.details")!, input: { platformId }, caller: call.caller, clientIp: call.clientIp })
      .pipe(
        Effect.map(({ data }) => data),
        Effect.catchTags({ ProviderUnavailable: () => Effect.succeed(undefined), AgentNotConfigured: () => Effect.succeed(undefined) }),
        asRefusal
      )
    if (fromAgent !== undefined) {
      const details = (typeof fromAgent === "object" && fromAgent !== null ? fromAgent : {}) as Readonly<Record<string, unknown>>
      const name = typeof details["name"] === "string" ? details["name"] : platformId
      const hours = typeof details["playtimeSeconds"] === "number" ? Math.round(details["playtimeSeconds"] / 360) / 10 : null
      return {
        message: `${name}: ${details["online"] === true ? "online" : "offline"}${hours === null ? "" : `, ${hours} h played`}, ${Number(details["kills"] ?? 0)} kills, ${Number(details["deaths"] ?? 0)} deaths`,
        player: details
      }
    }
    const guid = PlayerIds.isSteam64(platformId) ? PlayerIds.toBattlEyeGuid(platformId) : undefined
    const online = (yield* asRefusal(server.control.players)).find((p) => p.steam64 === platformId || (guid !== undefined && p.guid === guid))
    if (online === undefined) return yield* Effect.fail(refused(404, "not-found", `${platformId} is not online and this server has no agent to ask about them`))
    return { message: `${online.name}: online in slot ${online.slot}, ping ${online.ping}`, player: onlineView(online) }
  })

/** `params.player`: a Steam64, a BattlEye number or GUID, a DayZ ID, or the exact name. */
export const kick: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const who = yield* text(call.params, "player", { max: 100 })
    const reason = (yield* optionalText(call.params, "reason", { max: 200 })) ?? DEFAULT_KICK_REASON
    const player = yield* asRefusal(resolvePlayer(yield* asRefusal(server.control.players), who))
    yield* asRefusal(server.control.kick(player, reason))
    const entry = yield* server.entry
    yield* services.bus.publish(
      new PlayerKicked({ serverId: entry.id, name: entry.name, slot: player.slot, playerName: player.name, steam64: player.steam64 ?? null, reason, by: call.caller.name })
    )
    return { message: `Kicked ${player.name}: ${reason}`, kicked: player.name, reason }
  })

/** The agent action an `action*` names, and how its params are read (the conventions' limits first). */
interface InGameAction {
  readonly agentAction: string
  readonly input: (params: Params) => Effect.Effect<Record<string, unknown>, InvalidChatInput>
  /** What was done, in words (after the player's id). */
  readonly done: string | ((input: Record<string, unknown>) => string)
}

const inGame: Record<string, InGameAction> = {
  actionHeal: { agentAction: "player.heal", input: (p) => Effect.map(steam64(p), (platformId) => ({ platformId })), done: "healed" },
  actionKill: { agentAction: "player.kill", input: (p) => Effect.map(steam64(p), (platformId) => ({ platformId })), done: "killed" },
  actionUnstuck: { agentAction: "player.unstuck", input: (p) => Effect.map(steam64(p), (platformId) => ({ platformId })), done: "moved out of where they were stuck" },
  actionStrip: { agentAction: "player.strip", input: (p) => Effect.map(steam64(p), (platformId) => ({ platformId })), done: "stripped" },
  actionExplode: { agentAction: "player.explode", input: (p) => Effect.map(steam64(p), (platformId) => ({ platformId })), done: "blown up" },
  actionTeleport: {
    agentAction: "player.teleport",
    input: (p) =>
      Effect.all({
        platformId: steam64(p),
        x: number(p, "x", { min: 0, max: 30_000 }),
        y: number(p, "y", { min: -1_000, max: 10_000 }),
        z: number(p, "z", { min: 0, max: 30_000 })
      }),
    done: "teleported"
  },
  actionSpawnItem: {
    agentAction: "player.spawnItem",
    input: (p) =>
      Effect.all({
        platformId: steam64(p),
        itemClass: Effect.flatMap(text(p, "itemClass", { max: 128 }), (itemClass) =>
          /^[A-Za-z0-9_]+$/.test(itemClass)
            ? Effect.succeed(itemClass)
            : Effect.fail(new InvalidChatInput({ field: "params.itemClass", message: "params.itemClass must be a class name: letters, digits or _" }))
        ),
        quantity: number(p, "quantity", { min: 1, max: 100, integer: true })
      }),
    done: "given the items"
  },
  actionFreeze: {
    agentAction: "player.freeze",
    input: (p) => Effect.all({ platformId: steam64(p), frozen: Effect.map(optionalBoolean(p, "frozen"), (frozen) => (frozen === false ? 0 : 1)) }),
    done: (input) => (input["frozen"] === 0 ? "unfrozen" : "frozen")
  },
  actionMessage: {
    agentAction: "player.message",
    input: (p) => Effect.all({ platformId: steam64(p), message: text(p, "message", { max: 256 }) }),
    done: "sent the message"
  }
}

export const IN_GAME_ACTIONS: ReadonlyArray<string> = Object.keys(inGame)

export const inGameAction =
  (name: string): ServerRunner =>
  (call, server, services) =>
    Effect.gen(function* () {
      const spec = inGame[name]!
      const input = yield* spec.input(call.params)
      const { provider, data } = yield* asRefusal(
        services.actions.run({ server, action: actionsByName.get(spec.agentAction)!, input, caller: call.caller, clientIp: call.clientIp })
      )
      const done = typeof spec.done === "string" ? spec.done : spec.done(input)
      return { message: `${String(input["platformId"])}: ${done}.`, provider, data }
    })
