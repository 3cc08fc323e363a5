/**
 * Subscriptions: this instance following partners' exports. Each pulls on
 * its interval (or when an admin asks), follows `nextCursor` to the end and
 * keeps `resumeSince` for the next pull. A row `active` that passes the
 * subscription's policy (enough vouches, a category it takes, a player not
 * on its exemption list) becomes the partner community's vouch in this
 * pool and a local ban with source `trust:<name>` (so every server's
 * `ban.txt` follows, as for every ban); its tombstone (`overturned`,
 * `expired`) lifts that local ban. A local ban someone made by hand is never
 * taken over or lifted by a feed. The partner's key is sealed at rest
 * (`trust-subscriptions-key`) and never answered.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { AuditTrail, type AuditActor, errorMessage, recordForRequest, SEALED_PREFIX, SealedSecrets, type SealingKey } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { Bans } from "../bans/index.js"
import { InvalidTrustInput, TrustConflict, TrustNotFound, type TrustStoreError, storeError } from "./errors.js"
import { fetchPage, type RemotePage, type RemoteRow } from "./internal/remoteExport.js"
import { REASON_CATEGORIES } from "./internal/rules.js"
import { Pool } from "./Pool.js"

export const SUBSCRIPTIONS_KEY = {
  name: "trust-subscriptions-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the partner keys of trust subscriptions (AES-256-GCM)",
    ifReplaced: "every subscription's partner key becomes unreadable: enter them again"
  }
} as const satisfies SealingKey

export interface SubscriptionPolicy {
  /** Rows with fewer vouches are not enforced here. */
  readonly minVouches: number
  /** The reason categories enforced (empty: all). */
  readonly categories: ReadonlyArray<string>
  /** Players (Steam64) this feed never bans here. */
  readonly exemptions: ReadonlyArray<string>
}

export interface Subscription extends SubscriptionPolicy {
  readonly id: string
  readonly name: string
  readonly baseUrl: string
  /** `gtp_…abcd`: the partner key's hint. */
  readonly keyHint: string
  readonly intervalSeconds: number
  readonly enabled: boolean
  /** Where the next pull starts (epoch ms, the partner's feed). */
  readonly since: number
  readonly lastPullAt: string | null
  readonly lastError: string | null
  /** Rows the last pull read. */
  readonly lastChanges: number | null
  /** Local bans this feed holds now. */
  readonly bansHeld: number
  readonly createdAt: string
  readonly createdBy: string | null
}

export interface SubscriptionInput extends SubscriptionPolicy {
  readonly name: string
  readonly baseUrl: string
  readonly partnerKey: string
  readonly intervalSeconds: number
  readonly enabled: boolean
}

export interface PullReport {
  readonly read: number
  readonly banned: number
  readonly lifted: number
  readonly skipped: number
}

export interface SubscriptionsShape {
  readonly list: Effect.Effect<ReadonlyArray<Subscription>, TrustStoreError>
  readonly get: (id: string) => Effect.Effect<Subscription, TrustNotFound | TrustStoreError>
  readonly create: (input: SubscriptionInput, by: AuditActor) => Effect.Effect<Subscription, InvalidTrustInput | TrustConflict | TrustStoreError>
  readonly update: (
    id: string,
    patch: Partial<SubscriptionPolicy> & {
      readonly enabled?: boolean
      readonly intervalSeconds?: number
      readonly partnerKey?: string
      /** The partner moved: the feed goes on from where it was (same partner, same feed). */
      readonly baseUrl?: string
    },
    by: AuditActor
  ) => Effect.Effect<Subscription, InvalidTrustInput | TrustNotFound | TrustStoreError>
  /** Stops following; with `liftBans` the local bans it made are lifted too. */
  readonly remove: (id: string, liftBans: boolean, by: AuditActor) => Effect.Effect<{ readonly lifted: number }, TrustNotFound | TrustStoreError>
  /** Pulls now (one pull at a time per subscription); the report, or the failure recorded as `lastError`. */
  readonly pull: (id: string) => Effect.Effect<PullReport, TrustNotFound | TrustConflict | TrustStoreError>
  /** Pulls every enabled subscription whose interval has passed (the plugin's job). */
  readonly pullDue: Effect.Effect<void, TrustStoreError>
}

