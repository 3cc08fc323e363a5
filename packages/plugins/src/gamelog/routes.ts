/** The handlers behind `GameLogApi`. Store faults are real faults: 500 with a request id. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Stream from "effect/Stream"
import {
  AuditTrail,
  auditActorFields,
  auditActorOf,
  canSeeServer,
  CurrentPrincipal,
  cursorBadRequest,
  EventBus,
  fieldBadRequest,
  NotFound,
  recordForRequest,
  sseEvent,
  storeDefect,
  visibleServers
} from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { GameLogApi, HISTORY_PAGE, KILL_PAGE } from "./contract/Api.js"
import { GameKillRecorded, GamePositionsChanged } from "./events.js"
import { playerKeyOf } from "./internal/playerKey.js"
import { KillFeed } from "./KillFeed.js"
import { Leaderboard, type LeaderboardSort } from "./Leaderboard.js"
import { LiveMap } from "./LiveMap.js"
import { PlayerHistory } from "./PlayerHistory.js"
import { loadCursor } from "./internal/ingest/store.js"
import * as SqlClient from "@effect/sql/SqlClient"

const HEARTBEAT = "15 seconds"
const encoder = new TextEncoder()
const heartbeat = Stream.tick(HEARTBEAT).pipe(Stream.map(() => encoder.encode(": heartbeat\n\n")))
const sse = (body: Stream.Stream<Uint8Array>) =>
  HttpServerResponse.stream(body, { contentType: "text/event-stream", headers: { "cache-control": "no-cache", "x-accel-buffering": "no" } })

const playerParam = (field: string, text: string) =>
  Either.match(playerKeyOf(text), {
    onLeft: (why) => fieldBadRequest({ field, message: `${field}: ${why}` }),
    onRight: (key) => Effect.succeed(key.playerId)
  })

/** A scoped caller naming a server they may not see learns nothing about it: the same 404 as a server that does not exist. */
const visibleServer = (serverId: string | undefined) =>
  Effect.gen(function* () {
    if (serverId === undefined) return
    if (!canSeeServer(yield* CurrentPrincipal, serverId)) return yield* Effect.fail(new NotFound({ message: `no server with id ${serverId}` }))
  })

export const GameFeedRoutes = HttpApiBuilder.group(GameLogApi, "gameFeed", (handlers) =>
  Effect.gen(function* () {
    const feed = yield* KillFeed
    const board = yield* Leaderboard
    const bus = yield* EventBus
    return handlers
      .handle("killfeed", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          const playerId = urlParams.player === undefined ? undefined : yield* playerParam("player", urlParams.player)
          return yield* feed.list({
            visible: visibleServers(caller),
            ...(urlParams.serverId === undefined ? {} : { serverId: urlParams.serverId }),
            ...(playerId === undefined ? {} : { playerId }),
            ...(urlParams.since === undefined ? {} : { sinceMs: urlParams.since.getTime() }),
            ...(urlParams.until === undefined ? {} : { untilMs: urlParams.until.getTime() }),
            ...(urlParams.kind === undefined ? {} : { kind: urlParams.kind }),
            limit: urlParams.limit ?? KILL_PAGE.defaultLimit,
            ...(urlParams.cursor === undefined ? {} : { cursor: urlParams.cursor })
          })
        }).pipe(Effect.catchTags({ InvalidCursor: cursorBadRequest, GameLogStoreError: storeDefect }))
      )
      .handle("killStream", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          const visible = visibleServers(caller)
          const wanted = (serverId: string) => (visible === "all" || visible.has(serverId)) && (urlParams.serverId === undefined || urlParams.serverId === serverId)
          // Subscribed when the body starts, before its first heartbeat; unsubscribed when it ends.
          const kills = Stream.unwrapScoped(Effect.map(bus.subscribe(GameKillRecorded), (events) => events)).pipe(
            Stream.filter((kill) => wanted(kill.serverId)),
            Stream.buffer({ capacity: 1000, strategy: "sliding" }),
            Stream.map(({ _tag, ...kill }) => sseEvent("kill", kill))
          )
          return sse(Stream.merge(heartbeat, kills))
        })
      )
      .handle("leaderboard", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          const sort: LeaderboardSort = urlParams.sort ?? "kills"
          const limit = urlParams.limit ?? 20
          if (urlParams.season !== undefined) {
            const season = yield* board.season(urlParams.season)
            if (season === undefined || !canSeeServer(caller, season.serverId) || (urlParams.serverId !== undefined && urlParams.serverId !== season.serverId)) {
              return yield* Effect.fail(new NotFound({ message: `no season ${urlParams.season}` }))
            }
            return { sort, season, entries: yield* board.top([season.id], sort, limit) }
          }
          if (urlParams.serverId !== undefined) {
            yield* visibleServer(urlParams.serverId)
            const season = yield* board.current(urlParams.serverId)
            return { sort, season: season ?? null, entries: season === undefined ? [] : yield* board.top([season.id], sort, limit) }
          }
          const current = (yield* board.seasons(visibleServers(caller))).filter((s) => s.endedAt === null)
          return { sort, season: null, entries: yield* board.top(current.map((s) => s.id), sort, limit) }
        }).pipe(Effect.catchTags({ GameLogStoreError: storeDefect }))
      )
      .handle("seasons", ({ urlParams }) =>
        Effect.gen(function* () {
          yield* visibleServer(urlParams.serverId).pipe(Effect.catchAll(() => Effect.void))
          const caller = yield* CurrentPrincipal
          return { items: yield* board.seasons(visibleServers(caller), urlParams.serverId) }
        }).pipe(Effect.catchTags({ GameLogStoreError: storeDefect }))
      )
  })
)

