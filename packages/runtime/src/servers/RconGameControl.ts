/**
 * `GameControl` over the actor's RCON session, with BattlEye's admin
 * commands (what DayZ answers; the simulator answers them over Source RCON
 * too): `players`, `kick <#> <reason>`, `say -1 <text>`, `say <#> <text>`,
 * `#lock`, `#unlock` (through the actor, so its status shows the lock),
 * `#shutdown`, `ban <#> <minutes> <reason>`. An entry without RCON settings
 * has no capabilities, and the actor refuses every command as
 * `unsupported`.
 */
import * as Effect from "effect/Effect"
import { type GameCapability, type GameControl, oneLine } from "./GameControl.js"
import type { ServerActor } from "./ServerActor.js"

const ALL: ReadonlyArray<GameCapability> = ["players", "kick", "broadcast", "message", "lock", "unlock", "shutdown", "ban", "raw"]

/** BattlEye cuts longer texts; a kick or ban reason is shown to the player in one line. */
export const MAX_REASON_LENGTH = 200
export const MAX_SAY_LENGTH = 256
/** Far more than any admin command; a raw command is flattened to one line as well. */
export const MAX_COMMAND_LENGTH = 4096

export const make = (actor: ServerActor): GameControl => {
  const send = (command: string) => Effect.asVoid(actor.rcon(command))
  return {
    provider: "rcon",
    capabilities: Effect.map(actor.entry, (entry) => (entry.rcon === undefined ? [] : ALL)),
    players: actor.players,
    kick: (player, reason) => send(`kick ${player.slot} ${oneLine(reason, MAX_REASON_LENGTH)}`),
    broadcast: (message) => send(`say -1 ${oneLine(message, MAX_SAY_LENGTH)}`),
    message: (player, message) => send(`say ${player.slot} ${oneLine(message, MAX_SAY_LENGTH)}`),
    lock: actor.setLocked(true),
    unlock: actor.setLocked(false),
    shutdown: send("#shutdown"),
    ban: (player, ban) => send(`ban ${player.slot} ${Math.max(0, Math.floor(ban.minutes))} ${oneLine(ban.reason, MAX_REASON_LENGTH)}`),
    raw: (command) => actor.rcon(oneLine(command, MAX_COMMAND_LENGTH))
  }
}