interface Row {
  readonly id: string
  readonly name: string
  readonly base_url: string
  readonly partner_key: string
  readonly min_vouches: number | string
  readonly categories: string
  readonly exemptions: string
  readonly interval_s: number | string
  readonly enabled: number | string
  readonly since_ms: number | string
  readonly last_pull_ms: number | string | null
  readonly last_error: string | null
  readonly last_changes: number | string | null
  readonly created_ms: number | string
  readonly created_by: string | null
  readonly bans_held: number | string
}

const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/
const STEAM64 = /^\d{17}$/
const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

const checkPolicy = (policy: Partial<SubscriptionPolicy>) => {
  if (policy.minVouches !== undefined && (!Number.isInteger(policy.minVouches) || policy.minVouches < 1 || policy.minVouches > 100)) {
    return Either.left(new InvalidTrustInput({ field: "minVouches", message: "minVouches must be a whole number from 1 to 100" }))
  }
  const unknown = (policy.categories ?? []).filter((c) => !(REASON_CATEGORIES as ReadonlyArray<string>).includes(c))
  if (unknown.length > 0) return Either.left(new InvalidTrustInput({ field: "categories", message: `categories takes ${REASON_CATEGORIES.join(", ")} (empty: all)` }))
  if ((policy.exemptions ?? []).some((id) => !STEAM64.test(id))) return Either.left(new InvalidTrustInput({ field: "exemptions", message: "exemptions are Steam64 ids" }))
  return Either.right(undefined)
}

/** Whether the subscription's policy enforces a row here. */
export const enforces = (policy: SubscriptionPolicy, row: RemoteRow): boolean =>
  row.vouchCount >= policy.minVouches &&
  (policy.categories.length === 0 || policy.categories.includes(row.reasonCategory)) &&
  !policy.exemptions.includes(row.platformId)

