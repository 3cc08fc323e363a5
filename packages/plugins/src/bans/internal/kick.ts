/** Finding a player on every running server, and kicking a banned one from all of them. */
import { type OnlinePlayer, PlayerIds, type ServerActor, Supervisor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export interface Kicked {
  readonly serverId: string
  readonly player: OnlinePlayer
}

/** RCON kick reasons are one line and short. */
const kickReason = (reason: string) => `Banned: ${reason}`.replace(/[\r\n]+/g, " ").slice(0, 200)

/** The player with this Steam64 (by the ids the logs prove, or by the GUID it hashes to). */
const isPlayer = (steam64: PlayerIds.Steam64) => {
  const guid = PlayerIds.toBattlEyeGuid(steam64)
  return (player: OnlinePlayer) => player.steam64 === steam64 || player.guid === guid
}

/**
 * Runs `visit` on every running server where the player is online. A server
 * that does not answer is logged and skipped.
 */
const onEveryServer = <A>(
  steam64: PlayerIds.Steam64,
  visit: (actor: ServerActor.ServerActor, player: OnlinePlayer) => Effect.Effect<A, { readonly message: string }>
) =>
  Effect.gen(function* () {
    const actors = yield* Effect.flatMap(Supervisor, (supervisor) => supervisor.all)
    const matches = isPlayer(steam64)
    const results = yield* Effect.forEach(
      actors,
      (actor) =>
        Effect.gen(function* () {
          const state = yield* actor.state
          if (state.status !== "running") return Option.none<A>()
          const player = (yield* actor.players).find(matches)
          if (player === undefined) return Option.none<A>()
          return Option.some(yield* visit(actor, player))
        }).pipe(
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`bans: no answer from server ${actor.serverId}: ${error.message}`), Option.none<A>())
          )
        ),
      { concurrency: "unbounded" }
    )
    return results.flatMap(Option.toArray)
  })

/** The player as a running server lists them now, if one does (for the name a ban keeps). */
export const findOnline = (steam64: PlayerIds.Steam64) =>
  Effect.map(
    onEveryServer(steam64, (_, player) => Effect.succeed(player)),
    (found) => Option.fromNullable(found[0])
  )

/** Every running server is asked for its players; the player with this Steam64 is kicked wherever online. */
export const kickEverywhere = (steam64: PlayerIds.Steam64, reason: string) =>
  onEveryServer(steam64, (actor, player) =>
    Effect.as(actor.rcon(`kick ${player.slot} ${kickReason(reason)}`), { serverId: actor.serverId, player } satisfies Kicked)
  )
