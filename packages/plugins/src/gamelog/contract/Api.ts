/**
 * The game-log plugin's HTTP contract: the kill feed (and its live
 * stream), the leaderboard and its seasons, player history, the live map's
 * data and the ingester's status. Kill feed, leaderboard and map need any
 * signed-in caller (the spec's "Any auth"); a caller scoped to some servers
 * sees those servers' rows only. Player history needs `players.view`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, IsoDateOrDateTime, NotFound, pageFields, pageParams, QueryInteger, ServerNotFound, ServerUnreadable, StoredText } from "@garrison/runtime"

export const LEADERBOARD_MANAGE = "leaderboard.manage"
export const PLAYERS_VIEW = "players.view"

export const KILL_PAGE = { defaultLimit: 50, maxLimit: 500 } as const
export const HISTORY_PAGE = { defaultLimit: 50, maxLimit: 200 } as const
export const LEADERBOARD_SORTS = ["kills", "headshots", "longestKill", "kd"] as const
export const KILLER_KINDS = ["player", "zombie", "animal", "environment", "suicide"] as const

const oneOf = <const T extends ReadonlyArray<string>>(values: T) =>
  Schema.Literal(...values).annotations({ message: () => `expected one of ${values.join(", ")}` })

const Text = (max: number) => StoredText.pipe(Schema.maxLength(max, { message: () => `must be at most ${max} characters` }))

import { killFields, Position } from "../internal/killFields.js"
export { Position }

/** A death, as the feed, its stream and the `game.kill` event show it (see README). */
export class Kill extends Schema.Class<Kill>("Kill")(killFields) {}

export class KillPage extends Schema.Class<KillPage>("KillPage")({ ...pageFields(Kill) }) {}

export const KillFeedParams = Schema.Struct({
  ...pageParams(KILL_PAGE),
  serverId: Schema.optional(Text(100)),
  /** Killer or victim, any id form. */
  player: Schema.optional(Text(100)),
  since: Schema.optional(IsoDateOrDateTime),
  until: Schema.optional(IsoDateOrDateTime),
  kind: Schema.optional(oneOf(KILLER_KINDS))
})

export const KillStreamParams = Schema.Struct({ serverId: Schema.optional(Text(100)) })

export const LongestKill = Schema.Struct({ distance: Schema.Number, weapon: Schema.NullOr(Schema.String), victim: Schema.NullOr(Schema.String), timestamp: Schema.NullOr(Schema.String) })

export class LeaderboardEntry extends Schema.Class<LeaderboardEntry>("LeaderboardEntry")({
  rank: Schema.Number,
  playerId: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  name: Schema.String,
  kills: Schema.Number,
  deaths: Schema.Number,
  headshots: Schema.Number,
  longestKill: Schema.NullOr(LongestKill),
  kd: Schema.Number,
  headshotPct: Schema.Number
}) {}

export class Season extends Schema.Class<Season>("Season")({
  id: Schema.String,
  serverId: Schema.String,
  number: Schema.Number,
  reason: Schema.String,
  startedAt: Schema.String,
  endedAt: Schema.NullOr(Schema.String)
}) {}

export class Leaderboard extends Schema.Class<Leaderboard>("Leaderboard")({
  sort: Schema.String,
  /** The season read (one server's), or null for all servers' current seasons. */
  season: Schema.NullOr(Season),
  entries: Schema.Array(LeaderboardEntry)
}) {}

export const LeaderboardParams = Schema.Struct({
  serverId: Schema.optional(Text(100)),
  season: Schema.optional(Text(100)),
  sort: Schema.optional(oneOf(LEADERBOARD_SORTS)),
  limit: Schema.optional(QueryInteger({ minimum: 1, maximum: 100, default: 20, about: "Entries" }))
})

export class SeasonList extends Schema.Class<SeasonList>("SeasonList")({ items: Schema.Array(Season) }) {}
export const SeasonsParams = Schema.Struct({ serverId: Schema.optional(Text(100)) })
export const NewSeasonBody = Schema.Struct({ reason: Schema.optional(Text(200)) })

export class PlayerServer extends Schema.Class<PlayerServer>("PlayerServer")({
  serverId: Schema.String,
  firstSeen: Schema.String,
  lastSeen: Schema.String,
  sessions: Schema.Number,
  playtimeHours: Schema.Number,
  online: Schema.Boolean
}) {}

