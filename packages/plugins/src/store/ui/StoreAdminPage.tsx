/**
 * The VIP store for admins: the payment provider's settings (secrets are
 * written, never read back: the page shows whether each is set and its
 * hint), the products (add, change, hide, remove) and the purchases
 * (newest first, by status, more on demand).
 */
import { useEffect, useState } from "react"
import * as Schema from "effect/Schema"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import {
  type PaymentConfig,
  PaymentConfigInput,
  PURCHASE_STATUSES,
  STORE_DURATIONS,
  STORE_ROLES,
  type StoreProduct,
  StoreProductInput,
  StoreProductPatch,
  type StorePurchase
} from "../contract/Api.js"
import { formatDuration, formatPrice } from "./format.js"

const origin = window.location.origin

const PaymentSettings = () => {
  const config = useResource(() => api((c) => c.storeAdmin.paymentConfig()), [])
  return <Loaded resource={config}>{(current) => <PaymentForm current={current} saved={(next) => config.set(() => next)} />}</Loaded>
}

const PaymentForm = ({ current, saved }: { readonly current: PaymentConfig; readonly saved: (next: PaymentConfig) => void }) => {
  const [enabled, setEnabled] = useState(current.enabled)
  const [currency, setCurrency] = useState(current.currency)
  const [baseUrl, setBaseUrl] = useState(current.baseUrl)
  const [secretKey, setSecretKey] = useState("")
  const [webhookSecret, setWebhookSecret] = useState("")
  const [successUrl, setSuccessUrl] = useState(current.successUrl ?? `${origin}/store/success?session_id={CHECKOUT_SESSION_ID}`)
  const [cancelUrl, setCancelUrl] = useState(current.cancelUrl ?? `${origin}/store/cancel`)
  const save = useSubmit(async () => {
    const payload = Schema.decodeUnknownSync(PaymentConfigInput)({
      enabled,
      currency,
      baseUrl,
      successUrl,
      cancelUrl,
      // Left empty: kept as it is (secrets are never shown, so there is nothing to edit).
      ...(secretKey === "" ? {} : { secretKey }),
      ...(webhookSecret === "" ? {} : { webhookSecret })
    })
    saved(await api((c) => c.storeAdmin.setPaymentConfig({ payload })))
    setSecretKey("")
    setWebhookSecret("")
  }, "Payment settings saved")
  const secretState = (state: PaymentConfig["secretKey"]) => (state.set ? `set (${state.hint ?? "hidden"}); leave empty to keep it` : "not set")
  return (
    <form className="card stack" onSubmit={save.submit} aria-labelledby="payment-title">
      <h2 id="payment-title">Payment provider</h2>
      <p className="muted">
        A Stripe-compatible provider. Register this webhook there, for the event <code>checkout.session.completed</code>:{" "}
        <span className="mono">{origin}/api/store/webhook</span>
      </p>
      {!current.configured && (
        <p className="notice warn" role="status">
          Still missing before the store can open: {current.missing.join(", ")}.
        </p>
      )}
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> The store is open
      </label>
      <div className="grid">
        <label>
          Currency (ISO 4217)
          <input value={currency} onChange={(e) => setCurrency(e.target.value.trim().toUpperCase())} maxLength={3} required />
        </label>
        <label>
          Provider API address
          <input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value.trim())} required />
        </label>
        <label>
          Secret API key: {secretState(current.secretKey)}
          <input type="password" value={secretKey} onChange={(e) => setSecretKey(e.target.value.trim())} autoComplete="off" />
        </label>
        <label>
          Webhook signing secret: {secretState(current.webhookSecret)}
          <input type="password" value={webhookSecret} onChange={(e) => setWebhookSecret(e.target.value.trim())} autoComplete="off" />
        </label>
        <label>
          Address after paying
          <input type="url" value={successUrl} onChange={(e) => setSuccessUrl(e.target.value.trim())} required />
        </label>
        <label>
          Address after cancelling
          <input type="url" value={cancelUrl} onChange={(e) => setCancelUrl(e.target.value.trim())} required />
        </label>
      </div>
      <div className="row">
        <SubmitButton busy={save.busy} busyLabel="Saving">
          Save payment settings
        </SubmitButton>
        <Link to="/store">Open the store page</Link>
      </div>
    </form>
  )
}

