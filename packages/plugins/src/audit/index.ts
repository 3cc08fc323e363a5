/**
 * Audit: a durable, hash-chained record of every mutating request, every
 * permission denial and the security events plugins report, behind
 * `GET /api/audit` and `GET /api/audit/verify` (admin). See README.md.
 */
import * as Layer from "effect/Layer"
import { AuditTrail, Plugin } from "@garrison/runtime"
import { AuditLog, AuditTrailLive } from "./AuditLog.js"
import { AuditApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { AuditRoutes } from "./routes.js"

export const AuditPlugin = Plugin.make({
  id: "audit",
  // The durable audit trail: plugins that record rows require it, so they are built after it.
  provides: [AuditTrail],
  description: "Hash-chained audit trail of requests and security events",
  migrations,
  layer: AuditTrailLive.pipe(Layer.provideMerge(AuditLog.layer)),
  http: Plugin.http(AuditApi, AuditRoutes)
})

export { AuditLog, AuditTrailLive } from "./AuditLog.js"
export type { AuditFilter, AuditLogShape } from "./AuditLog.js"
export {
  AuditApi,
  AuditGroup,
  AuditListParams,
  AuditPage,
  AuditResult,
  AuditRow,
  VerifyFailure as AuditVerifyFailure,
  VerifyReport as AuditVerifyReport
} from "./contract/Api.js"
export { AuditStoreError } from "./errors.js"
export {
  type ChainedFields as AuditChainedFields,
  GENESIS_HASH as AUDIT_GENESIS_HASH,
  HASH_VERSION as AUDIT_HASH_VERSION,
  rowHash as auditRowHash
} from "./internal/chain.js"
