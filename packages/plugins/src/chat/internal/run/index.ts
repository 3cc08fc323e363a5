/** Every action's runner, by name: `actions.ts` says who may run it, these what it does. */
import * as Effect from "effect/Effect"
import { refused } from "../refusals.js"
import type { FleetRunner, ServerRunner } from "./context.js"
import * as game from "./game.js"
import * as lists from "./lists.js"
import * as mods from "./mods.js"
import * as players from "./players.js"
import * as servers from "./servers.js"

/**
 * The watchlist is the watchlist plugin's (watched players, their notes and
 * join alerts): every entry, with its last join when it was on this server.
 * Without the plugin loaded, the bot says so.
 */
const watchList: ServerRunner = (_call, server, services) =>
  Effect.gen(function* () {
    if (services.watchlist === undefined) return yield* Effect.fail(refused(503, "unavailable", "this controller keeps no watchlist: load the watchlist plugin"))
    const entries = yield* services.watchlist
      .list((serverId) => serverId === server.id)
      .pipe(Effect.catchAll(() => Effect.fail(refused(503, "unavailable", "the watchlist cannot be read now"))))
    const lines = entries.map((e) => `${e.name ?? e.identifier} (${e.platformId ?? e.playerId})${e.note === "" ? "" : `: ${e.note}`}${e.lastJoinedAt === null ? "" : ` · joined here ${e.lastJoinedAt}`}`)
    return {
      message: entries.length === 0 ? "Nobody is on the watchlist." : lines.join("\n"),
      watchlist: entries.map((e) => ({ name: e.name, platformId: e.platformId, playerId: e.playerId, note: e.note, lastJoinedHere: e.lastJoinedAt }))
    }
  })

export const SERVER_RUNNERS: Readonly<Record<string, ServerRunner>> = {
  status: servers.status,
  timeWeather: servers.timeWeather,
  start: servers.start,
  stop: servers.stop,
  restart: servers.restart,
  lock: servers.lock,
  unlock: servers.unlock,
  rcon: servers.rcon,
  message: servers.message,
  players: players.players,
  playerInfo: players.playerInfo,
  kick: players.kick,
  ...Object.fromEntries(players.IN_GAME_ACTIONS.map((name) => [name, players.inGameAction(name)])),
  watchList,
  chatFeed: game.chatFeed,
  killfeed: game.killfeed,
  leaderboard: game.leaderboard,
  mods: mods.mods,
  modStatus: mods.modStatus,
  modInstall: mods.modInstall,
  modUninstall: mods.modUninstall,
  modEnable: mods.modEnable,
  modDisable: mods.modDisable,
  banWhitelist: lists.banWhitelist,
  priorityQueue: lists.priorityQueue
}

/** Actions about no one server. */
export const FLEET_RUNNERS: Readonly<Record<string, FleetRunner>> = { servers: servers.servers }
