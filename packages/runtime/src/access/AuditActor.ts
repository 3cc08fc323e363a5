/**
 * Who acted, as work that records its audit rows later carries it: a
 * rollout, an update, a mod job or a backup a request started runs on
 * after the request (on the server actor's fiber, in a group commit's
 * batch) where the caller cannot be read again, so it is handed the
 * caller's id (the row's `actor`) and name (its `actorName`). Work the
 * scheduler starts has no principal behind it: it carries the scheduler's
 * marker, which its rows keep as `actor`, with no name.
 */
import type { Principal } from "./Principal.js"

/** A principal as work it started carries it: its id (a user id, `bot:<id>`) and its name (a username, a bot's name). */
export interface AuditActor {
  readonly id: string
  readonly name: string
}

/** The `by` of work the scheduler starts: its rows keep `"scheduler"` as `actor` (no principal, so no `actorName`). */
export const SCHEDULER_ACTOR = "scheduler"

/** Who started work that records audit rows: a principal, or the scheduler. */
export type ActedBy = AuditActor | typeof SCHEDULER_ACTOR

/** The principal's id and name only (its permissions are not carried into work that outlives the request). */
export const auditActorOf = (principal: Pick<Principal, "id" | "name">): AuditActor => ({ id: principal.id, name: principal.name })

/**
 * An audit row's `actor` and `actorName` for `by`: the principal's id and
 * name; the scheduler's marker, unnamed; null and null for nobody (the
 * controller itself).
 */
export const auditActorFields = (by: ActedBy | null): { readonly actor: string | null; readonly actorName: string | null } =>
  by === null ? { actor: null, actorName: null } : by === SCHEDULER_ACTOR ? { actor: SCHEDULER_ACTOR, actorName: null } : { actor: by.id, actorName: by.name }

/** What events and stored records shown to people say of `by`: the principal's name, or `"scheduler"`. */
export const actedByName = (by: ActedBy): string => (by === SCHEDULER_ACTOR ? SCHEDULER_ACTOR : by.name)
