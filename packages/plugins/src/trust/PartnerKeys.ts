/**
 * Partner keys: what a partner community sends to read the export
 * (`Authorization: Bearer` or `x-service-partner-key`). An admin issues one
 * with a tier and sees it once; it is kept as its SHA-256 (a key is 32
 * random bytes: a plain hash is enough, nothing to guess), with a hint to
 * recognise it by, and revoked by an admin. Each key's requests are paced
 * by its tier (per minute, in memory: they pace, they guard nothing).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AuditTrail, type AuditActor, recordForRequest } from "@garrison/runtime"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { InvalidTrustInput, TrustNotFound, type TrustStoreError, storeError } from "./errors.js"
import { type Tier, TIER_NAMES, tierOf } from "./internal/tiers.js"

export interface PartnerKey {
  readonly id: string
  readonly name: string
  readonly tier: string
  /** `gtp_…abcd`. */
  readonly hint: string
  readonly createdAt: string
  readonly createdBy: string | null
  readonly revokedAt: string | null
  readonly lastUsedAt: string | null
}

export interface Partner {
  readonly keyId: string
  readonly name: string
  readonly tier: Tier
}

export interface PartnerKeysShape {
  readonly list: Effect.Effect<ReadonlyArray<PartnerKey>, TrustStoreError>
  /** A new key: the record, and the key itself (shown once). */
  readonly issue: (name: string, tier: string, by: AuditActor) => Effect.Effect<{ readonly key: string; readonly record: PartnerKey }, InvalidTrustInput | TrustStoreError>
  readonly revoke: (id: string, by: AuditActor) => Effect.Effect<PartnerKey, TrustNotFound | TrustStoreError>
  /** The partner a presented key belongs to (None: unknown or revoked). */
  readonly partnerOf: (key: string) => Effect.Effect<Option.Option<Partner>, TrustStoreError>
  /** Counts a request against the key's tier: undefined when allowed, else seconds to wait. */
  readonly pace: (partner: Partner) => Effect.Effect<number | undefined>
}

interface Row {
  readonly id: string
  readonly name: string
  readonly tier: string
  readonly hint: string
  readonly created_ms: number | string
  readonly created_by: string | null
  readonly revoked_ms: number | string | null
  readonly last_used_ms: number | string | null
}

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString())
const toKey = (row: Row): PartnerKey => ({
  id: row.id,
  name: row.name,
  tier: row.tier,
  hint: row.hint,
  createdAt: iso(row.created_ms)!,
  createdBy: row.created_by,
  revokedAt: iso(row.revoked_ms),
  lastUsedAt: iso(row.last_used_ms)
})

export const hashPartnerKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

const WINDOW_MS = 60_000

export class PartnerKeys extends Context.Tag("@garrison/plugins/trust/PartnerKeys")<PartnerKeys, PartnerKeysShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditTrail
    /** Key id -> the request times inside the last minute. */
    const recent = new Map<string, Array<number>>()
    /** Key id -> when its last use was written: at most once a minute, not a write per page. */
    const usedWritten = new Map<string, number>()

    const byId = (id: string) =>
      sql<Row>`SELECT * FROM trust_partner_keys WHERE id = ${id}`.pipe(
        Effect.mapError(storeError("read a partner key")),
        Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(new TrustNotFound({ message: `no partner key with id "${id}"` })) : Effect.succeed(toKey(rows[0]))))
      )

    return {
      list: sql<Row>`SELECT * FROM trust_partner_keys ORDER BY created_ms DESC`.pipe(
        Effect.map((rows) => rows.map(toKey)),
        Effect.mapError(storeError("list partner keys"))
      ),
      issue: (name, tier, by) =>
        Effect.gen(function* () {
          if (!(TIER_NAMES as ReadonlyArray<string>).includes(tier)) {
            return yield* Effect.fail(new InvalidTrustInput({ field: "tier", message: `tier must be one of ${TIER_NAMES.join(", ")}` }))
          }
          const key = `gtp_${randomBytes(32).toString("base64url")}`
          const id = randomUUID()
          const at = yield* Clock.currentTimeMillis
          const hint = `${key.slice(0, 4)}…${key.slice(-4)}`
          yield* sql`INSERT INTO trust_partner_keys (id, name, tier, key_hash, hint, created_ms, created_by)
                     VALUES (${id}, ${name}, ${tier}, ${hashPartnerKey(key)}, ${hint}, ${at}, ${by.name})`.pipe(Effect.mapError(storeError("issue a partner key")))
          yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.partner-key.issue", target: id, result: "success", details: { name, tier } })
          return { key, record: yield* byId(id).pipe(Effect.catchTag("TrustNotFound", Effect.die)) }
        }),
      revoke: (id, by) =>
        Effect.gen(function* () {
          const at = yield* Clock.currentTimeMillis
          const changed = yield* sql`UPDATE trust_partner_keys SET revoked_ms = ${at} WHERE id = ${id} AND revoked_ms IS NULL RETURNING id`.pipe(
            Effect.mapError(storeError("revoke a partner key"))
          )
          const key = yield* byId(id)
          if (changed.length > 0) {
            recent.delete(id)
            yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.partner-key.revoke", target: id, result: "success", details: { name: key.name } })
          }
          return key
        }),
      partnerOf: (key) =>
        Effect.gen(function* () {
          const rows = yield* sql<Row>`SELECT * FROM trust_partner_keys WHERE key_hash = ${hashPartnerKey(key)} AND revoked_ms IS NULL`
          const row = rows[0]
          if (row === undefined) return Option.none()
          const now = yield* Clock.currentTimeMillis
          if (now - (usedWritten.get(row.id) ?? 0) >= WINDOW_MS) {
            usedWritten.set(row.id, now)
            yield* sql`UPDATE trust_partner_keys SET last_used_ms = ${now} WHERE id = ${row.id}`
          }
          return Option.some({ keyId: row.id, name: row.name, tier: tierOf(row.tier) })
        }).pipe(Effect.mapError(storeError("check a partner key"))),
      pace: (partner) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const times = (recent.get(partner.keyId) ?? []).filter((t) => t > now - WINDOW_MS)
          if (times.length >= partner.tier.requestsPerMinute) {
            recent.set(partner.keyId, times)
            return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000))
          }
          times.push(now)
          recent.set(partner.keyId, times)
          return undefined
        })
    } satisfies PartnerKeysShape
  })

  static readonly layer = Layer.effect(PartnerKeys, PartnerKeys.make)
}
