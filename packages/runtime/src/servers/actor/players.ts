/**
 * Who is on a server: the RCON `players` reply, each player matched to the
 * Steam64 and DayZ ID the server's logs prove (see `PlayerLog`), and the
 * RCON messages that say someone joined, left or chatted.
 */
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { EventBusShape } from "../../events/EventBus.js"
import type { LogFollower } from "../../game/LogFollower.js"
import { makePlayerDirectory, parsePlayerLogLine } from "../../game/PlayerLog.js"
import { type OnlinePlayer, parsePlayers, type RconPlayer } from "../../game/Players.js"
import { parseServerMessage } from "../../game/ServerMessages.js"
import type { RconClient } from "../../rcon/RconClient.js"
import { ChatMessage, ConsoleLine, PlayerConnected, PlayerDisconnected } from "../events.js"
import type { ServerState } from "../ServerState.js"

export interface RosterDeps {
  readonly serverId: string
  readonly names: () => { readonly serverId: string; readonly name: string }
  /** The current run's logs, if a run is up. */
  readonly logs: () => LogFollower | undefined
  readonly client: Effect.Effect<Option.Option<RconClient>>
  readonly rconTimeout: Duration.DurationInput
  /** Where refreshes started by a join run (the actor's scope). */
  readonly scope: Scope.Scope
  readonly patch: (f: (s: ServerState) => Partial<ServerState>) => Effect.Effect<void>
  readonly publish: EventBusShape["publish"]
}

export const makeRoster = (deps: RosterDeps) =>
  Effect.gen(function* () {
    // What the logs taught about players outlives a run: a Steam64 hashes to the same GUID forever.
    const directory = makePlayerDirectory()
    const logReads = yield* Effect.makeSemaphore(1)

    /** Reads what the run's logs wrote since the last read (one reader at a time: each line once). */
    const learnFromLogs = logReads.withPermits(1)(
      Effect.suspend(() => {
        const logs = deps.logs()
        if (logs === undefined) return Effect.void
        return logs.poll.pipe(
          Effect.map((lines) => {
            for (const line of lines) {
              const seen = parsePlayerLogLine(line)
              if (seen !== undefined) directory.learn(seen)
            }
          })
        )
      })
    )

    const identify = (players: ReadonlyArray<RconPlayer>): Effect.Effect<ReadonlyArray<OnlinePlayer>> =>
      Effect.map(learnFromLogs, () => players.map((player) => directory.identify(player)))

    /** Asks the server who is on, when a session is up; a failure leaves the last list. */
    const refresh = Effect.gen(function* () {
      const client = yield* deps.client
      if (Option.isNone(client)) return
      const reply = yield* client.value.command("players", { timeout: deps.rconTimeout })
      const players = yield* identify(parsePlayers(reply))
      yield* deps.patch(() => ({ players }))
    }).pipe(Effect.ignore)

    /** One message the server sent over RCON: published as a console line, and as what it means. */
    const onServerMessage = (text: string) =>
      Effect.gen(function* () {
        const { serverId } = deps
        yield* deps.publish(new ConsoleLine({ serverId, at: yield* Clock.currentTimeMillis, text }))
        const parsed = parseServerMessage(text)
        switch (parsed._tag) {
          case "RconPlayerConnected":
            yield* deps.publish(new PlayerConnected({ ...deps.names(), slot: parsed.slot, playerName: parsed.name, ip: parsed.ip }))
            // The new player's id is in the next `players` reply; asking must not hold up the messages.
            return yield* Effect.asVoid(Effect.forkIn(refresh, deps.scope))
          case "RconPlayerDisconnected":
            yield* deps.publish(new PlayerDisconnected({ ...deps.names(), slot: parsed.slot, playerName: parsed.name }))
            return yield* deps.patch((s) => ({ players: s.players.filter((p) => p.slot !== parsed.slot) }))
          case "RconChat":
            return yield* deps.publish(
              new ChatMessage({ ...deps.names(), channel: parsed.channel, playerName: parsed.name, text: parsed.text })
            )
          default:
            return
        }
      })

    return { identify, refresh, onServerMessage }
  })
