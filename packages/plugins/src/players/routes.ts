/** The handlers behind `PlayersApi`: each is one RCON round trip through the server's actor. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { NotFound, type ServerActor, Supervisor } from "@garrison/runtime"
import { actorErrorToHttp, actorOf, playerView, ServerEntries } from "../servers/index.js"
import { PlayersApi } from "./contract/Api.js"
import { findPlayer } from "./internal/resolve.js"

const DEFAULT_KICK_REASON = "Kicked by an admin"

export const PlayersRoutes = HttpApiBuilder.group(PlayersApi, "players", (handlers) =>
  Effect.gen(function* () {
    const entries = yield* ServerEntries
    const supervisor = yield* Supervisor
    const find = (id: string) =>
      actorOf(id).pipe(Effect.provideService(ServerEntries, entries), Effect.provideService(Supervisor, supervisor))
    const rcon = (actor: ServerActor.ServerActor, command: string) => actor.rcon(command).pipe(Effect.mapError(actorErrorToHttp))
    const onlinePlayers = (actor: ServerActor.ServerActor) => actor.players.pipe(Effect.mapError(actorErrorToHttp))

    return handlers
      .handle("rcon", ({ path, payload }) =>
        find(path.id).pipe(
          Effect.flatMap((actor) => rcon(actor, payload.command)),
          Effect.map((response) => ({ response }))
        )
      )
      .handle("message", ({ path, payload }) =>
        find(path.id).pipe(
          Effect.flatMap((actor) => rcon(actor, `say -1 ${payload.message}`)),
          Effect.as({ sent: payload.message })
        )
      )
      .handle("players", ({ path }) =>
        find(path.id).pipe(
          Effect.flatMap(onlinePlayers),
          Effect.map((players) => ({ items: players.map(playerView), nextCursor: null, total: players.length }))
        )
      )
      .handle("kick", ({ path, payload }) =>
        Effect.gen(function* () {
          const actor = yield* find(path.id)
          const player = findPlayer(yield* onlinePlayers(actor), path.playerId)
          if (player === undefined) {
            return yield* Effect.fail(new NotFound({ message: `no player "${path.playerId}" is online on this server` }))
          }
          const reason = payload.reason ?? DEFAULT_KICK_REASON
          yield* rcon(actor, `kick ${player.slot} ${reason}`)
          return { kicked: playerView(player), reason }
        })
      )
  })
)
