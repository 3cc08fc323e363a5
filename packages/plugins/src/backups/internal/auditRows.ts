/**
 * The backups' audit rows, recorded with the client address of the request
 * being served (none for the schedule or a hook). One function built once
 * and handed to every part, so each row has the same shape: the principal
 * who asked by id (`actor`) and name (`actorName`), carried into the work
 * that outlives the request (a backup beside it, a restore as the actor's
 * operation, a hook's pre-update backup); the schedule's rows keep the
 * marker `"scheduler"`, unnamed.
 */
import { type ActedBy, auditActorFields, type AuditTrailShape, recordForRequest } from "@garrison/runtime"

export const makeRecord =
  (audit: AuditTrailShape) =>
  (by: ActedBy, action: string, serverId: string, details: Record<string, unknown>, result: "success" | "failure" = "success") =>
    recordForRequest(audit, { ...auditActorFields(by), action, target: serverId, result, details })

export type RecordAudit = ReturnType<typeof makeRecord>
