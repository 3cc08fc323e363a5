/**
 * The community ban pool. Admins submit bans of the global ban database (a
 * ban is shared only when submitted) as this community's vouch, with a
 * reason category; partners' vouches arrive through subscriptions. A ban is
 * `pending` until the summed weight of the communities vouching for it
 * reaches the threshold, then `active`; an approved appeal makes it
 * `overturned` and costs every voucher weight; it becomes `expired` when
 * the ban it came from would have. See `internal/rules.ts` for the numbers.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuditTrail, type AuditActor, recordForRequest } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { Bans } from "../bans/index.js"
import { trustSettings } from "./config.js"
import { InvalidTrustInput, TrustConflict, TrustNotFound, type TrustStoreError, storeError } from "./errors.js"
import { rememberPlayer } from "./internal/players.js"
import { PoolGeneration } from "./internal/poolGeneration.js"
import {
  clampWeight,
  OVERTURN_FACTOR,
  OVERTURN_WINDOW,
  overturnsTooOften,
  type PoolStatus,
  reachesThreshold,
  REASON_CATEGORIES,
  type ReasonCategory,
  STARTING_WEIGHT,
  SUBMISSION_CAPS
} from "./internal/rules.js"

/** This instance's own community. */
export const LOCAL_COMMUNITY = "local"

export interface PoolBan {
  readonly id: string
  readonly platformId: string
  readonly reasonCategory: string
  readonly status: PoolStatus
  /** Communities vouching, and the sum of their weights now. */
  readonly vouchCount: number
  readonly vouchWeight: number
  readonly activatedAt: string | null
  readonly expiresAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

export interface Community {
  readonly id: string
  readonly name: string
  readonly kind: "local" | "partner"
  readonly weight: number
  /** Held at 0 by its overturn rate until an admin reviews it. */
  readonly held: boolean
  readonly heldReason: string | null
  /** Overturned share of its last 20 submissions (null before any). */
  readonly overturnRate: number | null
  readonly submissions: number
  readonly reviewedAt: string | null
  readonly reviewedBy: string | null
}

export interface Appeal {
  readonly id: string
  readonly banId: string
  readonly statement: string
  readonly status: "open" | "approved" | "rejected"
  readonly createdAt: string
  readonly createdBy: string | null
  readonly decidedAt: string | null
  readonly decidedBy: string | null
  readonly decisionNote: string | null
}

export interface PoolShape {
  /** This community's vouch for a ban of the global database. */
  readonly submit: (
    input: { readonly banId: string; readonly reasonCategory: string; readonly note?: string | undefined },
    by: AuditActor
  ) => Effect.Effect<PoolBan, InvalidTrustInput | TrustConflict | TrustNotFound | TrustStoreError>
  /** A partner community's vouch (a subscription's row): adds the vouch, or nothing when it is there already. */
  readonly vouch: (input: {
    readonly communityId: string
    readonly platformId: string
    readonly reasonCategory: string
    readonly expiresMs: number | null
  }) => Effect.Effect<PoolBan, TrustStoreError>
  readonly get: (id: string) => Effect.Effect<PoolBan, TrustNotFound | TrustStoreError>
  readonly list: (filter: { readonly status?: PoolStatus | undefined; readonly platformId?: string | undefined; readonly limit: number }) => Effect.Effect<ReadonlyArray<PoolBan>, TrustStoreError>
  /** Makes an open ban `overturned` and costs its vouchers weight (an approved appeal, or an admin's own decision). */
  readonly overturn: (id: string, note: string, by: AuditActor) => Effect.Effect<PoolBan, TrustConflict | TrustNotFound | TrustStoreError>
  readonly appeal: (banId: string, statement: string, by: AuditActor) => Effect.Effect<Appeal, TrustConflict | TrustNotFound | TrustStoreError>
  readonly decide: (
    appealId: string,
    decision: "approve" | "reject",
    note: string,
    by: AuditActor
  ) => Effect.Effect<Appeal, TrustConflict | TrustNotFound | TrustStoreError>
  readonly appeals: (status: "open" | "approved" | "rejected" | undefined) => Effect.Effect<ReadonlyArray<Appeal>, TrustStoreError>
  readonly communities: Effect.Effect<ReadonlyArray<Community>, TrustStoreError>
  /** An admin's review: sets the weight (0-2) and lifts a hold; pending bans it vouched for are weighed again. */
  readonly review: (id: string, weight: number, by: AuditActor) => Effect.Effect<Community, InvalidTrustInput | TrustNotFound | TrustStoreError>
  /** A partner community, made once (a subscription's). */
  readonly ensureCommunity: (id: string, name: string) => Effect.Effect<void, TrustStoreError>
  /** Open bans past their expiry become `expired`; answers how many. */
  readonly expire: Effect.Effect<number, TrustStoreError>
}

interface BanRow {
  readonly id: string
  readonly platform_id: string
  readonly reason_category: string
  readonly status: string
  readonly expires_ms: number | string | null
  readonly activated_ms: number | string | null
  readonly created_ms: number | string
  readonly updated_ms: number | string
  readonly vouch_count: number | string
  readonly vouch_weight: number | string | null
}

const iso = (ms: number | string | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString())

const toBan = (row: BanRow): PoolBan => ({
  id: row.id,
  platformId: row.platform_id,
  reasonCategory: row.reason_category,
  status: row.status as PoolStatus,
  vouchCount: Number(row.vouch_count),
  vouchWeight: Math.round(Number(row.vouch_weight ?? 0) * 10_000) / 10_000,
  activatedAt: iso(row.activated_ms),
  expiresAt: iso(row.expires_ms),
  createdAt: iso(row.created_ms)!,
  updatedAt: iso(row.updated_ms)!
})

interface AppealRow {
  readonly id: string
  readonly ban_id: string
  readonly statement: string
  readonly status: string
  readonly created_ms: number | string
  readonly created_by: string | null
  readonly decided_ms: number | string | null
  readonly decided_by: string | null
  readonly decision_note: string | null
}

const toAppeal = (row: AppealRow): Appeal => ({
  id: row.id,
  banId: row.ban_id,
  statement: row.statement,
  status: row.status as Appeal["status"],
  createdAt: iso(row.created_ms)!,
  createdBy: row.created_by,
  decidedAt: iso(row.decided_ms),
  decidedBy: row.decided_by,
  decisionNote: row.decision_note
})

export class Pool extends Context.Tag("@garrison/plugins/trust/Pool")<Pool, PoolShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bans = yield* Bans
    const audit = yield* AuditTrail
    const settings = yield* trustSettings
    const generation = yield* PoolGeneration
    const now = Clock.currentTimeMillis

