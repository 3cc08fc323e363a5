/**
 * The backups' audit rows, recorded with the client address of the request
 * being served (none for the schedule or a hook). One function built once
 * and handed to every part, so each row has the same shape.
 */
import { type AuditTrailShape, recordForRequest } from "@garrison/runtime"

export const makeRecord =
  (audit: AuditTrailShape) =>
  (by: string, action: string, serverId: string, details: Record<string, unknown>, result: "success" | "failure" = "success") =>
    recordForRequest(audit, { actor: by, action, target: serverId, result, details })

export type RecordAudit = ReturnType<typeof makeRecord>
