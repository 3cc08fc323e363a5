/**
 * One server's `GameControl` over its providers: for each action the first
 * provider (in registration order) that is set up for the server, available
 * now and able to do it, then RCON. A provider that cannot do one particular
 * call (the agent needs a player's Steam64, which the logs may not have
 * proven yet) refuses it as `unsupported` and the next one is asked. When a
 * provider that could is down and RCON cannot, the down provider is asked
 * anyway and answers for itself; otherwise RCON answers (or refuses) for
 * itself.
 */
import * as Effect from "effect/Effect"
import { ActorError, type GameCapability, type GameControl } from "@garrison/runtime"
import type { ProvidedControl } from "../ControlProviders.js"

export interface ControlRoute {
  /** The provider that would serve the action now. */
  readonly provider: string
  readonly control: GameControl
  /** Why it may not answer (its health looked bad), or null. */
  readonly doubt: string | null
}

export interface CompositeControl extends GameControl {
  /** Who would serve `capability` now (with a doubt when that provider looked down). */
  readonly routeFor: (capability: GameCapability) => Effect.Effect<ControlRoute>
}

export const composeControl = (
  providers: ReadonlyArray<{ readonly name: string; readonly provided: ProvidedControl }>,
  rcon: GameControl
): CompositeControl => {
  /**
   * Every route that may serve the capability now, in order: the providers
   * that look available, then RCON. When a provider that could is down and
   * RCON cannot, that provider is tried all the same (its health answer is a
   * few seconds old and never refuses on its own; its own answer decides).
   * Without a provider that is merely down, RCON is last and answers for
   * itself (its own refusal, say "no RCON settings").
   */
  const routes = (capability: GameCapability): Effect.Effect<ReadonlyArray<ControlRoute>> =>
    Effect.gen(function* () {
      const found: Array<ControlRoute> = []
      const down: Array<ControlRoute> = []
      for (const { name, provided } of providers) {
        if (!provided.capabilities.includes(capability)) continue
        const availability = yield* provided.availability
        if (availability.available) found.push({ provider: name, control: provided.control, doubt: null })
        else down.push({ provider: name, control: provided.control, doubt: availability.reason })
      }
      if (down.length === 0 || (yield* rcon.capabilities).includes(capability)) found.push({ provider: rcon.provider, control: rcon, doubt: null })
      else found.push(...down)
      return found
    })

  const routeFor: CompositeControl["routeFor"] = (capability) => Effect.map(routes(capability), (found) => found[0]!)

  /** The first route; the next is tried only when one cannot do this particular call. */
  const via = <A>(capability: GameCapability, use: (control: GameControl) => Effect.Effect<A, ActorError>) =>
    Effect.flatMap(routes(capability), (found) => {
      const from = (index: number): Effect.Effect<A, ActorError> =>
        use(found[index]!.control).pipe(Effect.catchIf((error) => error.reason === "unsupported" && index + 1 < found.length, () => from(index + 1)))
      return from(0)
    })

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
