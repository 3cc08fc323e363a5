/**
 * What the parts of the `Webhooks` service share: its dependencies as the
 * layer resolved them, and the small helpers every part uses (store errors,
 * rule refusals, audit rows).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import {
  type AuditActor,
  auditActorFields,
  type AuditTrailShape,
  type PublishedEventsShape,
  recordForRequest,
  type SealedBox
} from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import type { WebhooksSettings } from "../config.js"
import { InvalidWebhook, storeError, type WebhookStoreError } from "../errors.js"

export interface WebhooksDeps {
  readonly sql: SqlClient.SqlClient
  /** Seals webhook URLs and signing secrets at rest. */
  readonly box: SealedBox
  readonly settings: WebhooksSettings
  readonly published: PublishedEventsShape
  readonly servers: ServersShape
  readonly audit: AuditTrailShape
  /** Reloads the in-memory list of enabled webhooks (after any change to them). */
  readonly reload: Effect.Effect<void, WebhookStoreError>
}

/** A database failure as the plugin's store error, naming what was being done. */
export const fail = (operation: string) => Effect.mapError(storeError(operation))

export const invalid = (field: string, rule: string) => new InvalidWebhook({ field, message: `${field}: ${rule}` })

/** A successful change, as an audit row in the caller's transaction. */
export const record = (audit: AuditTrailShape, by: AuditActor, action: string, target: string, details: Record<string, unknown>) =>
  recordForRequest(audit, { ...auditActorFields(by), action, target, result: "success", details })
