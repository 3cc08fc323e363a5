/**
 * The public VIP store: whether it is open, the products on sale, and the
 * checkout form (the buyer's Steam64 id and in-game name), which sends the
 * buyer to the payment provider's page. Buying needs a signed-in account
 * (the spec's "Any auth"): a visitor who is not signed in is offered the
 * sign-in form first.
 */
import { useState } from "react"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { api } from "@dashboard/api/client.js"
import { usePublicSession } from "@dashboard/app/extensions.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { CheckoutInput, type StoreProduct } from "../contract/Api.js"
import { formatDuration, formatPrice } from "./format.js"

const decodeCheckout = Schema.decodeUnknownEither(CheckoutInput)

const StorePage = () => {
  const session = usePublicSession()
  const status = useResource(() => api((c) => c.store.status()), [])
  const products = useResource(() => api((c) => c.store.products()), [])
  const [chosen, setChosen] = useState<StoreProduct | undefined>()
  const [platformId, setPlatformId] = useState("")
  const [playerName, setPlayerName] = useState("")
  const [problem, setProblem] = useState<string | undefined>()

  const buy = useSubmit(async () => {
    setProblem(undefined)
    const payload = decodeCheckout({ productId: chosen?.id ?? "", platformId, playerName })
    if (Either.isLeft(payload)) {
      setProblem(/platformId/.test(String(payload.left)) ? "The Steam64 id is 17 digits starting 7656119." : "Enter your in-game name (one line, at most 128 characters).")
      return
    }
    const started = await api((c) => c.store.checkout({ payload: payload.right }))
    window.location.assign(started.url)
  })

  const open = status.data !== undefined && status.data.enabled && status.data.configured

  return (
    <section className="stack">
      <h1>VIP store</h1>
      <p>Queue priority on every server of this community: when a server is full, you get in first.</p>
      <Loaded resource={status}>
        {(s) =>
          s.enabled && s.configured ? null : (
            <p className="notice warn" role="status">
              The store is closed at the moment. Come back later.
            </p>
          )
        }
      </Loaded>
      <Loaded resource={products}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">Nothing is on sale yet.</p>
          ) : (
            <ul className="product-list" aria-label="Products">
              {list.items.map((product) => (
                <li key={product.id} className="card stack">
                  <h2>{product.name}</h2>
                  <div className="row">
                    <span className="badge">{product.role}</span>
                    <span className="muted">{formatDuration(product.durationDays)}</span>
                  </div>
                  {product.description !== "" && <p>{product.description}</p>}
                  <div className="price">{formatPrice(product.price, product.currency)}</div>
                  <button
                    type="button"
                    aria-pressed={chosen?.id === product.id}
                    disabled={!open}
                    onClick={() => setChosen(product)}
                  >
                    {chosen?.id === product.id ? "Chosen" : "Choose"}
                    <span className="sr-only"> {product.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {chosen !== undefined && open && (
        <form className="card stack" onSubmit={buy.submit} aria-labelledby="checkout-title">
          <h2 id="checkout-title">
            Buy {chosen.name} for {formatPrice(chosen.price, chosen.currency)}
          </h2>
          <div className="grid">
            <label>
              Your Steam64 id
              <input
                name="platformId"
                value={platformId}
                onChange={(e) => setPlatformId(e.target.value.trim())}
                inputMode="numeric"
                autoComplete="off"
                placeholder="76561198000000000"
                pattern="7656119[0-9]{10}"
                title="17 digits starting 7656119"
                required
              />
            </label>
            <label>
              Your in-game name
              <input name="playerName" value={playerName} onChange={(e) => setPlayerName(e.target.value)} maxLength={128} required />
            </label>
          </div>
          <p className="muted">The priority is given to this Steam account on every server as soon as the payment is confirmed.</p>
          {problem !== undefined && (
            <p className="notice error" role="alert">
              {problem}
            </p>
          )}
          {session.signedIn === false ? (
            <div className="stack">
              <p className="notice" role="status">
                Buying needs an account here: sign in first.
              </p>
              <div>
                <button type="button" className="primary" onClick={session.signIn}>
                  Sign in to buy
                </button>
              </div>
            </div>
          ) : (
            <div>
              <SubmitButton busy={buy.busy} busyLabel="Going to the payment page">
                Continue to payment
              </SubmitButton>
            </div>
          )}
        </form>
      )}
    </section>
  )
}

export default StorePage
