/**
 * One server's `GameControl` over its providers: for each action the first
 * provider (in registration order) that is set up for the server, available
 * now and able to do it, then RCON. A provider that cannot do one particular
 * call (the agent needs a player's Steam64, which the logs may not have
 * proven yet) refuses it as `unsupported` and the next one is asked. When a provider that could is down and
 * RCON cannot, the refusal says why for each (`agent: not answering; RCON:
 * cannot`); otherwise RCON answers (or refuses) for itself.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { ActorError, type GameCapability, type GameControl } from "@garrison/runtime"
import type { ProvidedControl } from "../ControlProviders.js"

export interface ControlRoute {
  /** The provider that would serve the action now. */
  readonly provider: string
  readonly control: GameControl
}

export interface CompositeControl extends GameControl {
  /** Who would serve `capability` now, or why nobody can. */
  readonly routeFor: (capability: GameCapability) => Effect.Effect<Either.Either<ControlRoute, string>>
}

export const composeControl = (
  server: { readonly id: string; readonly name: string },
  providers: ReadonlyArray<{ readonly name: string; readonly provided: ProvidedControl }>,
  rcon: GameControl
): CompositeControl => {
  /**
   * Every route that may serve the capability now, in order, or why there is
   * none (a provider that could is down, and RCON cannot). Without a provider
   * that is merely down, RCON is last and answers for itself (its own refusal,
   * say "no RCON settings").
   */
  const routes = (capability: GameCapability): Effect.Effect<Either.Either<ReadonlyArray<ControlRoute>, string>> =>
    Effect.gen(function* () {
      const reasons: Array<string> = []
      const found: Array<ControlRoute> = []
      for (const { name, provided } of providers) {
        if (!provided.capabilities.includes(capability)) continue
        const availability = yield* provided.availability
        if (availability.available) found.push({ provider: name, control: provided.control })
        else reasons.push(`${name}: ${availability.reason}`)
      }
      if (reasons.length === 0 || (yield* rcon.capabilities).includes(capability)) found.push({ provider: rcon.provider, control: rcon })
      if (found.length > 0) return Either.right(found)
      reasons.push("RCON: cannot")
      return Either.left(reasons.join("; "))
    })

  const routeFor: CompositeControl["routeFor"] = (capability) => Effect.map(routes(capability), Either.map((found) => found[0]!))

  const via = <A>(capability: GameCapability, use: (control: GameControl) => Effect.Effect<A, ActorError>) =>
    Effect.flatMap(
      routes(capability),
      Either.match({
        onRight: (found) => {
          // The next route is tried only when one cannot do this particular call.
          const from = (index: number): Effect.Effect<A, ActorError> =>
            use(found[index]!.control).pipe(
              Effect.catchIf(
                (error) => error.reason === "unsupported" && index + 1 < found.length,
                () => from(index + 1)
              )
            )
          return from(0)
        },
        onLeft: (why) =>
          Effect.fail(
            new ActorError({
              serverId: server.id,
              // A provider that is set up but down is a passing state (503).
              reason: "provider-unavailable",
              message: `${server.name}: nothing can ${capability} now (${why})`
            })
          )
      })
    )

  return {
    provider: [...providers.map((p) => p.name), rcon.provider].join(", "),
    capabilities: Effect.gen(function* () {
      const all: Array<GameCapability> = []
      for (const { provided } of providers) {
        if ((yield* provided.availability).available) all.push(...provided.capabilities)
      }
      all.push(...(yield* rcon.capabilities))
      return [...new Set(all)]
    }),
    players: via("players", (control) => control.players),
    kick: (player, reason) => via("kick", (control) => control.kick(player, reason)),
    broadcast: (message) => via("broadcast", (control) => control.broadcast(message)),
    message: (player, message) => via("message", (control) => control.message(player, message)),
    lock: via("lock", (control) => control.lock),
    unlock: via("unlock", (control) => control.unlock),
    shutdown: via("shutdown", (control) => control.shutdown),
    ban: (player, ban) => via("ban", (control) => control.ban(player, ban)),
    raw: (command) => via("raw", (control) => control.raw(command)),
    routeFor
  }
}
