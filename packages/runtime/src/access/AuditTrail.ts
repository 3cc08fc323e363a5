/**
 * The audit trail slot. The host records every mutating request and every
 * permission denial here; plugins record their security events (logins,
 * lockouts, MFA changes...). The audit plugin fills the slot with a durable,
 * hash-chained store; until then entries only go to the debug log.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"
import { CurrentRequest } from "../http/RequestContext.js"

export interface AuditEntry {
  /**
   * Who acted: the principal's id (a user id, `bot:<id>`), never its name
   * (that is `actorName`); a system marker (`"scheduler"`); or null for
   * anonymous callers and the controller itself. Work that records later
   * carries both (`AuditActor`, `auditActorFields`).
   */
  readonly actor: string | null
  /**
   * The actor's name when the row was written: a username, a bot's name.
   * Omitted: filled by the store from the request's caller when `actor` is
   * that caller's id, else null.
   */
  readonly actorName?: string | null
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

/**
 * How many audit rows the request being served has recorded (none outside
 * a request). The front door writes its own row for a mutating request
 * only when the handler recorded none: one row per acknowledged write, in
 * the handler's transaction, not a second one after it. One per process,
 * however many copies of this module are loaded.
 */
export const requestAuditsRef: FiberRef.FiberRef<Option.Option<{ count: number }>> = globalValue(
  Symbol.for("@garrison/runtime/requestAuditsRef"),
  () => FiberRef.unsafeMake(Option.none<{ count: number }>())
)

const countForRequest = Effect.flatMap(FiberRef.get(requestAuditsRef), (counter) =>
  Option.isSome(counter) ? Effect.sync(() => void counter.value.count++) : Effect.void
)

/**
 * `store`, then the row counted for the request it was recorded in (see
 * `requestAuditsRef`); a row the store failed to keep does not count, so the
 * front door still writes its own. Every provider of `AuditTrail` records
 * through it (and turns a failure into a log line: `record` never fails); a
 * provider made otherwise still works, and the front door then adds its row
 * to each mutating request.
 */
export const countedRecord =
  <E>(store: (entry: AuditEntry) => Effect.Effect<unknown, E>) =>
  (entry: AuditEntry): Effect.Effect<void, E> =>
    Effect.zipRight(store(entry), countForRequest)

export class AuditTrail extends Context.Reference<AuditTrail>()("@garrison/runtime/AuditTrail", {
  defaultValue: (): AuditTrailShape => ({ record: countedRecord((entry) => Effect.logDebug(`audit ${entry.action} ${entry.result}`, entry)) })
}) {}

/** Records `entry` with the client address of the request being served (null outside a request: a schedule, a hook). */
export const recordForRequest = (audit: AuditTrailShape, entry: Omit<AuditEntry, "ip">): Effect.Effect<void> =>
  Effect.flatMap(CurrentRequest, (request) => audit.record({ ...entry, ip: request._tag === "Some" ? request.value.clientIp : null }))
