/**
 * Game data from the servers' admin logs: the kill feed (and its live
 * stream), the leaderboard with seasons, player history, and the live
 * map's positions. See README.md.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { TrustPlayerHistory } from "../trust/index.js"
import { AuditTrail, currentSetting, type Job, on, Plugin, ServerWiped } from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { GameLogApi, LEADERBOARD_MANAGE } from "./contract/Api.js"
import { Ingest } from "./Ingest.js"
import { KillFeed } from "./KillFeed.js"
import { Leaderboard } from "./Leaderboard.js"
import { LiveMap } from "./LiveMap.js"
import { migrations } from "./migrations.js"
import { PlayerHistory } from "./PlayerHistory.js"
import { playerDetailsHistory } from "./playerDetails.js"
import { GameFeedRoutes, GameServerRoutes, PlayerHistoryRoutes } from "./routes.js"
import { GAMELOG_EVENTS } from "./published.js"
import { PollIntervalSetting } from "./settings.js"

/** Steam64s RCON shows beside DayZ IDs (the `players` list, whose ids the logs proved) are kept with the player. */
const linkPlayers = Effect.gen(function* () {
  const servers = yield* Servers
  const history = yield* PlayerHistory
  for (const server of yield* servers.running) {
    const players = yield* server.actor.players.pipe(Effect.orElseSucceed(() => []))
    const pairs = players.flatMap((p) => (p.steam64 !== null && p.dayzId !== null ? [{ playerId: p.dayzId, steam64: p.steam64 }] : []))
    if (pairs.length > 0) yield* history.link(pairs)
  }
})

/** `playtime_hours` and `servers_seen` of a trust lookup: every server's sessions of the player. */
const trustHistory = Layer.effect(
  TrustPlayerHistory,
  Effect.map(PlayerHistory, (history) => ({
    of: (steam64: string) =>
      history.playtimeOf(steam64).pipe(
        Effect.map(Option.fromNullable),
        Effect.catchAll((error) => Effect.as(Effect.logWarning(`trust: playtime unreadable: ${error.message}`), Option.none()))
      )
  }))
)

const jobs: ReadonlyArray<Job<Ingest | Servers | PlayerHistory>> = [
  { name: "ingest", every: currentSetting(PollIntervalSetting), initialDelay: "1 second", run: Effect.flatMap(Ingest, (ingest) => ingest.pollAll) },
  { name: "link-players", every: "30 seconds", run: linkPlayers }
]

export const GameLogPlugin = Plugin.make({
  id: "gamelog",
  description: "Game data from the admin logs: kill feed, leaderboard and seasons, player history, live map positions",
  dependsOn: ["servers", "actions", "players", "maps"],
  requires: [AuditTrail],
  permissions: [{ name: LEADERBOARD_MANAGE, description: "Start a new leaderboard season (reset the leaderboard)" }],
  migrations,
  // The trust network's playtime signals come from the player history.
  provides: [TrustPlayerHistory],
  layer: Layer.provideMerge(
    Layer.merge(trustHistory, playerDetailsHistory),
    Layer.mergeAll(Ingest.layer, KillFeed.layer, Leaderboard.layer, LiveMap.layer, PlayerHistory.layer)
  ),
  http: Plugin.http(GameLogApi, Layer.mergeAll(GameFeedRoutes, GameServerRoutes, PlayerHistoryRoutes), { quietPaths: ["/api/killfeed/stream"] }),
  // A wipe starts a new season: kills after it count on a fresh leaderboard.
  events: [on(ServerWiped, (event) => Effect.flatMap(Leaderboard, (board) => board.startSeason(event.serverId, "wipe")), "newSeasonOnWipe")],
  publishes: GAMELOG_EVENTS,
  settings: [PollIntervalSetting],
  jobs
})

export { GameLogApi, LEADERBOARD_MANAGE } from "./contract/Api.js"
export { GameKillRecorded, GamePlayerJoined, GamePositionsChanged, GameSeasonStarted } from "./events.js"
export { Ingest, READ_CHUNK } from "./Ingest.js"
export type { IngestReport, IngestShape } from "./Ingest.js"
export { KillFeed } from "./KillFeed.js"
export { Leaderboard } from "./Leaderboard.js"
export { LiveMap } from "./LiveMap.js"
export { PlayerHistory } from "./PlayerHistory.js"
export type { PlayerHistoryShape as GamePlayerHistoryShape } from "./PlayerHistory.js"
export { parseAdmLine } from "./internal/adm/parse.js"
export type { AdmEvent, AdmLine } from "./internal/adm/events.js"
export { playerKeyOf } from "./internal/playerKey.js"
