/** The VIP store's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { toDecimal } from "./contract/money.js"
import { StorePurchaseCompleted } from "./events.js"

export const STORE_EVENTS = [
  published(StorePurchaseCompleted, {
    name: "store.purchase",
    description:
      "A VIP store purchase was paid: the player's priority entry was granted or extended (every server's priority.txt synced). " +
      "`amount` is in the currency's minor unit (499 EUR is 4.99 EUR); `expiresAt` is null for permanent priority.",
    example: new StorePurchaseCompleted({
      purchaseId: "3f6b1d2e-9c4a-4e8b-b1d7-5a2c0e9f7b13",
      platformId: "76561198000000001",
      playerName: "Survivor",
      productId: "0b5f6f1e-6c1a-4c57-9a4e-2f3d8e1b7c90",
      productName: "VIP 30 days",
      role: "VIP",
      durationDays: 30,
      amount: 499,
      currency: "EUR",
      entryId: "7c1e9a40-5b2d-4f8e-a1c3-6d9b0e2f4a57",
      expiresAt: "2026-04-13T20:15:00.000Z",
      outcome: "added"
    }),
    severity: "success",
    summary: (e) =>
      `${oneLine(e.playerName, 100)} (${e.platformId}) bought ${oneLine(e.productName, 100)} for ${toDecimal(e.amount, e.currency)} ${e.currency}`
  })
]
