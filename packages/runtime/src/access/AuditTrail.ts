/**
 * The audit trail slot. The host records every mutating request and every
 * permission denial here; plugins record their security events (logins,
 * lockouts, MFA changes...). The audit plugin fills the slot with a durable,
 * hash-chained store; until then entries only go to the debug log.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { CurrentRequest } from "../http/RequestContext.js"

export interface AuditEntry {
  /** Who acted: a user id or name, `bot:<id>`, or null for anonymous callers. */
  readonly actor: string | null
  readonly ip: string | null
  /** Dotted action name, e.g. `auth.login`, or `http.POST /api/servers/:id/start` for requests. */
  readonly action: string
  readonly target: string | null
  readonly result: "success" | "failure" | "denied"
  /** Never secrets: no passwords, tokens or keys. */
  readonly details?: Readonly<Record<string, unknown>>
}

export interface AuditTrailShape {
  /** Record one entry. Never fails: a store problem is logged, not thrown at the caller. */
  readonly record: (entry: AuditEntry) => Effect.Effect<void>
}

export class AuditTrail extends Context.Reference<AuditTrail>()("@garrison/runtime/AuditTrail", {
  defaultValue: (): AuditTrailShape => ({
    record: (entry) => Effect.logDebug(`audit ${entry.action} ${entry.result}`, entry)
  })
}) {}

/** Records `entry` with the client address of the request being served (null outside a request: a schedule, a hook). */
export const recordForRequest = (audit: AuditTrailShape, entry: Omit<AuditEntry, "ip">): Effect.Effect<void> =>
  Effect.flatMap(CurrentRequest, (request) => audit.record({ ...entry, ip: request._tag === "Some" ? request.value.clientIp : null }))