export class PlayerSummary extends Schema.Class<PlayerSummary>("PlayerSummary")({
  playerId: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  name: Schema.String,
  firstSeen: Schema.String,
  lastSeen: Schema.String,
  playtimeHours: Schema.Number,
  serversPlayed: Schema.Number
}) {}

export class PlayerHistoryPage extends Schema.Class<PlayerHistoryPage>("PlayerHistoryPage")({ ...pageFields(PlayerSummary) }) {}

export class PlayerDetail extends Schema.Class<PlayerDetail>("PlayerDetail")({
  playerId: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  name: Schema.String,
  firstSeen: Schema.String,
  lastSeen: Schema.String,
  playtimeHours: Schema.Number,
  serversPlayed: Schema.Number,
  names: Schema.Array(Schema.Struct({ name: Schema.String, firstSeen: Schema.String, lastSeen: Schema.String })),
  servers: Schema.Array(PlayerServer),
  kills: Schema.Number,
  deaths: Schema.Number
}) {}

export const HistoryParams = Schema.Struct({
  ...pageParams(HISTORY_PAGE),
  /** A name (or part of one, any case) or any id form. */
  q: Schema.optional(Text(100)),
  serverId: Schema.optional(Text(100))
})

export const MapInfo = Schema.Struct({
  serverId: Schema.String,
  /** The mission template of the server's config (`dayzOffline.chernarusplus`), when it names one. */
  mission: Schema.NullOr(Schema.String),
  map: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String, worldSize: Schema.Number })),
  /** Where positions come from: `agent` (live, with vehicles) or `log` (the admin log's last sightings). */
  source: Schema.String
})

export const MapPlayer = Schema.Struct({
  playerId: Schema.NullOr(Schema.String),
  platformId: Schema.NullOr(Schema.String),
  name: Schema.String,
  x: Schema.Number,
  y: Schema.Number,
  z: Schema.Number,
  at: Schema.String,
  ageSeconds: Schema.Number,
  online: Schema.Boolean
})

export const MapVehicle = Schema.Struct({ id: Schema.String, type: Schema.String, x: Schema.Number, y: Schema.Number, z: Schema.Number })

export const MapPositions = Schema.Struct({
  serverId: Schema.String,
  source: Schema.String,
  players: Schema.Array(MapPlayer),
  vehicles: Schema.Array(MapVehicle),
  at: Schema.String
})

export const MapPlayersParams = Schema.Struct({
  /** Also players who left (their last sighting), up to this many hours ago (default: online players only). */
  offlineHours: Schema.optional(QueryInteger({ minimum: 0, maximum: 720, default: 0, about: "Hours" }))
})

export const IngestStatus = Schema.Struct({
  serverId: Schema.String,
  file: Schema.NullOr(Schema.String),
  offset: Schema.Number,
  linesRead: Schema.Number,
  linesUnknown: Schema.Number,
  updatedAt: Schema.NullOr(Schema.String)
})

const ServerPath = Schema.Struct({ id: Schema.String })
/** A stream of server-sent events. */
const EventStream = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" }))

export class GameFeedGroup extends HttpApiGroup.make("gameFeed").annotate(OpenApi.Description, "The public kill feed and leaderboard.")
  .add(
    HttpApiEndpoint.get("killfeed", "/api/killfeed")
      .setUrlParams(KillFeedParams)
      .addSuccess(KillPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "The kill feed")
      .annotate(
        OpenApi.Description,
        "Deaths read from the servers' admin logs, newest first; by server, player (killer or victim, any id form), time (`since`, `until`) and killer kind. A caller scoped to some servers sees theirs only."
      )
  )
  .add(
    HttpApiEndpoint.get("killStream", "/api/killfeed/stream")
      .setUrlParams(KillStreamParams)
      .addSuccess(EventStream)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "New kills, live (server-sent events)")
      .annotate(OpenApi.Description, "Each kill as an event `kill` whose data is a Kill, as it is read from a log; a comment every 15 s keeps the stream open.")
  )
  .add(
    HttpApiEndpoint.get("leaderboard", "/api/leaderboard")
      .setUrlParams(LeaderboardParams)
      .addSuccess(Leaderboard)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "The leaderboard")
      .annotate(
        OpenApi.Description,
        "Top `limit` (20) players by `sort` (kills, headshots, longestKill, kd): one server's current season, a past `season` of it, or every visible server's current season together."
      )
  )
  .add(
    HttpApiEndpoint.get("seasons", "/api/leaderboard/seasons")
      .setUrlParams(SeasonsParams)
      .addSuccess(SeasonList)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Leaderboard seasons")
      .annotate(OpenApi.Description, "Every season of the visible servers (or of `serverId`), newest first. A wipe or an admin's reset starts the next one.")
  )
  .annotate(Access, Access.anyAuth) {}

