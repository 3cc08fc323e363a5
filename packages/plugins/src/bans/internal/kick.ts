/** Finding a player on every running server, and kicking a banned one from all of them. */
import { type OnlinePlayer, PlayerIds } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ServerHandle, Servers } from "../../servers/index.js"

export interface Kicked {
  readonly serverId: string
  readonly player: OnlinePlayer
}

/** The player with this Steam64 (by the ids the logs prove, or by the GUID it hashes to). */
const isPlayer = (steam64: PlayerIds.Steam64) => {
  const guid = PlayerIds.toBattlEyeGuid(steam64)
  return (player: OnlinePlayer) => player.steam64 === steam64 || player.guid === guid
}

/** Which servers a caller may reach (`canSeeServer`): a moderator of one server never acts on, or learns of, another. */
export type ServerFilter = (serverId: string) => boolean

/**
 * Runs `visit` on every running server the caller may reach where the
 * player is online. A server that does not answer is logged and skipped.
 */
const onEveryServer = <A>(
  steam64: PlayerIds.Steam64,
  reachable: ServerFilter,
  visit: (server: ServerHandle, player: OnlinePlayer) => Effect.Effect<A, { readonly message: string }>
) =>
  Effect.gen(function* () {
    const running = (yield* Effect.flatMap(Servers, (servers) => servers.running)).filter((server) => reachable(server.id))
    const matches = isPlayer(steam64)
    const results = yield* Effect.forEach(
      running,
      (server) =>
        Effect.gen(function* () {
          const player = (yield* server.control.players).find(matches)
          if (player === undefined) return Option.none<A>()
          return Option.some(yield* visit(server, player))
        }).pipe(
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`bans: no answer from server ${server.id}: ${error.message}`), Option.none<A>())
          )
        ),
      { concurrency: "unbounded" }
    )
    return results.flatMap(Option.toArray)
  })

/** The player as a running server lists them now, if one does (for the name a ban keeps). */
export const findOnline = (steam64: PlayerIds.Steam64, reachable: ServerFilter) =>
  Effect.map(
    onEveryServer(steam64, reachable, (_, player) => Effect.succeed(player)),
    (found) => Option.fromNullable(found[0])
  )

/** Every running server the caller may reach is asked for its players; the player is kicked wherever online. */
export const kickEverywhere = (steam64: PlayerIds.Steam64, reason: string, reachable: ServerFilter) =>
  onEveryServer(steam64, reachable, (server, player) =>
    Effect.as(server.control.kick(player, `Banned: ${reason}`), { serverId: server.id, player } satisfies Kicked)
  )
