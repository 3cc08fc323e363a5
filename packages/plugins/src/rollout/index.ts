/**
 * Safe rollouts: mod and game updates put on a running server with warnings,
 * a lock, kicks, a health check after the restart and a rollback when the
 * new version fails (`Rollouts`). Provides the scheduler's
 * `ScheduledUpdates` extension point, so the scheduler's "apply pending updates" jobs roll out only when
 * something is due. See README.md.
 */
import * as Effect from "effect/Effect"
import { AuditTrail, on, Plugin, ServerDeleted } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { RolloutApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { rolloutNotices } from "./notices.js"
import { ROLLOUT_EVENTS } from "./published.js"
import { RolloutRoutes } from "./routes.js"
import { Rollouts, RolloutsLive } from "./Rollouts.js"
import { ScheduledUpdates } from "../scheduler/index.js"

export const RolloutPlugin = Plugin.make({
  id: "rollout",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // The scheduler's "apply pending updates" jobs roll out through it.
  provides: [ScheduledUpdates],
  // Notifies whoever may view the server when the notifications plugin is loaded (`notices.ts`).
  uses: [Notifications],
  description: "Safe rollouts of mod and game updates: warnings, lock, kick, health check, rollback",
  dependsOn: ["servers", "platform", "mods", "updates", "scheduler"],
  migrations,
  layer: RolloutsLive,
  http: Plugin.http(RolloutApi, RolloutRoutes),
  events: [
    on(ServerDeleted, (event) => Effect.flatMap(Rollouts, (rollouts) => rollouts.forgetServer(event.serverId)), "forgetServer"),
    // A rollout done, rolled back or failed: a notification for whoever may view the server.
    ...rolloutNotices
  ],
  publishes: ROLLOUT_EVENTS
})

export {
  DEFAULT_KICK_MESSAGE as ROLLOUT_DEFAULT_KICK_MESSAGE,
  DEFAULT_WARNING_MESSAGE as ROLLOUT_DEFAULT_WARNING_MESSAGE,
  defaultPolicy as defaultRolloutPolicy,
  RolloutApi,
  RolloutGroup,
  RolloutInput,
  RolloutMod,
  RolloutPolicy,
  RolloutState,
  RolloutStatus
} from "./contract/Api.js"
export { RolloutCompleted, RolloutFailed, RolloutRolledBack } from "./events.js"
export { checkHealth, parseReportedMods } from "./internal/health.js"
export { Rollouts, RolloutsLive } from "./Rollouts.js"
export type { RolloutsShape } from "./Rollouts.js"
export { RolloutConflict, RolloutInputRefused, RolloutStoreError } from "./errors.js"
export type { RolloutError } from "./errors.js"