export class GameServerGroup extends HttpApiGroup.make("gameServer").annotate(OpenApi.Description, "A server's live map, player positions and leaderboard seasons.")
  .add(
    HttpApiEndpoint.post("newSeason", "/api/servers/:id/leaderboard/seasons")
      .setPath(ServerPath)
      .setPayload(NewSeasonBody)
      .addSuccess(Season, { status: 201 })
      .addError(BadRequest)
      .annotate(Access, Access.permission(LEADERBOARD_MANAGE))
      .annotate(OpenApi.Summary, "Start a new leaderboard season")
      .annotate(OpenApi.Description, "Ends the server's season; kills from now on count in the next. Past seasons stay readable. Audit `leaderboard.season`.")
      .annotate(BodyExample, { reason: "monthly reset" })
  )
  .add(
    HttpApiEndpoint.get("map", "/api/servers/:id/map")
      .setPath(ServerPath)
      .addSuccess(MapInfo)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "The server's map")
      .annotate(OpenApi.Description, "Its mission, the map's name and world size (metres), and where positions come from.")
  )
  .add(
    HttpApiEndpoint.get("mapPlayers", "/api/servers/:id/map/players")
      .setPath(ServerPath)
      .setUrlParams(MapPlayersParams)
      .addSuccess(MapPositions)
      .addError(BadRequest)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Players' positions")
      .annotate(
        OpenApi.Description,
        "From the server's agent when it has one (live, with vehicles), else the admin log's last sighting of each player with its age."
      )
  )
  .add(
    HttpApiEndpoint.get("mapStream", "/api/servers/:id/map/stream")
      .setPath(ServerPath)
      .addSuccess(EventStream)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Positions, live (server-sent events)")
      .annotate(OpenApi.Description, "An event `positions` (data: as GET map/players) at once and whenever positions change, at most every 2 s; a comment every 15 s.")
  )
  .add(
    HttpApiEndpoint.get("ingest", "/api/servers/:id/gamelog")
      .setPath(ServerPath)
      .addSuccess(IngestStatus)
      .annotate(Access, Access.permission("server.view"))
      .annotate(OpenApi.Summary, "How far the admin log has been read")
      .annotate(OpenApi.Description, "The file followed, the byte offset reached, lines read and lines not understood (counted and skipped).")
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable) {}

export class PlayerHistoryGroup extends HttpApiGroup.make("playerHistory").annotate(OpenApi.Description, "Players seen on the servers and their history.")
  .add(
    HttpApiEndpoint.get("search", "/api/player-history")
      .setUrlParams(HistoryParams)
      .addSuccess(PlayerHistoryPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Players seen")
      .annotate(
        OpenApi.Description,
        "Every player the admin logs named, last seen first; `q` finds a name used (any case, part of it) or any id form (DayZ ID, Steam64, Steam2, Steam3). A caller scoped to some servers sees players of those servers, with those servers' figures."
      )
  )
  .add(
    HttpApiEndpoint.get("player", "/api/player-history/:player")
      .setPath(Schema.Struct({ player: Text(100) }))
      .addSuccess(PlayerDetail)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "One player's history")
      .annotate(OpenApi.Description, "Names used, first and last seen, playtime per server, kills and deaths; the player by any id form.")
  )
  .annotate(Access, Access.permission(PLAYERS_VIEW)) {}

export class GameLogApi extends HttpApi.make("gamelog").add(GameFeedGroup).add(GameServerGroup).add(PlayerHistoryGroup) {}