export class Subscriptions extends Context.Tag("@garrison/plugins/trust/Subscriptions")<Subscriptions, SubscriptionsShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pool = yield* Pool
    const bans = yield* Bans
    const audit = yield* AuditTrail
    const [sealed] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM trust_subscriptions WHERE partner_key LIKE ${`${SEALED_PREFIX}%`}`.pipe(
      Effect.mapError(storeError("count the sealed partner keys"))
    )
    const box = yield* (yield* SealedSecrets).box(SUBSCRIPTIONS_KEY, { sealedValuesExist: Number(sealed?.n ?? 0) > 0, sealedWhat: "the trust subscriptions' partner keys" })
    const running = new Set<string>()

    const toSubscription = (row: Row): Subscription => {
      const key = box.open(row.partner_key, `trust/subscription/${row.id}`)
      const clear = Either.getOrElse(key, () => "")
      return {
        id: row.id,
        name: row.name,
        baseUrl: row.base_url,
        keyHint: clear.length >= 8 ? `${clear.slice(0, 4)}…${clear.slice(-4)}` : "(unreadable: enter it again)",
        minVouches: Number(row.min_vouches),
        categories: JSON.parse(row.categories) as Array<string>,
        exemptions: JSON.parse(row.exemptions) as Array<string>,
        intervalSeconds: Number(row.interval_s),
        enabled: Number(row.enabled) === 1,
        since: Number(row.since_ms),
        lastPullAt: iso(row.last_pull_ms),
        lastError: row.last_error,
        lastChanges: row.last_changes === null ? null : Number(row.last_changes),
        bansHeld: Number(row.bans_held),
        createdAt: iso(row.created_ms)!,
        createdBy: row.created_by
      }
    }

    const select = (where: ReturnType<typeof sql.and>) =>
      sql<Row>`SELECT s.*, (SELECT COUNT(*) FROM trust_subscription_bans b WHERE b.subscription_id = s.id) AS bans_held
               FROM trust_subscriptions s WHERE ${where} ORDER BY s.name`.pipe(
        Effect.map((all) => all.map(toSubscription)),
        Effect.mapError(storeError("read subscriptions"))
      )
    const list = select(sql.and([sql`1 = 1`]))
    const get: SubscriptionsShape["get"] = (id) =>
      Effect.flatMap(select(sql.and([sql`s.id = ${id}`])), (found) =>
        found[0] === undefined ? Effect.fail(new TrustNotFound({ message: `no subscription with id "${id}"` })) : Effect.succeed(found[0])
      )
    const keyOf = (id: string) =>
      Effect.flatMap(
        sql<{ readonly partner_key: string }>`SELECT partner_key FROM trust_subscriptions WHERE id = ${id}`.pipe(Effect.mapError(storeError("read a partner key"))),
        (found) => Effect.succeed(Either.getOrUndefined(box.open(found[0]?.partner_key ?? "", `trust/subscription/${id}`)))
      )

    const feedActor = (name: string): AuditActor => ({ id: "trust-subscription", name: `trust:${name}` })

    /** One row of the partner's feed, applied here. */
    const apply = (subscription: Subscription, row: RemoteRow) =>
      Effect.gen(function* () {
        const [mapped] = yield* sql<{ readonly local_ban_id: string }>`SELECT local_ban_id FROM trust_subscription_bans
                                                                      WHERE subscription_id = ${subscription.id} AND remote_ban_id = ${row.id}`
        if (row.status !== "active") {
          if (mapped === undefined) return "skipped" as const
          yield* bans.remove(mapped.local_ban_id, feedActor(subscription.name)).pipe(Effect.catchTag("BanNotFound", () => Effect.void))
          yield* sql`DELETE FROM trust_subscription_bans WHERE subscription_id = ${subscription.id} AND remote_ban_id = ${row.id}`
          return "lifted" as const
        }
        if (mapped !== undefined || !enforces(subscription, row)) return "skipped" as const
        yield* pool.vouch({ communityId: subscription.id, platformId: row.platformId, reasonCategory: row.reasonCategory, expiresMs: row.expiresAt === null ? null : Date.parse(row.expiresAt) })
        const source = `trust:${subscription.name}`
        const local = yield* bans
          .add(
            { platformId: row.platformId, playerName: row.platformId, reason: `Trust network (${subscription.name}): ${row.reasonCategory}`, expiresAt: row.expiresAt, source },
            feedActor(subscription.name)
          )
          .pipe(
            Effect.map((ban) => ban.id),
            // Banned here already: taken over only when this feed made it (a pull cut short before it was recorded).
            Effect.catchTag("BanExists", (exists) =>
              Effect.map(bans.get(exists.existingId), (existing) => (existing.source === source ? existing.id : undefined))
            )
          )
        if (local === undefined) return "skipped" as const
        yield* sql`INSERT INTO trust_subscription_bans (subscription_id, remote_ban_id, platform_id, local_ban_id)
                   VALUES (${subscription.id}, ${row.id}, ${row.platformId}, ${local}) ON CONFLICT (subscription_id, remote_ban_id) DO NOTHING`
        return "banned" as const
      })

    const pull: SubscriptionsShape["pull"] = (id) =>
      Effect.gen(function* () {
        if (running.has(id)) return yield* Effect.fail(new TrustConflict({ message: "this subscription is pulling already" }))
        running.add(id)
        return yield* Effect.gen(function* () {
          const subscription = yield* get(id)
          const key = yield* keyOf(id)
          const report = { read: 0, banned: 0, lifted: 0, skipped: 0 }
          const outcome = yield* Effect.either(
            Effect.gen(function* () {
              if (key === undefined) return yield* Effect.fail("the partner key cannot be read here: enter it again")
              let since = subscription.since
              let cursor: string | null = null
              do {
                const page: RemotePage = yield* fetchPage(subscription.baseUrl, key, cursor === null ? { since } : { cursor })
                for (const row of page.bans) {
                  const applied = yield* apply(subscription, row).pipe(Effect.mapError((e) => `applying ${row.platformId}: ${errorMessage(e)}`))
                  report.read++
                  report[applied]++
                }
                cursor = page.nextCursor
                since = page.resumeSince
                // Each page's end is kept: a pull cut short starts again after the last page it applied.
                yield* sql`UPDATE trust_subscriptions SET since_ms = ${since} WHERE id = ${id}`.pipe(Effect.mapError((e) => errorMessage(e)))
              } while (cursor !== null)
            })
          )
          const at = yield* Clock.currentTimeMillis
          const error = Either.isLeft(outcome) ? String(outcome.left) : null
          yield* sql`UPDATE trust_subscriptions SET last_pull_ms = ${at}, last_error = ${error}, last_changes = ${report.read} WHERE id = ${id}`.pipe(
            Effect.mapError(storeError("record a pull"))
          )
          if (error !== null) yield* Effect.logWarning(`trust subscription ${subscription.name}: ${error}`)
          return report
        }).pipe(Effect.ensuring(Effect.sync(() => running.delete(id))))
      })

    const create: SubscriptionsShape["create"] = (input, by) =>
      Effect.gen(function* () {
        if (!NAME.test(input.name)) {
          return yield* Effect.fail(new InvalidTrustInput({ field: "name", message: "name must be 1 to 40 lower-case letters, digits or dashes (it names the bans' source, trust:<name>)" }))
        }
        const policy = checkPolicy(input)
        if (Either.isLeft(policy)) return yield* Effect.fail(policy.left)
        const id = randomUUID()
        const at = yield* Clock.currentTimeMillis
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const taken = yield* sql`SELECT id FROM trust_subscriptions WHERE name = ${input.name}`
            if (taken.length > 0) return yield* Effect.fail(new TrustConflict({ message: `a subscription named "${input.name}" exists` }))
            yield* sql`INSERT INTO trust_subscriptions (id, name, base_url, partner_key, min_vouches, categories, exemptions, interval_s, enabled, since_ms, created_ms, created_by)
                       VALUES (${id}, ${input.name}, ${input.baseUrl}, ${box.seal(input.partnerKey, `trust/subscription/${id}`)}, ${input.minVouches},
                               ${JSON.stringify(input.categories)}, ${JSON.stringify(input.exemptions)}, ${input.intervalSeconds}, ${input.enabled ? 1 : 0}, 0, ${at}, ${by.name})`
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("add a subscription")(e))))
        yield* pool.ensureCommunity(id, input.name)
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.subscription.create", target: id, result: "success", details: { name: input.name, baseUrl: input.baseUrl } })
        return yield* get(id).pipe(Effect.catchTag("TrustNotFound", Effect.die))
      })

    const update: SubscriptionsShape["update"] = (id, patch, by) =>
      Effect.gen(function* () {
        const current = yield* get(id)
        const policy = checkPolicy(patch)
        if (Either.isLeft(policy)) return yield* Effect.fail(policy.left)
        const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Subscription
        yield* sql`UPDATE trust_subscriptions SET min_vouches = ${next.minVouches}, categories = ${JSON.stringify(next.categories)},
                     exemptions = ${JSON.stringify(next.exemptions)}, interval_s = ${next.intervalSeconds}, enabled = ${next.enabled ? 1 : 0},
                     base_url = ${next.baseUrl} WHERE id = ${id}`.pipe(
          Effect.mapError(storeError("change a subscription"))
        )
        if (patch.partnerKey !== undefined) {
          yield* sql`UPDATE trust_subscriptions SET partner_key = ${box.seal(patch.partnerKey, `trust/subscription/${id}`)} WHERE id = ${id}`.pipe(
            Effect.mapError(storeError("change a partner key"))
          )
        }
        yield* recordForRequest(audit, {
          actor: by.id,
          actorName: by.name,
          action: "trust.subscription.update",
          target: id,
          result: "success",
          details: { fields: Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined) }
        })
        return yield* get(id)
      })

    const remove: SubscriptionsShape["remove"] = (id, liftBans, by) =>
      Effect.gen(function* () {
        const subscription = yield* get(id)
        let lifted = 0
        if (liftBans) {
          const held = yield* sql<{ readonly local_ban_id: string }>`SELECT local_ban_id FROM trust_subscription_bans WHERE subscription_id = ${id}`.pipe(
            Effect.mapError(storeError("read a subscription's bans"))
          )
          for (const { local_ban_id } of held) {
            yield* bans.remove(local_ban_id, feedActor(subscription.name)).pipe(
              Effect.catchTag("BanNotFound", () => Effect.void),
              Effect.mapError(storeError("lift a subscription's ban"))
            )
            lifted++
          }
        }
        yield* sql.withTransaction(
          Effect.zipRight(sql`DELETE FROM trust_subscription_bans WHERE subscription_id = ${id}`, sql`DELETE FROM trust_subscriptions WHERE id = ${id}`)
        ).pipe(Effect.mapError(storeError("remove a subscription")))
        yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.subscription.remove", target: id, result: "success", details: { name: subscription.name, lifted } })
        return { lifted }
      })

    const pullDue: SubscriptionsShape["pullDue"] = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      for (const subscription of yield* list) {
        const last = subscription.lastPullAt === null ? 0 : Date.parse(subscription.lastPullAt)
        if (!subscription.enabled || now - last < subscription.intervalSeconds * 1000) continue
        yield* pull(subscription.id).pipe(Effect.catchTags({ TrustConflict: () => Effect.void, TrustNotFound: () => Effect.void }))
      }
    })

    return {
      list,
      get,
      create,
      update,
      remove,
      pull,
      pullDue
    } satisfies SubscriptionsShape
  })

  static readonly layer = Layer.effect(Subscriptions, Subscriptions.make)
}