export const GameServerRoutes = HttpApiBuilder.group(GameLogApi, "gameServer", (handlers) =>
  Effect.gen(function* () {
    const servers = yield* Servers
    const board = yield* Leaderboard
    const map = yield* LiveMap
    const audit = yield* AuditTrail
    const bus = yield* EventBus
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("newSeason", ({ path, payload }) =>
        Effect.gen(function* () {
          yield* servers.entry(path.id)
          const caller = yield* CurrentPrincipal
          const reason = payload.reason?.trim() || "reset"
          const season = yield* board.startSeason(path.id, reason)
          yield* recordForRequest(audit, { ...auditActorFields(auditActorOf(caller)), action: "leaderboard.season", target: path.id, result: "success", details: { season: season.number, reason } })
          return season
        }).pipe(Effect.catchTags({ GameLogStoreError: storeDefect }))
      )
      .handle("map", ({ path }) => Effect.flatMap(servers.get(path.id), map.info))
      .handle("mapPlayers", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const server = yield* servers.get(path.id)
          return yield* map.positions(server, yield* CurrentPrincipal, urlParams.offlineHours ?? 0)
        }).pipe(Effect.catchTags({ GameLogStoreError: storeDefect }))
      )
      .handle("mapStream", ({ path }) =>
        Effect.gen(function* () {
          const server = yield* servers.get(path.id)
          const caller = yield* CurrentPrincipal
          const entry = yield* server.entry
          const snapshot = map.positions(server, caller, 0).pipe(
            Effect.map((positions) => sseEvent("positions", positions)),
            Effect.orElseSucceed(() => encoder.encode(": positions unavailable\n\n"))
          )
          // With an agent the positions move without log lines: asked every 2 s. Else on each change the log shows.
          const triggers =
            entry.agent !== undefined
              ? Stream.tick("2 seconds")
              : Stream.concat(
                  Stream.make(undefined),
                  Stream.unwrapScoped(Effect.map(bus.subscribe(GamePositionsChanged), (events) => events)).pipe(
                    Stream.filter((event) => event.serverId === path.id),
                    Stream.map(() => undefined)
                  )
                ).pipe(
                  // At most one snapshot every 2 s, the last change never lost: changes waiting collapse into one (sliding
                  // buffer), which waits its turn ("shape"). A chunk the filters emptied costs nothing.
                  Stream.buffer({ capacity: 1, strategy: "sliding" }),
                  Stream.throttle({ cost: (chunk) => Math.min(Chunk.size(chunk), 1), units: 1, duration: "2 seconds", strategy: "shape" })
                )
          return sse(Stream.merge(heartbeat, triggers.pipe(Stream.mapEffect(() => snapshot))))
        })
      )
      .handle("ingest", ({ path }) =>
        Effect.gen(function* () {
          yield* servers.entry(path.id)
          const cursor = yield* loadCursor(sql, path.id).pipe(Effect.orDie)
          const updated = yield* sql<{ updated_ms: number | string }>`SELECT updated_ms FROM gamelog_cursors WHERE server_id = ${path.id}`.pipe(Effect.orDie)
          return {
            serverId: path.id,
            file: cursor?.fileName ?? null,
            offset: cursor?.offset ?? 0,
            linesRead: cursor?.linesRead ?? 0,
            linesUnknown: cursor?.linesUnknown ?? 0,
            updatedAt: updated[0] === undefined ? null : new Date(Number(updated[0].updated_ms)).toISOString()
          }
        })
      )
  })
)

export const PlayerHistoryRoutes = HttpApiBuilder.group(GameLogApi, "playerHistory", (handlers) =>
  Effect.gen(function* () {
    const history = yield* PlayerHistory
    return handlers
      .handle("search", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          return yield* history.search({
            visible: visibleServers(caller),
            ...(urlParams.q === undefined ? {} : { q: urlParams.q }),
            ...(urlParams.serverId === undefined ? {} : { serverId: urlParams.serverId }),
            limit: urlParams.limit ?? HISTORY_PAGE.defaultLimit,
            ...(urlParams.cursor === undefined ? {} : { cursor: urlParams.cursor })
          })
        }).pipe(Effect.catchTags({ InvalidCursor: cursorBadRequest, GameLogStoreError: storeDefect }))
      )
      .handle("player", ({ path }) =>
        Effect.gen(function* () {
          const playerId = yield* playerParam("player", path.player)
          const found = yield* history.player(visibleServers(yield* CurrentPrincipal), playerId)
          if (found === undefined) return yield* Effect.fail(new NotFound({ message: `no player ${path.player} in the history` }))
          return found
        }).pipe(Effect.catchTags({ GameLogStoreError: storeDefect }))
      )
  })
)
