/**
 * Lifecycle hook points: named moments where the runtime asks every plugin
 * that cares to act first, and waits for them (unlike events, which are
 * fire-and-forget). Example: before a server starts, the bans plugin writes
 * `ban.txt`; if it cannot, the start fails with that reason.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { ActedBy } from "../access/AuditActor.js"

export interface HookPoint<Input> {
  readonly name: string
  /** Bind a handler to this hook point, for a plugin's `hooks` list. */
  readonly handle: <R>(run: (input: Input) => Effect.Effect<void, unknown, R>) => HookHandler<R>
  readonly _Input?: (input: Input) => void
}

export interface HookHandler<R = never> {
  readonly point: string
  readonly run: (input: unknown) => Effect.Effect<void, unknown, R>
}

export const hookPoint = <Input>(name: string): HookPoint<Input> => ({
  name,
  handle: (run) => ({ point: name, run: (input) => run(input as Input) })
})

export class HookFailed extends Schema.TaggedError<HookFailed>()("HookFailed", {
  point: Schema.String,
  plugin: Schema.String,
  message: Schema.String
}) {}

export interface HooksShape {
  /** Run every handler of `point` in plugin load order; the first failure stops the rest. */
  readonly run: <Input>(point: HookPoint<Input>, input: Input) => Effect.Effect<void, HookFailed>
  readonly register: (plugin: string, handler: HookHandler<unknown>, context: Context.Context<never>) => void
}

export class Hooks extends Context.Tag("@garrison/runtime/Hooks")<Hooks, HooksShape>() {
  static readonly make = (): HooksShape => {
    const handlers = new Map<
      string,
      Array<{ plugin: string; run: (input: unknown) => Effect.Effect<void, unknown> }>
    >()
    return {
      register: (plugin, handler, context) => {
        const list = handlers.get(handler.point) ?? []
        // The handler's services come from the plugin's own context, captured at start-up.
        list.push({ plugin, run: (input) => Effect.provide(handler.run(input), context) as Effect.Effect<void, unknown> })
        handlers.set(handler.point, list)
      },
      run: (point, input) =>
        Effect.forEach(
          handlers.get(point.name) ?? [],
          (h) =>
            h.run(input).pipe(
              Effect.catchAllCause((cause) =>
                Effect.fail(
                  new HookFailed({ point: point.name, plugin: h.plugin, message: describeCause(cause) })
                )
              )
            ),
          { discard: true }
        )
    }
  }
  static readonly layer = Layer.sync(Hooks, Hooks.make)
}

const describeCause = (cause: unknown): string => {
  const text = String(cause)
  return text.length > 500 ? `${text.slice(0, 500)}...` : text
}

/** Input of the server lifecycle hooks, run by the server actors. */
export interface ServerHookInput {
  readonly serverId: string
  readonly name: string
  readonly installDir: string
}

/** Before a game server process is spawned (start and every restart). */
export const BeforeServerStart = hookPoint<ServerHookInput>("beforeServerStart")

/** Input of `BeforeServerUpdate`: the server, who asked, and what is about to change its files. */
export interface ServerUpdateHookInput extends ServerHookInput {
  /** Who started the update: a principal (id and name, for the audit rows of what the hook does), or the scheduler. */
  readonly by: ActedBy
  readonly reason: "game-update" | "mod-rollout"
}

/**
 * Before an update replaces a server's files (a game update through
 * SteamCMD, a mod rollout), with the server stopped: the backups plugin
 * makes its `pre-update` backup here; a failure stops the update.
 */
export const BeforeServerUpdate = hookPoint<ServerUpdateHookInput>("beforeServerUpdate")
