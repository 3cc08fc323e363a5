/**
 * Ways to drive a server's game besides RCON, registered by the plugins
 * that bring them (the actions plugin registers the agent beside each game
 * server). The servers gateway composes them with RCON in every handle's
 * `GameControl`: for each action, the first provider that is set up for the
 * server, available now and able to do it; RCON last. This is the Provider
 * System's seam: a plugin adds a provider, nothing in the servers plugin
 * changes.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type { GameCapability, GameControl, ServerActor, ServerEntry } from "@garrison/runtime"

/** Whether a provider can be used now, and why not. */
export type Availability = { readonly available: true } | { readonly available: false; readonly reason: string }

/** A provider's control of one server. */
export interface ProvidedControl {
  /** Can it be used now? Cheap (a provider caches its health); the reason is shown to admins. */
  readonly availability: Effect.Effect<Availability>
  /** What it can do when available. */
  readonly capabilities: ReadonlyArray<GameCapability>
  readonly control: GameControl
}

export interface ControlProvider {
  /** Shown in capability lists: `agent`, ... */
  readonly name: string
  /** Its control of this server, when the server is set up for it (none: the provider is skipped). */
  readonly forServer: (server: { readonly entry: ServerEntry; readonly actor: ServerActor.ServerActor }) => Option.Option<ProvidedControl>
}

export interface ControlProvidersShape {
  /** Adds a provider, asked before the ones registered later and before RCON. */
  readonly register: (provider: ControlProvider) => Effect.Effect<void>
  readonly all: Effect.Effect<ReadonlyArray<ControlProvider>>
}

export class ControlProviders extends Context.Tag("@garrison/plugins/ControlProviders")<ControlProviders, ControlProvidersShape>() {
  static readonly layer = Layer.effect(
    ControlProviders,
    Effect.map(Ref.make<ReadonlyArray<ControlProvider>>([]), (providers) =>
      ControlProviders.of({
        register: (provider) => Ref.update(providers, (list) => [...list.filter((p) => p.name !== provider.name), provider]),
        all: Ref.get(providers)
      })
    )
  )
}
