/**
 * `POST /api/servers/:id/players/:playerId/ban`: resolves the player on that
 * server (as the kick route does), adds a global ban, and kicks the player
 * from every running server where they are online.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { CurrentPrincipal, NotFound, parsePlatformId, parsePlayers, PlayerIds, Supervisor } from "@garrison/runtime"
import { findPlayer } from "../../players/internal/resolve.js"
import { actorErrorToHttp, actorOf, playerView, ServerEntries } from "../../servers/index.js"
import { BansApi, KickedOn, type PlayerBanBody, PlayerBanReply } from "../contract/Api.js"
import { Bans } from "../Bans.js"
import { InvalidBan } from "../errors.js"
import { expirationToIso } from "../internal/expiration.js"
import { kickEverywhere } from "../internal/kick.js"
import { exists, invalid } from "./httpErrors.js"

const badPlatformId = (message: string) => new InvalidBan({ field: "platformId", message: `platformId: ${message}` })

export const PlayerBanRoutes = HttpApiBuilder.group(BansApi, "playerBan", (handlers) =>
  Effect.gen(function* () {
    const bans = yield* Bans
    const entries = yield* ServerEntries
    const supervisor = yield* Supervisor
    const withServers = <A, E>(effect: Effect.Effect<A, E, Supervisor | ServerEntries>) =>
      effect.pipe(Effect.provideService(ServerEntries, entries), Effect.provideService(Supervisor, supervisor))

    /** Who `:playerId` is: Steam64, the GUID to kick by, and a name. */
    const resolve = (serverId: string, playerId: string, body: PlayerBanBody) =>
      Effect.gen(function* () {
        const actor = yield* withServers(actorOf(serverId))
        const fromPath = parsePlatformId(playerId)
        if (Either.isRight(fromPath)) {
          // A platform id in the path: the player need not be online.
          if (body.platformId !== undefined && body.platformId !== fromPath.right) {
            return yield* badPlatformId("does not match the player id in the path")
          }
          return { steam64: fromPath.right, name: body.playerName ?? fromPath.right }
        }
        const players = parsePlayers(yield* actor.rcon("players").pipe(Effect.mapError(actorErrorToHttp)))
        const player = findPlayer(players, playerId)
        if (player === undefined) {
          return yield* new NotFound({ message: `no player "${playerId}" is online on this server` })
        }
        // A BattlEye GUID is a hash of the Steam64: it cannot be turned back, so the caller names the account.
        if (body.platformId === undefined) {
          return yield* badPlatformId("required: the player's Steam64 cannot be derived from a BattlEye GUID")
        }
        if (player.guid !== "" && PlayerIds.toBattlEyeGuid(body.platformId) !== player.guid) {
          return yield* badPlatformId(`does not match the BattlEye GUID of ${player.name}`)
        }
        return { steam64: body.platformId, name: body.playerName ?? player.name }
      })

    return handlers.handle("ban", ({ path, payload }) =>
      Effect.gen(function* () {
        const who = yield* resolve(path.id, path.playerId, payload)
        const expiresAt = yield* expirationToIso(payload.expiration, yield* Clock.currentTimeMillis)
        const caller = yield* CurrentPrincipal
        const ban = yield* bans.add(
          { platformId: who.steam64, playerName: who.name, reason: payload.reason, expiresAt, source: "manual" },
          caller.name
        )
        const kicked = yield* kickEverywhere(PlayerIds.toBattlEyeGuid(who.steam64), ban.reason).pipe(
          Effect.provideService(Supervisor, supervisor)
        )
        return new PlayerBanReply({
          ban,
          kicked: kicked.map((k) => new KickedOn({ serverId: k.serverId, player: playerView(k.player) }))
        })
      }).pipe(
        Effect.catchTags({
          InvalidBan: invalid,
          BanExists: exists,
          BanStoreError: Effect.die
        })
      )
    )
  })
)

