/** The actor behind `:id`, or the 404 every route answers for an unknown server. */
import { NotFound, type ServerActor, Supervisor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export const findActor = (serverId: string): Effect.Effect<ServerActor.ServerActor, NotFound, Supervisor> =>
  Effect.flatMap(Supervisor, (supervisor) => supervisor.get(serverId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no server with id ${serverId}` })),
        onSome: (actor) => Effect.succeed(actor)
      })
    )
  )
