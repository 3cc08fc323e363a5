/**
 * `POST /api/servers/:id/players/:playerId/ban`: resolves the player on that
 * server (as the kick route does), adds a global ban under the player's
 * name, and kicks the player from every running server where they are
 * online.
 *
 * An online player named by slot, GUID or name is banned under the Steam64
 * the server's logs prove for them; `platformId` is needed only while the
 * logs have not named them (and must match what they show). A platform id in
 * the path needs no one online; the ban then takes the name a running server
 * shows for that player, if any.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { actorErrorToHttp, auditActorOf, canSeeServer, CurrentPrincipal, fieldBadRequest, parsePlatformId, PlayerIds, storeDefect } from "@garrison/runtime"
import { resolvePlayer } from "../../players/index.js"
import { playerView, Servers } from "../../servers/index.js"
import { BansApi, KickedOn, type PlayerBanBody, PlayerBanReply } from "../contract/Api.js"
import { Bans } from "../Bans.js"
import { InvalidBan } from "../errors.js"
import { expirationToIso } from "../internal/expiration.js"
import { findOnline, kickEverywhere } from "../internal/kick.js"
import { exists } from "./httpErrors.js"

const badPlatformId = (message: string) => new InvalidBan({ field: "platformId", message: `platformId: ${message}` })

export const PlayerBanRoutes = HttpApiBuilder.group(BansApi, "playerBan", (handlers) =>
  Effect.gen(function* () {
    const bans = yield* Bans
    const servers = yield* Servers
    const withServers = Effect.provideService(Servers, servers)

    /** Who `:playerId` is: the Steam64 to ban and kick, and the name the ban keeps. */
    const resolve = (serverId: string, playerId: string, body: PlayerBanBody) =>
      Effect.gen(function* () {
        const server = yield* servers.get(serverId)
        const fromPath = parsePlatformId(playerId)
        if (Either.isRight(fromPath)) {
          // A platform id in the path: the player need not be online.
          if (body.platformId !== undefined && body.platformId !== fromPath.right) {
            return yield* badPlatformId("does not match the player id in the path")
          }
          const caller = yield* CurrentPrincipal
          const online =
            body.playerName === undefined ? yield* withServers(findOnline(fromPath.right, (id) => canSeeServer(caller, id))) : Option.none()
          return { steam64: fromPath.right, name: body.playerName ?? Option.match(online, { onNone: () => fromPath.right, onSome: (p) => p.name }) }
        }
        const player = yield* resolvePlayer(yield* server.control.players.pipe(Effect.mapError(actorErrorToHttp)), playerId)
        const name = body.playerName ?? player.name
        if (body.platformId === undefined) {
          // A BattlEye GUID cannot be turned back into a Steam64: without the logs, the caller must name the account.
          if (player.steam64 === null) {
            return yield* badPlatformId(
              `required: the server's logs do not name ${player.name}'s Steam64 yet (the RPT does when they connect)`
            )
          }
          return { steam64: player.steam64 as PlayerIds.Steam64, name }
        }
        if (player.steam64 !== null && player.steam64 !== body.platformId) {
          return yield* badPlatformId(`does not match the Steam64 the server's logs show for ${player.name}`)
        }
        if (player.guid !== "" && PlayerIds.toBattlEyeGuid(body.platformId) !== player.guid) {
          return yield* badPlatformId(`does not match the BattlEye GUID of ${player.name}`)
        }
        return { steam64: body.platformId, name }
      })

    return handlers.handle("ban", ({ path, payload }) =>
      Effect.gen(function* () {
        const who = yield* resolve(path.id, path.playerId, payload)
        const expiresAt = yield* expirationToIso(payload.expiration, yield* Clock.currentTimeMillis)
        const caller = yield* CurrentPrincipal
        const ban = yield* bans.add(
          { platformId: who.steam64, playerName: who.name, reason: payload.reason, expiresAt, source: "manual" },
          auditActorOf(caller)
        )
        // The ban is global (every server's ban.txt); the kick now reaches only the servers the caller may see.
        const kicked = yield* withServers(kickEverywhere(who.steam64, ban.reason, (id) => canSeeServer(caller, id)))
        return new PlayerBanReply({
          ban,
          kicked: kicked.map((k) => new KickedOn({ serverId: k.serverId, player: playerView(k.player) }))
        })
      }).pipe(
        Effect.catchTags({
          InvalidBan: fieldBadRequest,
          BanExists: exists,
          BanStoreError: storeDefect
        })
      )
    )
  })
)

