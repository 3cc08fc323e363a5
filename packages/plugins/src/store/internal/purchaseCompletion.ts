/**
 * What a paid or ended Checkout Session does to its purchase. The one
 * delivery that completes the purchase grants its priority through the
 * priority queue in the same transaction (`UPDATE ... WHERE status <>
 * 'completed'`), so a session grants once however often it is delivered;
 * then the servers' files, the admins and the bus are told.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { ADMIN, type EventBus } from "@garrison/runtime"
import type { NotificationsShape } from "../../notifications/index.js"
import { PRIORITY_ROLES, type PriorityQueueShape, type PriorityRole, type StagedPriorityGrant } from "../../priority/index.js"
import { WebhookReceipt } from "../contract/Api.js"
import { toDecimal } from "../contract/money.js"
import { StoreDataError } from "../errors.js"
import { StorePurchaseCompleted } from "../events.js"
import type { StoreDeps } from "./deps.js"
import type { ProviderSession } from "./providerEvent.js"

/** The priority entry's `addedBy` for a player the store gave priority to. */
export const STORE_GRANTER = "store"

const asPriorityRole = (role: string): PriorityRole | undefined => PRIORITY_ROLES.find((r) => r === role)

export const receipt = (outcome: WebhookReceipt["outcome"]) => new WebhookReceipt({ received: true, outcome })

export const makePurchaseCompletion = (
  { sql, purchaseColumns, nowIso, transaction, readPurchases, record }: StoreDeps,
  queue: PriorityQueueShape,
  notifications: NotificationsShape,
  bus: Context.Tag.Service<typeof EventBus>
) => {
  /** The purchase a session is for: by its reference (our purchase id), else by the session id. */
  const purchaseFor = (session: ProviderSession) =>
    Effect.gen(function* () {
      const fromMetadata = session.metadata?.["purchaseId"]
      const reference = session.client_reference_id ?? (typeof fromMetadata === "string" ? fromMetadata : null)
      const rows = yield* readPurchases("read a purchase")(
        sql`SELECT ${purchaseColumns} FROM store_purchases WHERE id = ${reference ?? ""} OR provider_session_id = ${session.id}`
      )
      const row = rows.find((r) => r.id === reference) ?? rows.find((r) => r.provider_session_id === session.id)
      // A session the row does not know (another session with our reference) is not this purchase's payment.
      return row !== undefined && (row.provider_session_id === null || row.provider_session_id === session.id) ? row : undefined
    })

  const unmatched = (eventId: string, session: ProviderSession) =>
    Effect.as(
      Effect.zipRight(
        Effect.logWarning(`store: a paid session ${session.id} (event ${eventId}) matches no purchase; nothing was granted`),
        record(null, "store.webhook-unmatched", session.id, "failure", { eventId, sessionId: session.id, reference: session.client_reference_id ?? null })
      ),
      receipt("ignored")
    )

  /** The one delivery that completes the purchase grants its priority, in the same transaction; the rest are duplicates. */
  const complete = (eventId: string, session: ProviderSession) =>
    Effect.gen(function* () {
      const purchase = yield* purchaseFor(session)
      if (purchase === undefined) return yield* unmatched(eventId, session)
      const role = asPriorityRole(purchase.role)
      // An invariant: products only take the priority queue's roles (StoreRole), and purchases copy them.
      if (role === undefined) return yield* Effect.dieMessage(`store: purchase ${purchase.id} has role "${purchase.role}", which the priority queue does not know`)
      const at = yield* nowIso
      const amount = session.amount_total ?? purchase.amount
      const currency = session.currency?.toUpperCase() ?? purchase.currency
      const done = yield* transaction(
        "complete a purchase",
        Effect.gen(function* () {
          const opened = yield* readPurchases("complete a purchase")(
            sql`UPDATE store_purchases SET status = 'completed', completed_at = ${at}, provider_event_id = ${eventId},
              provider_session_id = ${session.id}, amount = ${amount}, currency = ${currency}
              WHERE id = ${purchase.id} AND status <> 'completed' RETURNING ${purchaseColumns}`
          )
          const row = opened[0]
          if (row === undefined) return undefined
          const staged: StagedPriorityGrant = yield* queue.grantWithin({
            platformId: row.platform_id,
            name: row.player_name,
            role,
            days: row.duration_days,
            source: "purchase",
            grantedBy: STORE_GRANTER
          }).pipe(Effect.mapError((error) => new StoreDataError({ message: `grant priority: ${error.message}` })))
          const entry = staged.result.entry
          yield* sql`UPDATE store_purchases SET entry_id = ${entry.id}, grant_outcome = ${staged.result.outcome},
            entry_expires_at = ${entry.expiresAt} WHERE id = ${row.id}`
          yield* record(null, "store.purchase", row.id, "success", {
            platformId: row.platform_id,
            playerName: row.player_name,
            productId: row.product_id,
            product: row.product_name,
            amount,
            currency,
            sessionId: session.id,
            eventId,
            outcome: staged.result.outcome,
            expiresAt: entry.expiresAt
          })
          // Its durable consumers (webhooks' outbox) write in this transaction: the event commits with the purchase.
          const completed = new StorePurchaseCompleted({
            purchaseId: row.id,
            platformId: row.platform_id,
            playerName: row.player_name,
            productId: row.product_id,
            productName: row.product_name,
            role: row.role,
            durationDays: row.duration_days,
            amount,
            currency,
            entryId: entry.id,
            expiresAt: entry.expiresAt,
            outcome: staged.result.outcome
          })
          yield* bus.stage(completed)
          return { row, staged, completed }
        })
      )
      if (done === undefined) return receipt("duplicate")
      const { row, staged, completed } = done
      const entry = staged.result.entry
      // Committed: the servers' files, the admins and the bus follow; none of them can undo the purchase.
      yield* staged.announce.pipe(
        Effect.catchAll((error) => Effect.logWarning(`store: purchase ${row.id} granted, but the servers were not synced now: ${error.message}`))
      )
      yield* notifications
        .publish({
          audience: { permission: ADMIN },
          level: "info",
          title: `VIP store: ${row.player_name} bought ${row.product_name}`.slice(0, 200),
          message:
            `${row.player_name} (${row.platform_id}) paid ${toDecimal(amount, currency)} ${currency}: ${row.role} priority ` +
            (entry.expiresAt === null ? "for good." : `until ${entry.expiresAt}.`),
          link: "/store/admin"
        })
        .pipe(Effect.catchAll((error) => Effect.logWarning(`store: no notification for purchase ${row.id}: ${error.message}`)))
      yield* bus.publish(completed)
      return receipt("granted")
    })

  /** A pending purchase whose session ended unpaid. */
  const end = (session: ProviderSession, status: "expired" | "failed", eventId: string) =>
    Effect.gen(function* () {
      const purchase = yield* purchaseFor(session)
      if (purchase === undefined) return receipt("ignored")
      const ended = yield* transaction(
        "end a purchase",
        Effect.gen(function* () {
          const rows = yield* sql`UPDATE store_purchases SET status = ${status}, provider_session_id = ${session.id}
            WHERE id = ${purchase.id} AND status = 'pending' RETURNING id`
          if (rows.length === 0) return false
          yield* record(null, status === "expired" ? "store.checkout-expired" : "store.payment-failed", purchase.id, "success", { sessionId: session.id, eventId })
          return true
        })
      )
      return receipt(ended ? status : "ignored")
    })

  return { complete, end }
}