interface ProductFields {
  readonly name: string
  readonly description: string
  readonly role: string
  readonly price: string
  readonly currency: string
  readonly duration: string
  readonly customDays: string
  readonly active: boolean
}

const EMPTY: ProductFields = { name: "", description: "", role: STORE_ROLES[0], price: "", currency: "", duration: "30d", customDays: "", active: true }

const fieldsOf = (product: StoreProduct): ProductFields => ({
  name: product.name,
  description: product.description,
  role: product.role,
  price: product.price,
  currency: product.currency,
  duration: product.duration,
  customDays: product.duration === "custom" && product.durationDays !== null ? String(product.durationDays) : "",
  active: product.active
})

const ProductForm = ({ editing, done }: { readonly editing: StoreProduct | undefined; readonly done: () => Promise<void> }) => {
  const [fields, setFields] = useState<ProductFields>(EMPTY)
  useEffect(() => setFields(editing === undefined ? EMPTY : fieldsOf(editing)), [editing])
  const set = (change: Partial<ProductFields>) => setFields((current) => ({ ...current, ...change }))
  const save = useSubmit(async () => {
    const body = {
      name: fields.name,
      description: fields.description,
      role: fields.role,
      price: fields.price,
      ...(fields.currency === "" ? {} : { currency: fields.currency }),
      duration: fields.duration,
      ...(fields.duration === "custom" ? { customDays: Number(fields.customDays) } : {}),
      active: fields.active
    }
    if (editing === undefined) {
      await api((c) => c.storeAdmin.createProduct({ payload: Schema.decodeUnknownSync(StoreProductInput)(body) }))
    } else {
      await api((c) => c.storeAdmin.updateProduct({ path: { id: editing.id }, payload: Schema.decodeUnknownSync(StoreProductPatch)(body) }))
    }
    setFields(EMPTY)
    await done()
  }, editing === undefined ? "Product added" : "Product saved")
  return (
    <form className="card stack" onSubmit={save.submit} aria-labelledby="product-form-title">
      <h3 id="product-form-title">{editing === undefined ? "Add a product" : `Change ${editing.name}`}</h3>
      <div className="grid">
        <label>
          Product name
          <input value={fields.name} onChange={(e) => set({ name: e.target.value })} maxLength={100} required />
        </label>
        <label>
          Role
          <select value={fields.role} onChange={(e) => set({ role: e.target.value })}>
            {STORE_ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <label>
          Price (at least 0.50)
          <input value={fields.price} onChange={(e) => set({ price: e.target.value.trim() })} inputMode="decimal" placeholder="4.99" pattern="[0-9]+(\.[0-9]{1,3})?" required />
        </label>
        <label>
          Currency (empty: the store&apos;s)
          <input value={fields.currency} onChange={(e) => set({ currency: e.target.value.trim().toUpperCase() })} maxLength={3} />
        </label>
        <label>
          Duration
          <select value={fields.duration} onChange={(e) => set({ duration: e.target.value })}>
            {STORE_DURATIONS.map((duration) => (
              <option key={duration} value={duration}>
                {duration === "custom" ? "custom (days)" : duration === "permanent" ? "permanent" : duration}
              </option>
            ))}
          </select>
        </label>
        {fields.duration === "custom" && (
          <label>
            Days
            <input type="number" min={1} max={3650} value={fields.customDays} onChange={(e) => set({ customDays: e.target.value })} required />
          </label>
        )}
      </div>
      <label>
        Description
        <textarea value={fields.description} onChange={(e) => set({ description: e.target.value })} maxLength={1000} rows={2} />
      </label>
      <label className="inline">
        <input type="checkbox" checked={fields.active} onChange={(e) => set({ active: e.target.checked })} /> On sale
      </label>
      <div className="row">
        <SubmitButton busy={save.busy} busyLabel="Saving">
          {editing === undefined ? "Add product" : "Save product"}
        </SubmitButton>
        {editing !== undefined && (
          <button type="button" onClick={() => void done()}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}

const Products = () => {
  const products = useResource(() => api((c) => c.storeAdmin.products()), [])
  const [editing, setEditing] = useState<StoreProduct | undefined>()
  return (
    <section className="stack" aria-labelledby="products-title">
      <h2 id="products-title">Products</h2>
      <Loaded resource={products}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">No product yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Products</caption>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Role</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Price</th>
                    <th scope="col">On sale</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((product) => (
                    <tr key={product.id}>
                      <td>{product.name}</td>
                      <td>{product.role}</td>
                      <td>{formatDuration(product.durationDays)}</td>
                      <td>{formatPrice(product.price, product.currency)}</td>
                      <td>{product.active ? "yes" : "no"}</td>
                      <td className="row">
                        <button type="button" onClick={() => setEditing(product)}>
                          Change<span className="sr-only"> {product.name}</span>
                        </button>
                        <ActionButton
                          run={() => api((c) => c.storeAdmin.deleteProduct({ path: { id: product.id } })).then(() => products.reload())}
                          confirm={{ title: `Remove ${product.name}?`, confirmLabel: "Remove", danger: true }}
                          done="Product removed"
                        >
                          Remove<span className="sr-only"> {product.name}</span>
                        </ActionButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <ProductForm
        editing={editing}
        done={async () => {
          setEditing(undefined)
          await products.reload()
        }}
      />
    </section>
  )
}

const Purchases = () => {
  const [status, setStatus] = useState("")
  const [more, setMore] = useState<ReadonlyArray<StorePurchase>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const first = useResource(
    () =>
      api((c) => c.storeAdmin.purchases({ urlParams: status === "" ? {} : { status: status as (typeof PURCHASE_STATUSES)[number] } })).then((page) => {
        setMore([])
        setCursor(page.nextCursor)
        return page
      }),
    [status]
  )
  const loadMore = async () => {
    if (cursor === null) return
    const page = await api((c) =>
      c.storeAdmin.purchases({ urlParams: { cursor, ...(status === "" ? {} : { status: status as (typeof PURCHASE_STATUSES)[number] }) } })
    )
    setMore((current) => [...current, ...page.items])
    setCursor(page.nextCursor)
  }
  return (
    <section className="stack" aria-labelledby="purchases-title">
      <div className="row">
        <h2 id="purchases-title">Purchases</h2>
        <div className="spacer" />
        <label>
          Status{" "}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">all</option>
            {PURCHASE_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <ActionButton run={() => first.reload()}>Refresh</ActionButton>
      </div>
      <Loaded resource={first}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="notice">No purchase yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Purchases</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Player</th>
                    <th scope="col">Product</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="hide-narrow">
                      Priority until
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...page.items, ...more].map((purchase) => (
                    <tr key={purchase.id}>
                      <td>{formatTime(purchase.date)}</td>
                      <td>
                        {purchase.playerName}
                        <div className="muted mono">{purchase.platformId}</div>
                      </td>
                      <td>{purchase.product.name}</td>
                      <td>{formatPrice(purchase.price, purchase.currency)}</td>
                      <td>
                        <span className="badge">{purchase.status}</span>
                      </td>
                      <td className="hide-narrow">
                        {purchase.grant === null ? "—" : purchase.grant.expiresAt === null ? "permanent" : formatTime(purchase.grant.expiresAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {cursor !== null && <ActionButton run={loadMore}>Load more</ActionButton>}
    </section>
  )
}

const StoreAdminPage = () => (
  <section className="stack">
    <h1>VIP store</h1>
    <PaymentSettings />
    <Products />
    <Purchases />
  </section>
)

export default StoreAdminPage
