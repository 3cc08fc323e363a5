/**
 * The handlers behind `PlayersApi`: each is one round trip through the
 * server's `GameControl`. A kick that went through publishes `PlayerKicked`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { type ActorError, actorErrorToHttp, type Conflict, CurrentPrincipal, EventBus, type GameControl, type NotFound } from "@garrison/runtime"
import { playerView, type ServerHandle, Servers } from "../servers/index.js"
import { PlayersApi } from "./contract/Api.js"
import { PlayerKicked } from "./events.js"
import { resolvePlayer } from "./http/resolvePlayer.js"

const DEFAULT_KICK_REASON = "Kicked by an admin"

export const PlayersRoutes = HttpApiBuilder.group(PlayersApi, "players", (handlers) =>
  Effect.gen(function* () {
    const servers = yield* Servers
    const bus = yield* EventBus
    /** Runs `use` on the server's game control; refusals answer as every server route does. */
    const withControl = <A, R>(serverId: string, use: (control: GameControl, server: ServerHandle) => Effect.Effect<A, ActorError | NotFound | Conflict, R>) =>
      Effect.flatMap(servers.get(serverId), (server) =>
        use(server.control, server).pipe(Effect.catchTag("ActorError", (error) => Effect.fail(actorErrorToHttp(error))))
      )

    return handlers
      .handle("rcon", ({ path, payload }) =>
        withControl(path.id, (control) => Effect.map(control.raw(payload.command), (response) => ({ response })))
      )
      .handle("message", ({ path, payload }) =>
        withControl(path.id, (control) => Effect.as(control.broadcast(payload.message), { sent: payload.message }))
      )
      .handle("players", ({ path }) =>
        withControl(path.id, (control) =>
          Effect.map(control.players, (players) => ({ items: players.map(playerView), nextCursor: null, total: players.length }))
        )
      )
      .handle("kick", ({ path, payload }) =>
        withControl(path.id, (control, server) =>
          Effect.gen(function* () {
            const player = yield* resolvePlayer(yield* control.players, path.playerId)
            const reason = payload.reason ?? DEFAULT_KICK_REASON
            yield* control.kick(player, reason)
            const [entry, caller] = yield* Effect.all([server.entry, CurrentPrincipal])
            yield* bus.publish(
              new PlayerKicked({ serverId: entry.id, name: entry.name, slot: player.slot, playerName: player.name, steam64: player.steam64, reason, by: caller.name })
            )
            return { kicked: playerView(player), reason }
          })
        )
      )
  })
)
