/**
 * The slot the scheduler's "apply pending updates" jobs go through: checks
 * a server's mods for due updates and rolls them out when there are any.
 * The rollout plugin fills it; without that plugin such a job fails with
 * `unsupported`, saying what to load. A slot rather than a dependency, so
 * the scheduler stays below the mod and update plugins.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { ActorError } from "./ActorError.js"

export interface ScheduledUpdatesShape {
  /** `started` when a rollout began, `nothing-due` when no update was due; refusals (busy, ...) fail. */
  readonly applyPending: (serverId: string, by: string) => Effect.Effect<"started" | "nothing-due", ActorError>
}

export class ScheduledUpdates extends Context.Reference<ScheduledUpdates>()("@garrison/runtime/ScheduledUpdates", {
  defaultValue: (): ScheduledUpdatesShape => ({
    applyPending: (serverId) =>
      Effect.fail(new ActorError({ serverId, reason: "unsupported", message: "applying pending updates needs the rollout plugin (PLUGINS)" }))
  })
}) {}
