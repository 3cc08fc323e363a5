/**
 * What admins do to a running game, whatever carries it: list the players,
 * kick, broadcast, message one player, lock and unlock joins, shut the game
 * down, ban through the game, send a raw command. One `GameControl` per
 * server; the first implementation speaks RCON (`RconGameControl`: the
 * BattlEye admin commands, over BattlEye's UDP protocol or Source's TCP
 * one). The agent beside a game server brings a second one behind this same
 * interface, and the Provider System picks per action (agent first, RCON as
 * the fallback).
 *
 * Callers ask `capabilities` before offering an action; an action the
 * implementation cannot do fails with the `unsupported` reason. Players are
 * named by the record `players` answered (an implementation takes what it
 * needs: the slot for RCON, the Steam64 for the agent). Texts are one line:
 * an implementation flattens line breaks and control characters, since a
 * newline would smuggle a second command into RCON.
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { OnlinePlayer } from "../game/Players.js"
import type { ActorError } from "./ActorError.js"

export const GameCapability = Schema.Literal(
  "players",
  "kick",
  "broadcast",
  "message",
  "lock",
  "unlock",
  "shutdown",
  "ban",
  "raw"
)
export type GameCapability = typeof GameCapability.Type

/** A ban the game itself enforces (BattlEye's own list); the global ban database is the bans plugin's. */
export interface GameBan {
  /** 0 is permanent. */
  readonly minutes: number
  readonly reason: string
}

export interface GameControl {
  /** Which implementation answers, for logs and the capabilities route: `rcon` (later `agent`). */
  readonly provider: string
  /** What this server can be asked to do now (an entry without RCON settings can do nothing over RCON). */
  readonly capabilities: Effect.Effect<ReadonlyArray<GameCapability>>
  /** The players online now, each with the ids the server's logs prove. */
  readonly players: Effect.Effect<ReadonlyArray<OnlinePlayer>, ActorError>
  readonly kick: (player: OnlinePlayer, reason: string) => Effect.Effect<void, ActorError>
  /** A message to everyone on the server. */
  readonly broadcast: (message: string) => Effect.Effect<void, ActorError>
  /** A message to one player. */
  readonly message: (player: OnlinePlayer, message: string) => Effect.Effect<void, ActorError>
  /** Lock (no new joins) or unlock; the server's status shows it. */
  readonly lock: Effect.Effect<void, ActorError>
  readonly unlock: Effect.Effect<void, ActorError>
  /**
   * Asks the game to save and exit. The process ending afterwards looks like
   * a crash to its actor: to stop a server, use the actor's `stop`, which
   * sends this first and counts the exit as the stop's.
   */
  readonly shutdown: Effect.Effect<void, ActorError>
  /** Bans the player in the game's own list (and kicks them). */
  readonly ban: (player: OnlinePlayer, ban: GameBan) => Effect.Effect<void, ActorError>
  /** One command as typed, and the game's answer. */
  readonly raw: (command: string) => Effect.Effect<string, ActorError>
}

/** Line breaks and other control characters become spaces; the text is cut to `max` characters. */
export const oneLine = (text: string, max: number): string => {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim()
  return flat.length > max ? flat.slice(0, max) : flat
}
