/** A server actor made of what the test gives it, for plugins tested without real actors. */
import type { ServerActor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { identifiedPlayers } from "./Players.js"

const unused = Effect.dieMessage("this fake actor was not given this operation")

/**
 * An actor for `serverId` doing what `ops` say; its `changes` stream is
 * empty and every operation not in `ops` dies. `players` defaults to the
 * `rcon("players")` reply with no ids known.
 */
export const fakeActor = (serverId: string, ops: Partial<Omit<ServerActor.ServerActor, "serverId">>): ServerActor.ServerActor => {
  const rcon = ops.rcon ?? (() => unused)
  return {
    serverId,
    entry: unused,
    state: unused,
    changes: Stream.empty,
    start: unused,
    stop: unused,
    restart: () => unused,
    setLocked: () => unused,
    update: () => unused,
    rcon,
    players: Effect.suspend(() => Effect.map(rcon("players"), (reply) => identifiedPlayers(reply))),
    runOperation: () => unused,
    holdFiles: () => unused,
    retire: unused,
    ...ops
  }
}
