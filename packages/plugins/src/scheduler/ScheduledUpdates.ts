/**
 * An extension point the scheduler owns (Backstage-style): what its "apply
 * pending updates" jobs call to check a server's mods for due updates and
 * roll them out. The rollout plugin provides it (`provides:
 * [ScheduledUpdates]`); without that plugin such a job fails with
 * `unsupported`, saying what to load. The scheduler declares the point and
 * the plugin that can fill it depends on the scheduler, so the scheduler
 * stays below the mod and update plugins.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { type ActedBy, ActorError } from "@garrison/runtime"

export interface ScheduledUpdatesShape {
  /**
   * `started` when a rollout began, `nothing-due` when no update was due;
   * refusals (busy, ...) fail. `by`: the scheduler's jobs pass
   * `SCHEDULER_ACTOR` (no principal: the rollout's rows keep the marker).
   */
  readonly applyPending: (serverId: string, by: ActedBy) => Effect.Effect<"started" | "nothing-due", ActorError>
}

export class ScheduledUpdates extends Context.Reference<ScheduledUpdates>()("@garrison/plugins/scheduler/ScheduledUpdates", {
  defaultValue: (): ScheduledUpdatesShape => ({
    applyPending: (serverId) =>
      Effect.fail(new ActorError({ serverId, reason: "unsupported", message: "applying pending updates needs the rollout plugin (PLUGINS)" }))
  })
}) {}