    const createdIso = new Date(yield* now).toISOString()
    yield* sql`INSERT INTO trust_communities (id, name, kind, weight, held, created_at)
               VALUES (${LOCAL_COMMUNITY}, ${settings.communityName}, 'local', ${STARTING_WEIGHT}, 0, ${createdIso})
               ON CONFLICT (id) DO NOTHING`.pipe(Effect.mapError(storeError("create the local community")))

    const banSelect = (where: ReturnType<typeof sql.and>, limit = 1) => sql<BanRow>`
      SELECT b.id, b.platform_id, b.reason_category, b.status, b.expires_ms, b.activated_ms, b.created_ms, b.updated_ms,
             (SELECT COUNT(*) FROM trust_vouches v WHERE v.ban_id = b.id) AS vouch_count,
             (SELECT SUM(c.weight) FROM trust_vouches v JOIN trust_communities c ON c.id = v.community_id WHERE v.ban_id = b.id) AS vouch_weight
      FROM trust_bans b WHERE ${where} ORDER BY b.updated_ms DESC, b.id DESC LIMIT ${limit}`

    const get: PoolShape["get"] = (id) =>
      banSelect(sql.and([sql`b.id = ${id}`])).pipe(
        Effect.mapError(storeError("read a pool ban")),
        Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(new TrustNotFound({ message: `no pool ban with id "${id}"` })) : Effect.succeed(toBan(rows[0]))))
      )

    /**
     * The feed's next tick, inside the caller's transaction: the wall clock, or one millisecond past the last
     * tick when that is later. The feed row stays locked until the transaction commits, so ticks are handed out
     * in commit order: a change the export has not shown yet always has a later tick than every change it has.
     */
    const tick = (at: number) =>
      Effect.map(
        sql<{ readonly at_ms: number | string }>`UPDATE trust_feed SET at_ms = CASE WHEN at_ms >= ${at} THEN at_ms + 1 ELSE ${at} END
                                                 WHERE id = 1 RETURNING at_ms`,
        (rows) => Number(rows[0]!.at_ms)
      )

    /** Activates a pending ban whose vouchers' weights reach the threshold (inside the caller's transaction). */
    const weigh = (banId: string, at: number) =>
      Effect.gen(function* () {
        const weights = yield* sql<{ readonly weight: number | string }>`
          SELECT c.weight FROM trust_vouches v JOIN trust_communities c ON c.id = v.community_id WHERE v.ban_id = ${banId}`
        if (!reachesThreshold(weights.map((w) => Number(w.weight)), settings.threshold)) return false
        const pending = yield* sql`SELECT id FROM trust_bans WHERE id = ${banId} AND status = 'pending'`
        if (pending.length === 0) return false
        const activated = yield* sql`UPDATE trust_bans SET status = 'active', activated_ms = ${at}, updated_ms = ${yield* tick(at)}
                                     WHERE id = ${banId} AND status = 'pending' RETURNING id`
        return activated.length > 0
      })

    /** The open ban of a player, or a new pending one (inside the caller's transaction). */
    const openBanFor = (platformId: string, reasonCategory: string, expiresMs: number | null, at: number) =>
      Effect.gen(function* () {
        const open = yield* sql<{ readonly id: string; readonly expires_ms: number | string | null }>`
          SELECT id, expires_ms FROM trust_bans WHERE platform_id = ${platformId} AND status IN ('pending', 'active')`
        if (open[0] !== undefined) {
          // The longest ban vouched for wins: a permanent vouch makes the pool ban permanent.
          const current = open[0].expires_ms === null ? null : Number(open[0].expires_ms)
          if (current !== null && (expiresMs === null || expiresMs > current)) {
            yield* sql`UPDATE trust_bans SET expires_ms = ${expiresMs}, updated_ms = ${yield* tick(at)} WHERE id = ${open[0].id}`
          }
          return open[0].id
        }
        const id = randomUUID()
        yield* sql`INSERT INTO trust_bans (id, platform_id, reason_category, status, expires_ms, activated_ms, created_ms, updated_ms)
                   VALUES (${id}, ${platformId}, ${reasonCategory}, 'pending', ${expiresMs}, NULL, ${at}, ${yield* tick(at)})`
        yield* rememberPlayer(sql, platformId)
        return id
      })

    const checkCaps = (communityId: string, at: number) =>
      Effect.gen(function* () {
        for (const cap of SUBMISSION_CAPS) {
          const [row] = yield* sql<{ readonly n: number | string }>`
            SELECT COUNT(*) AS n FROM trust_vouches WHERE community_id = ${communityId} AND submitted_ms > ${at - cap.windowMs}`
          if (Number(row?.n ?? 0) >= cap.max) {
            return yield* Effect.fail(
              new TrustConflict({ message: `this community has submitted ${cap.max} bans in the last ${cap.label}, its limit`, details: { limit: cap.max, window: cap.label } })
            )
          }
        }
      })

    const category = (value: string) =>
      (REASON_CATEGORIES as ReadonlyArray<string>).includes(value)
        ? Effect.succeed(value as ReasonCategory)
        : Effect.fail(new InvalidTrustInput({ field: "reasonCategory", message: `reasonCategory must be one of ${REASON_CATEGORIES.join(", ")}` }))

    /**
     * `self` in one transaction that first locks the feed row: every pool write takes its locks in one order
     * (the feed, then bans and communities), so two never wait on each other (PostgreSQL would find a deadlock:
     * an overturn ticks the feed then lowers weights, a review lowers weights then re-weighs). Pool writes are
     * an admin's or a subscription's pace: one at a time is plenty. The database's own errors become
     * `TrustStoreError`, the rest stay.
     */
    const transaction = <A, E>(self: Effect.Effect<A, E, never>, what: string): Effect.Effect<A, Exclude<E, SqlError> | TrustStoreError> =>
      sql.withTransaction(Effect.zipRight(sql`UPDATE trust_feed SET at_ms = at_ms WHERE id = 1`, self)).pipe(
        // What lookups keep is dropped whatever the outcome (a failed write changed nothing, but costs only a re-read).
        Effect.ensuring(Effect.sync(generation.bump)),Effect.mapError((e) => (e instanceof SqlError ? storeError(what)(e) : (e as Exclude<E, SqlError>))))

    const submit: PoolShape["submit"] = (input, by) =>
      Effect.gen(function* () {
        const reasonCategory = yield* category(input.reasonCategory)
        const ban = yield* bans.get(input.banId).pipe(
          Effect.catchTags({
            BanNotFound: () => Effect.fail(new TrustNotFound({ message: `no ban with id "${input.banId}" in the ban list` })),
            BanStoreError: (e) => Effect.fail(storeError("read the ban")(e))
          })
        )
        const at = yield* now
        const expiresMs = ban.expiresAt === null ? null : Date.parse(ban.expiresAt)
        if (expiresMs !== null && expiresMs <= at) return yield* Effect.fail(new TrustConflict({ message: "that ban has expired: only bans in force are shared" }))
        const id = yield* transaction(
          Effect.gen(function* () {
            yield* checkCaps(LOCAL_COMMUNITY, at)
            const banId = yield* openBanFor(ban.platformId, reasonCategory, expiresMs, at)
            const inserted = yield* sql`INSERT INTO trust_vouches (ban_id, community_id, reason_category, local_ban_id, note, submitted_ms, submitted_by)
                                        VALUES (${banId}, ${LOCAL_COMMUNITY}, ${reasonCategory}, ${ban.id}, ${input.note ?? null}, ${at}, ${by.name})
                                        ON CONFLICT (ban_id, community_id) DO NOTHING RETURNING ban_id`
            if (inserted.length === 0) return yield* Effect.fail(new TrustConflict({ message: "this community already vouches for this player's pool ban", details: { poolBanId: banId } }))
            yield* weigh(banId, at)
            return banId
          }),
          "submit a ban to the pool"
        )
        const pooled = yield* get(id).pipe(Effect.catchTag("TrustNotFound", Effect.die))
        yield* recordForRequest(audit, {
          actor: by.id,
          actorName: by.name,
          action: "trust.submit",
          target: pooled.platformId,
          result: "success",
          details: { poolBanId: pooled.id, banId: ban.id, reasonCategory, status: pooled.status }
        })
        return pooled
      })

    const vouch: PoolShape["vouch"] = (input) =>
      Effect.gen(function* () {
        const at = yield* now
        const id = yield* transaction(
          Effect.gen(function* () {
            const banId = yield* openBanFor(input.platformId, input.reasonCategory, input.expiresMs, at)
            yield* sql`INSERT INTO trust_vouches (ban_id, community_id, reason_category, local_ban_id, note, submitted_ms, submitted_by)
                       VALUES (${banId}, ${input.communityId}, ${input.reasonCategory}, NULL, NULL, ${at}, NULL)
                       ON CONFLICT (ban_id, community_id) DO NOTHING`
            yield* weigh(banId, at)
            return banId
          }),
          "record a partner's vouch"
        )
        return yield* get(id).pipe(Effect.catchTag("TrustNotFound", Effect.die))
      })

    const communityRows = sql<{
      readonly id: string
      readonly name: string
      readonly kind: string
      readonly weight: number | string
      readonly held: number | string
      readonly held_reason: string | null
      readonly reviewed_at: string | null
      readonly reviewed_by: string | null
      readonly submissions: number | string
    }>`SELECT c.id, c.name, c.kind, c.weight, c.held, c.held_reason, c.reviewed_at, c.reviewed_by,
              (SELECT COUNT(*) FROM trust_vouches v WHERE v.community_id = c.id) AS submissions
       FROM trust_communities c ORDER BY c.kind DESC, c.name`

    /** The statuses of a community's latest submissions, newest first. */
    const latestStatuses = (communityId: string) =>
      Effect.map(
        sql<{ readonly status: string }>`SELECT b.status FROM trust_vouches v JOIN trust_bans b ON b.id = v.ban_id
                                         WHERE v.community_id = ${communityId} ORDER BY v.submitted_ms DESC LIMIT ${OVERTURN_WINDOW}`,
        (rows) => rows.map((row) => row.status)
      )

    const communities: PoolShape["communities"] = Effect.gen(function* () {
      const rows = yield* communityRows
      return yield* Effect.forEach(rows, (row) =>
        Effect.map(latestStatuses(row.id), (statuses) => ({
          id: row.id,
          name: row.name,
          kind: row.kind === "local" ? ("local" as const) : ("partner" as const),
          weight: clampWeight(Number(row.weight)),
          held: Number(row.held) === 1,
          heldReason: row.held_reason,
          overturnRate: statuses.length === 0 ? null : Math.round((statuses.filter((s) => s === "overturned").length / statuses.length) * 1000) / 1000,
          submissions: Number(row.submissions),
          reviewedAt: row.reviewed_at,
          reviewedBy: row.reviewed_by
        }))
      )
    }).pipe(Effect.mapError(storeError("list the communities")))

    const overturn: PoolShape["overturn"] = (id, note, by) =>
      Effect.gen(function* () {
        const at = yield* now
        yield* transaction(
          Effect.gen(function* () {
            const open = yield* sql`SELECT id FROM trust_bans WHERE id = ${id} AND status IN ('pending', 'active')`
            const changed =
              open.length === 0
                ? []
                : yield* sql`UPDATE trust_bans SET status = 'overturned', updated_ms = ${yield* tick(at)}
                             WHERE id = ${id} AND status IN ('pending', 'active') RETURNING id`
            if (changed.length === 0) {
              const exists = yield* sql`SELECT status FROM trust_bans WHERE id = ${id}`
              return yield* Effect.fail(
                exists.length === 0 ? new TrustNotFound({ message: `no pool ban with id "${id}"` }) : new TrustConflict({ message: `that pool ban is ${String(exists[0]!["status"])} already` })
              )
            }
            const vouchers = yield* sql<{ readonly community_id: string }>`SELECT community_id FROM trust_vouches WHERE ban_id = ${id}`
            for (const { community_id } of vouchers) {
              const [row] = yield* sql<{ readonly weight: number | string }>`SELECT weight FROM trust_communities WHERE id = ${community_id}`
              const weight = clampWeight(Number(row?.weight ?? 0) * OVERTURN_FACTOR)
              const tooOften = overturnsTooOften(yield* latestStatuses(community_id))
              yield* tooOften
                ? sql`UPDATE trust_communities SET weight = 0, held = 1,
                        held_reason = ${"more than 30 % of its last 20 submissions were overturned"} WHERE id = ${community_id}`
                : sql`UPDATE trust_communities SET weight = ${weight} WHERE id = ${community_id}`
            }
          }),
          "overturn a pool ban"
        )
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.overturn", target: id, result: "success", details: { note } })
        return yield* get(id).pipe(Effect.catchTag("TrustNotFound", Effect.die))
      })

    const appealSelect = (id: string) =>
      sql<AppealRow>`SELECT * FROM trust_appeals WHERE id = ${id}`.pipe(
        Effect.mapError(storeError("read an appeal")),
        Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(new TrustNotFound({ message: `no appeal with id "${id}"` })) : Effect.succeed(toAppeal(rows[0]))))
      )

    const appeal: PoolShape["appeal"] = (banId, statement, by) =>
      Effect.gen(function* () {
        const ban = yield* get(banId)
        if (ban.status !== "pending" && ban.status !== "active") return yield* Effect.fail(new TrustConflict({ message: `that pool ban is ${ban.status}: there is nothing to appeal` }))
        const id = randomUUID()
        const at = yield* now
        yield* sql`INSERT INTO trust_appeals (id, ban_id, statement, status, created_ms, created_by) VALUES (${id}, ${banId}, ${statement}, 'open', ${at}, ${by.name})`.pipe(
          Effect.mapError(storeError("record an appeal"))
        )
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.appeal", target: banId, result: "success", details: { appealId: id } })
        return yield* appealSelect(id)
      })

    const decide: PoolShape["decide"] = (appealId, decision, note, by) =>
      Effect.gen(function* () {
        const found = yield* appealSelect(appealId)
        if (found.status !== "open") return yield* Effect.fail(new TrustConflict({ message: `that appeal was ${found.status} already` }))
        const at = yield* now
        const status = decision === "approve" ? "approved" : "rejected"
        const claimed = yield* sql`UPDATE trust_appeals SET status = ${status}, decided_ms = ${at}, decided_by = ${by.name}, decision_note = ${note}
                                   WHERE id = ${appealId} AND status = 'open' RETURNING id`.pipe(Effect.mapError(storeError("decide an appeal")))
        if (claimed.length === 0) return yield* Effect.fail(new TrustConflict({ message: "that appeal was decided meanwhile" }))
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: `trust.appeal.${status}`, target: found.banId, result: "success", details: { appealId, note } })
        // An approved appeal overturns the ban (unless it was lifted some other way meanwhile).
        if (decision === "approve") yield* overturn(found.banId, note, by).pipe(Effect.catchTag("TrustConflict", () => Effect.void))
        return yield* appealSelect(appealId)
      })

    const review: PoolShape["review"] = (id, weight, by) =>
      Effect.gen(function* () {
        if (!Number.isFinite(weight) || weight < 0 || weight > 2) {
          return yield* Effect.fail(new InvalidTrustInput({ field: "weight", message: "weight must be a number from 0 to 2" }))
        }
        const at = yield* now
        yield* transaction(
          Effect.gen(function* () {
            const changed = yield* sql`UPDATE trust_communities SET weight = ${clampWeight(weight)}, held = 0, held_reason = NULL,
                                         reviewed_at = ${new Date(at).toISOString()}, reviewed_by = ${by.name} WHERE id = ${id} RETURNING id`
            if (changed.length === 0) return yield* Effect.fail(new TrustNotFound({ message: `no community with id "${id}"` }))
            // A higher weight may carry pending bans it vouched for over the threshold.
            const pending = yield* sql<{ readonly id: string }>`SELECT b.id FROM trust_bans b JOIN trust_vouches v ON v.ban_id = b.id
                                                                WHERE v.community_id = ${id} AND b.status = 'pending'`
            for (const ban of pending) yield* weigh(ban.id, at)
          }),
          "review a community"
        )
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.community.review", target: id, result: "success", details: { weight } })
        const all = yield* communities
        return all.find((c) => c.id === id)!
      })

    const list: PoolShape["list"] = (filter) =>
      banSelect(
        sql.and([
          ...(filter.status === undefined ? [] : [sql`b.status = ${filter.status}`]),
          ...(filter.platformId === undefined ? [] : [sql`b.platform_id = ${filter.platformId}`]),
          sql`1 = 1`
        ]),
        filter.limit
      ).pipe(
        Effect.map((rows) => rows.map(toBan)),
        Effect.mapError(storeError("list the pool"))
      )

    return {
      submit,
      vouch,
      get,
      list,
      overturn,
      appeal,
      decide,
      appeals: (status) =>
        (status === undefined ? sql<AppealRow>`SELECT * FROM trust_appeals ORDER BY created_ms DESC` : sql<AppealRow>`SELECT * FROM trust_appeals WHERE status = ${status} ORDER BY created_ms DESC`).pipe(
          Effect.map((rows) => rows.map(toAppeal)),
          Effect.mapError(storeError("list appeals"))
        ),
      communities,
      review,
      ensureCommunity: (id, name) =>
        Effect.flatMap(now, (at) =>
          sql`INSERT INTO trust_communities (id, name, kind, weight, held, created_at)
              VALUES (${id}, ${name}, 'partner', ${STARTING_WEIGHT}, 0, ${new Date(at).toISOString()}) ON CONFLICT (id) DO NOTHING`
        ).pipe(Effect.asVoid, Effect.mapError(storeError("add a community"))),
      // Each expired ban takes its own tick: the feed orders changes one by one.
      expire: Effect.flatMap(now, (at) =>
        transaction(
          Effect.gen(function* () {
            const due = yield* sql<{ readonly id: string }>`SELECT id FROM trust_bans
                                                            WHERE status IN ('pending', 'active') AND expires_ms IS NOT NULL AND expires_ms <= ${at}`
            for (const { id } of due) yield* sql`UPDATE trust_bans SET status = 'expired', updated_ms = ${yield* tick(at)} WHERE id = ${id}`
            return due.length
          }),
          "expire pool bans"
        )
      )
    } satisfies PoolShape
  })

  static readonly layer = Layer.effect(Pool, Pool.make)
}
