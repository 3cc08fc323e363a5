/**
 * Kicking everyone on a server: the players it lists right now (fresher
 * than the sampled state), each kicked on its own, so one failed kick does
 * not spare the rest. Fails only when the players cannot be listed.
 */
import type { ActorError, OnlinePlayer } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import type { ServerHandle } from "../Servers.js"

export interface KickedEveryone {
  readonly kicked: ReadonlyArray<OnlinePlayer>
  readonly failed: ReadonlyArray<{ readonly player: OnlinePlayer; readonly error: ActorError }>
}

export const kickEveryone = (server: ServerHandle, reason: string): Effect.Effect<KickedEveryone, ActorError> =>
  Effect.gen(function* () {
    const players = yield* server.control.players
    const kicked: Array<OnlinePlayer> = []
    const failed: Array<{ player: OnlinePlayer; error: ActorError }> = []
    for (const player of players) {
      const result = yield* Effect.either(server.control.kick(player, reason))
      if (result._tag === "Right") kicked.push(player)
      else failed.push({ player, error: result.left })
    }
    return { kicked, failed }
  })
