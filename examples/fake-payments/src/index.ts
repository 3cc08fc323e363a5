/**
 * @garrison/example-fake-payments: a stand-in for a Stripe-compatible
 * payment provider (Checkout Sessions, a payment page, signed webhooks) for
 * the VIP store's tests and for trying the store by hand
 * (`npm run payments:fake`). See README.md.
 */
export {
  type DeliverOptions,
  type Delivery,
  type FakePayments,
  type FakePaymentsOptions,
  type FakeSession,
  type SeenRequest,
  startFakePayments,
  stripeSignature,
  stripeSignatureHeader
} from "./server.js"
