/**
 * Priority queue: VIP, Supporter and Premium entries behind
 * `/api/priority-queue` (`priority.manage`), kept in every server's
 * `priority.txt` (before each start and restart, after every change, and
 * after the 60-second cleanup of expired entries). See README.md.
 */
import { AuditTrail, Plugin } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import { PriorityApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { PriorityQueue } from "./PriorityQueue.js"
import { PRIORITY_EVENTS } from "./published.js"
import { PriorityRoutes } from "./routes.js"
import { PRIORITY_PERMISSIONS } from "./contract/Api.js"

/** How often expired entries are removed (the spec's cleanup interval). */
export const PRIORITY_CLEANUP_INTERVAL = "60 seconds"

export const PriorityPlugin = Plugin.make({
  id: "priority",
  permissions: PRIORITY_PERMISSIONS,
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  description: "VIP priority queue, synced into every server's priority.txt",
  dependsOn: ["servers"],
  migrations,
  layer: PriorityQueue.layer,
  http: Plugin.http(PriorityApi, PriorityRoutes),
  publishes: PRIORITY_EVENTS,
  // priority.txt is written by the servers plugin's ServerFileSync (PriorityQueue registers it): before every start
  // and restart (a start must not go ahead with a stale list: a failure refuses it), at controller start, at expiries.
  jobs: [
    {
      name: "cleanup",
      every: PRIORITY_CLEANUP_INTERVAL,
      run: Effect.flatMap(PriorityQueue, (queue) => queue.cleanup).pipe(
        // Requests are audited by the host; the automatic cleanup records itself.
        Effect.tap((result) =>
          result.removed > 0
            ? Effect.flatMap(AuditTrail, (audit) =>
                audit.record({
                  // The controller's own job: no principal behind it, no actor.
                  actor: null,
                  ip: null,
                  action: "priority.cleanup",
                  target: null,
                  result: "success",
                  details: { removed: result.removed, remaining: result.remaining }
                })
              )
            : Effect.void
        )
      )
    }
  ]
})

export {
  DEFAULT_PAGE_SIZE as PRIORITY_DEFAULT_PAGE_SIZE,
  MAX_IMPORT_ENTRIES as PRIORITY_MAX_IMPORT_ENTRIES,
  MAX_PAGE_SIZE as PRIORITY_MAX_PAGE_SIZE,
  PRIORITY_PERMISSION,
  PRIORITY_ROLES,
  PRIORITY_SOURCES,
  PriorityApi,
  PriorityCleanupResult,
  PriorityEntry,
  PriorityEntryInput,
  PriorityEntryPatch,
  PriorityGroup,
  PriorityImportEntry,
  PriorityImportError,
  PriorityImportResult,
  PriorityListParams,
  PriorityPage,
  PriorityRole,
  PrioritySource
} from "./contract/Api.js"
export {
  InvalidPriorityEntry,
  PriorityEntryExists,
  PriorityEntryNotFound,
  PriorityStoreError
} from "./errors.js"
export { PRIORITY_CHANGE_ACTIONS, PriorityChangeAction, PriorityChanged } from "./events.js"
export { PRIORITY_FILE, priorityFileText } from "./internal/sync.js"
export { PriorityQueue } from "./PriorityQueue.js"
export type {
  PriorityGrant,
  PriorityGrantOutcome,
  PriorityGrantResult,
  PriorityQueueShape,
  StagedPriorityGrant
} from "./PriorityQueue.js"
export { exportFileName as priorityExportFileName } from "./routes.js"
export { PRIORITY_PERMISSIONS } from "./contract/Api.js"
