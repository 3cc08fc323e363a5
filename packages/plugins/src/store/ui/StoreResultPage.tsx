/** Where the payment provider sends the buyer back: after paying (success) or after giving up (cancel). */
import { Link } from "@dashboard/app/router.js"

/** `success_url` (`/store/success?session_id={CHECKOUT_SESSION_ID}`): the payment is the provider's to confirm; the priority follows its webhook. */
export const StoreSuccessPage = () => {
  const session = new URLSearchParams(window.location.search).get("session_id")
  return (
    <section className="stack">
      <h1>Payment received</h1>
      <p role="status">
        Thank you! As soon as the payment provider confirms the payment, your priority is added on every server: usually within a
        minute. Rejoin the queue then.
      </p>
      {session !== null && /^[\w-]{1,255}$/.test(session) && (
        <p className="muted">
          Your payment reference: <span className="mono">{session}</span>
        </p>
      )}
      <p>
        <Link to="/store">Back to the store</Link>
      </p>
    </section>
  )
}

/** `cancel_url` (`/store/cancel`): nothing was paid. */
export const StoreCancelPage = () => (
  <section className="stack">
    <h1>Payment cancelled</h1>
    <p role="status">Nothing was charged. You can choose a product again whenever you like.</p>
    <p>
      <Link to="/store">Back to the store</Link>
    </p>
  </section>
)
