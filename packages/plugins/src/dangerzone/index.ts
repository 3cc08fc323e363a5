/**
 * The dangerzone (spec "Dangerzone", `admin`): a server's log files by
 * category, scanned and cleared; wipes after a pre-wipe backup; replicates
 * from another server. Every call audited. See README.md.
 */
import { AuditTrail, Plugin } from "@garrison/runtime"
import { DangerzoneApi } from "./contract/Api.js"
import { Dangerzone } from "./Dangerzone.js"
import { DangerzoneRoutes } from "./routes.js"

export const DangerzonePlugin = Plugin.make({
  id: "dangerzone",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  description: "What clears a server's data for good: log files by category, wipes, replicates from another server",
  dependsOn: ["servers", "backups"],
  layer: Dangerzone.layer,
  http: Plugin.http(DangerzoneApi, DangerzoneRoutes)
})

export {
  ClearLogsInput,
  DangerzoneApi,
  DangerzoneGroup,
  LogCategory,
  LogCategoryId,
  LogFileView,
  LogsCleared,
  LogsScan,
  REPLICATE_COMPONENTS,
  ReplicateComponent,
  ReplicateComponentPlan,
  ReplicateInput,
  ReplicatePreview,
  ReplicatePreviewInput,
  ReplicateResult,
  WipeInput,
  WipePath,
  WipePreset,
  WipePresets,
  WipeResult
} from "./contract/Api.js"
export { WIPE_PRESETS } from "./wipePresets.js"
export type { WipePresetId } from "./wipePresets.js"
export { Dangerzone } from "./Dangerzone.js"
export type { DangerzoneShape } from "./Dangerzone.js"
export { LOG_CATEGORIES, LOG_CATEGORY_IDS } from "./logCategories.js"
export type { LogCategoryId as DangerzoneLogCategoryId } from "./logCategories.js"
export { DangerzoneConflict, DangerzoneInputRefused } from "./errors.js"
export type { DangerzoneError } from "./errors.js"
