/** Kicking a banned player from every running server where they are online. */
import { parsePlayers, type RconPlayer, Supervisor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export interface Kicked {
  readonly serverId: string
  readonly player: RconPlayer
}

/** RCON kick reasons are one line and short. */
const kickReason = (reason: string) => `Banned: ${reason}`.replace(/[\r\n]+/g, " ").slice(0, 200)

/**
 * Every running server is asked for its players; those whose GUID is
 * `guid` are kicked. A server that does not answer is logged and skipped.
 */
export const kickEverywhere = (guid: string, reason: string) =>
  Effect.gen(function* () {
    const supervisor = yield* Supervisor
    const actors = yield* supervisor.all
    const results = yield* Effect.forEach(
      actors,
      (actor) =>
        Effect.gen(function* () {
          const state = yield* actor.state
          if (state.status !== "running") return Option.none<Kicked>()
          const player = parsePlayers(yield* actor.rcon("players")).find((p) => p.guid === guid)
          if (player === undefined) return Option.none<Kicked>()
          yield* actor.rcon(`kick ${player.slot} ${kickReason(reason)}`)
          return Option.some<Kicked>({ serverId: actor.serverId, player })
        }).pipe(
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`bans: could not kick on server ${actor.serverId}: ${error.message}`), Option.none<Kicked>())
          )
        ),
      { concurrency: "unbounded" }
    )
    return results.flatMap(Option.toArray)
  })
