/**
 * The partner export: the pool's changes in the order they committed
 * (the feed's ticks, see Pool.ts), pending bans left out, tombstones
 * (`overturned`, `expired`) in. A page is keyset-paginated on the tick;
 * `nextCursor` (signed) continues it, and `resumeSince` is what to send as
 * `since` next time: a client that follows `nextCursor` to null and
 * resumes with `resumeSince` sees every change once, with no gap, however
 * the pool is written meanwhile. Each page carries a proof (RS256) over the
 * SHA-256 of its rows when signing is on.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Secrets } from "@garrison/runtime"
import { createHash } from "node:crypto"
import { InvalidTrustInput, type TrustStoreError, storeError } from "./errors.js"
import { CURSOR_KEY, decodeCursor, encodeCursor } from "./internal/cursor.js"
import { serviceIdOf } from "./internal/players.js"
import { EXPORTED_STATUSES } from "./internal/rules.js"
import { DEFAULT_EXPORT_LIMIT } from "./internal/tiers.js"
import type { Partner } from "./PartnerKeys.js"
import { TrustSigning } from "./Signing.js"

export interface ExportRow {
  /** The pool ban's id (stable across its changes). */
  readonly id: string
  readonly platformId: string
  readonly serviceId: string
  readonly reasonCategory: string
  /** `active`, `overturned` or `expired`. */
  readonly status: string
  /** Communities vouching for it. */
  readonly vouchCount: number
  readonly activatedAt: string | null
  readonly expiresAt: string | null
  /** When this change was made: its place on the feed (ISO 8601; `updatedMs` the same in epoch milliseconds). */
  readonly updatedAt: string
  readonly updatedMs: number
}

export interface ExportPage {
  readonly bans: ReadonlyArray<ExportRow>
  readonly nextCursor: string | null
  /** Send as `since` next time (epoch milliseconds): the last change this page answered, or where it started. */
  readonly resumeSince: number
  readonly proof?: string
}

export interface ExportQuery {
  readonly since?: string | undefined
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
  readonly status?: string | undefined
}

export interface ExportShape {
  readonly page: (query: ExportQuery, partner: Partner) => Effect.Effect<ExportPage, InvalidTrustInput | TrustStoreError>
}

const invalid = (field: string, message: string) => Effect.fail(new InvalidTrustInput({ field, message }))

/** `since` as epoch milliseconds: digits, or an ISO 8601 date-time. */
const readSince = (since: string) => {
  if (/^\d{1,15}$/.test(since)) return Effect.succeed(Number(since))
  const ms = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(since) ? Date.parse(since) : Number.NaN
  return Number.isFinite(ms) ? Effect.succeed(ms) : invalid("since", "since must be an ISO 8601 date-time (2026-11-27T12:00:00Z) or epoch milliseconds")
}

const readStatuses = (status: string | undefined) => {
  if (status === undefined || status.trim() === "") return Effect.succeed([...EXPORTED_STATUSES].sort())
  const asked = [...new Set(status.split(",").map((s) => s.trim()))]
  const unknown = asked.filter((s) => !(EXPORTED_STATUSES as ReadonlyArray<string>).includes(s))
  return unknown.length > 0 ? invalid("status", `status takes a comma-separated list of ${EXPORTED_STATUSES.join(", ")}`) : Effect.succeed(asked.sort())
}

interface Row {
  readonly id: string
  readonly platform_id: string
  readonly reason_category: string
  readonly status: string
  readonly activated_ms: number | string | null
  readonly expires_ms: number | string | null
  readonly updated_ms: number | string
  readonly vouch_count: number | string
  readonly service_id: string | null
}

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

export class Export extends Context.Tag("@garrison/plugins/trust/Export")<Export, ExportShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const signing = yield* TrustSigning
    const cursorKey = yield* (yield* Secrets).require(CURSOR_KEY.name, CURSOR_KEY.spec)

    const page: ExportShape["page"] = (query, partner) =>
      Effect.gen(function* () {
        if (query.cursor !== undefined && query.since !== undefined) return yield* invalid("cursor", "send cursor or since, not both")
        const limit = query.limit ?? Math.min(DEFAULT_EXPORT_LIMIT, partner.tier.maxLimit)
        if (!Number.isInteger(limit) || limit < 1 || limit > partner.tier.maxLimit) {
          return yield* invalid("limit", `limit must be a whole number from 1 to ${partner.tier.maxLimit} (the ${partner.tier.name} tier's page)`)
        }
        const statuses = yield* readStatuses(query.status)
        let after = 0
        if (query.cursor !== undefined) {
          const position = decodeCursor(cursorKey, query.cursor)
          if (position === undefined) return yield* invalid("cursor", "cursor is not one this export gave (altered, truncated or too old): resume with since")
          if (position.statuses.join(",") !== statuses.join(",")) return yield* invalid("status", "status must be the same as when the cursor was given")
          after = position.after
        } else if (query.since !== undefined) {
          after = yield* readSince(query.since)
        }
        const rows = yield* sql<Row>`
          SELECT b.id, b.platform_id, b.reason_category, b.status, b.activated_ms, b.expires_ms, b.updated_ms, p.service_id,
                 (SELECT COUNT(*) FROM trust_vouches v WHERE v.ban_id = b.id) AS vouch_count
          FROM trust_bans b LEFT JOIN trust_players p ON p.platform_id = b.platform_id
          WHERE b.updated_ms > ${after} AND b.status IN ${sql.in(statuses)}
          ORDER BY b.updated_ms LIMIT ${limit + 1}`.pipe(Effect.mapError(storeError("read the export")))
        const bans: Array<ExportRow> = rows.slice(0, limit).map((row) => ({
          id: row.id,
          platformId: row.platform_id,
          // Stored when the pool first named the player; computed only for a row that has none.
          serviceId: row.service_id ?? serviceIdOf(row.platform_id),
          reasonCategory: row.reason_category,
          status: row.status,
          vouchCount: Number(row.vouch_count),
          activatedAt: iso(row.activated_ms),
          expiresAt: iso(row.expires_ms),
          updatedAt: iso(row.updated_ms)!,
          updatedMs: Number(row.updated_ms)
        }))
        const resumeSince = bans.length === 0 ? after : bans[bans.length - 1]!.updatedMs
        const nextCursor = rows.length > limit ? encodeCursor(cursorKey, { after: resumeSince, statuses }) : null
        const digest = createHash("sha256").update(JSON.stringify(bans)).digest("hex")
        const proof = yield* signing.sign({ digest, count: bans.length, nextCursor, resumeSince, partner: partner.name }, "export", Math.floor((yield* Clock.currentTimeMillis) / 1000))
        return Option.match(proof, {
          onNone: () => ({ bans, nextCursor, resumeSince }),
          onSome: (jwt) => ({ bans, nextCursor, resumeSince, proof: jwt })
        })
      })

    return { page } satisfies ExportShape
  })

  static readonly layer = Layer.effect(Export, Export.make)
}
