/**
 * The audit plugin's HTTP contract: row and report schemas and the
 * `HttpApi`. Both endpoints need `admin`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, IsoDateOrDateTime, pageFields, pageParams } from "@garrison/runtime"

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 500

export const AuditResult = Schema.Literal("success", "failure", "denied")
export type AuditResult = typeof AuditResult.Type

export class AuditRow extends Schema.Class<AuditRow>("AuditRow")({
  /** Position in the chain, as a decimal string: 1, 2, 3, ... with no gaps. */
  id: Schema.String,
  /** ISO-8601, UTC, from the controller's clock. */
  at: Schema.String,
  /** Principal id (a user id, `bot:<id>`), or null for anonymous callers. */
  actor: Schema.NullOr(Schema.String),
  /** The actor's name when the row was written (a username, a bot's name); null when unknown, and on rows from before names. */
  actorName: Schema.NullOr(Schema.String),
  ip: Schema.NullOr(Schema.String),
  action: Schema.String,
  target: Schema.NullOr(Schema.String),
  /** `success`, `failure` or `denied`; a plain string so a row edited in the database still lists. */
  result: Schema.String,
  details: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  /** How `hash` was computed: 1 for rows from before `actorName` (which it does not cover), 2 since; see the README. */
  hashVersion: Schema.Number,
  /** Hash of the row before (64 zeros for the first row). */
  prevHash: Schema.String,
  /** SHA-256 (hex) over the row and `prevHash`; see the README for the encoding. */
  hash: Schema.String
}) {}

/** Newest first; `nextCursor` leads to older rows. */
export class AuditPage extends Schema.Class<AuditPage>("AuditPage")(pageFields(AuditRow)) {}

export const VerifyFailure = Schema.Literal("altered-row", "broken-link", "missing-row", "truncated", "head-mismatch")
export type VerifyFailure = typeof VerifyFailure.Type

export class VerifyReport extends Schema.Class<VerifyReport>("AuditVerifyReport")({
  ok: Schema.Boolean,
  /** Rows found intact, from the first, before the first break (every row when `ok`). */
  checked: Schema.Number,
  /** The row at which the chain first breaks. */
  firstBrokenId: Schema.optional(Schema.String),
  reason: Schema.optional(VerifyFailure),
  /** What was found, in words. */
  message: Schema.optional(Schema.String)
}) {}

export const AuditListParams = Schema.Struct({
  /** Exact actor id or actor name: `alice` finds the rows of the user named alice as well as those of the id `alice`. */
  actor: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048))),
  /** Exact action, or a prefix when it ends with `.` or `*` (`auth.` and `auth.*` match `auth.login`). */
  action: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048))),
  /** Rows at or after this instant: an ISO-8601 date (midnight UTC) or date-time (UTC without a zone); impossible dates are 400. */
  from: Schema.optional(IsoDateOrDateTime),
  /** Rows strictly before this instant (same form as `from`). */
  to: Schema.optional(IsoDateOrDateTime),
  result: Schema.optional(AuditResult),
  ...pageParams({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
})

export class AuditGroup extends HttpApiGroup.make("audit").annotate(OpenApi.Description, "The tamper-evident audit trail of who did what, and its verification.")
  .add(
    HttpApiEndpoint.get("list", "/api/audit")
      .setUrlParams(AuditListParams)
      .addSuccess(AuditPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "List the audit trail")
      .annotate(
        OpenApi.Description,
        "Newest first, filtered by actor (id or name), action (a prefix when it ends with `.` or `*`), time and result; pass " +
          "`nextCursor` back as `cursor` for older rows."
      )
  )
  .add(
    HttpApiEndpoint.get("verify", "/api/audit/verify").addSuccess(VerifyReport)
      .annotate(OpenApi.Summary, "Verify the audit chain")
      .annotate(
        OpenApi.Description,
        "Walks the SHA-256 hash chain from the first row and reports the first row edited, deleted or reordered."
      )
  )
  .annotate(Access, Access.permission(ADMIN)) {}

export class AuditApi extends HttpApi.make("audit").add(AuditGroup) {}
