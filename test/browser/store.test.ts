/**
 * The VIP store end to end: the real controller (serving the built
 * dashboard) and the payment stand-in (`examples/fake-payments`, in this
 * process), driven through a real Chromium. An admin signs in, sets the
 * payment provider and adds a product on the store's admin page; a visitor
 * who is not signed in sees the public store and its products, and is
 * asked to sign in to buy; signed in, the buyer enters a Steam64 id and
 * name, goes to the provider's page, pays, and lands on the success page;
 * the provider's signed webhook has granted the priority (source
 * `purchase`) and completed the purchase, which the admin page lists. The
 * cancel page answers too. axe finds no serious violation on the store's
 * pages, each left as a screenshot (test-artifacts/screenshots/store-*).
 *
 * One test per step, in order, on one controller.
 */
import { type FakePayments, startFakePayments } from "@garrison/example-fake-payments"
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForHeading, type WatchedPage } from "../support/browser.js"
import type { ControllerHandle } from "../support/controller.js"
import { until } from "../support/fleet.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const SECRET_KEY = "sk_test_browser_store_key_0123456789"
const WEBHOOK_SECRET = "whsec_browser_store_signing_secret_01"
const BUYER = { steam64: "76561198000000042", name: "Browser Buyer" }

const suite = browserSuite("store")
let controller: ControllerHandle
let payments: FakePayments
let browser: TestBrowser
let baseUrl: string
let admin: WatchedPage
let visitor: WatchedPage
let api: AdminApi

beforeAll(async () => {
  controller = await suite.startControllerWithAdmin()
  baseUrl = controller.baseUrl
  payments = await startFakePayments({ apiKey: SECRET_KEY, webhookUrl: `${baseUrl}/api/store/webhook`, webhookSecret: WEBHOOK_SECRET })
  suite.onCleanup(() => payments.close())
  api = await signInAdminApi(baseUrl)
  browser = await suite.launchBrowser()
}, 60_000)

const signInForm = async (page: WatchedPage) => {
  await waitForHeading(page, "Sign in")
  await page.page.getByLabel("Username").fill(ADMIN.username)
  await page.page.getByLabel("Password").fill(ADMIN.password)
  await page.page.getByRole("button", { name: "Sign in" }).click()
}

describe.sequential("the VIP store over a real controller and the payment stand-in", { timeout: 90_000 }, () => {
  it("an admin signs in, sets the payment provider and adds a product on the store's admin page", async () => {
    admin = await browser.open(`${baseUrl}/store/admin`, { viewport: "desktop" })
    await signInForm(admin)
    await waitForHeading(admin, "VIP store")
    // The one expected error: the session probe before signing in answers 401.
    admin.clearProblems()
    const page = admin.page
    await page.getByRole("heading", { name: "Payment provider" }).waitFor()
    await page.getByLabel("Provider API address").fill(payments.url)
    await page.getByLabel(/^Secret API key/).fill(SECRET_KEY)
    await page.getByLabel(/^Webhook signing secret/).fill(WEBHOOK_SECRET)
    await page.getByLabel("The store is open").check()
    await page.getByRole("button", { name: "Save payment settings" }).click()
    await page.getByRole("status").getByText("Payment settings saved").waitFor({ timeout: 15_000 })
    // Never shown back: only that it is set, with a hint.
    await page.getByText(`Secret API key: set (sk_test_…${SECRET_KEY.slice(-4)}); leave empty to keep it`).waitFor()
    expect(await page.content()).not.toContain(SECRET_KEY)

    await page.getByLabel("Product name").fill("VIP 30 days")
    await page.getByLabel("Price (at least 0.50)").fill("4.99")
    await page.getByLabel("Description").fill("Skip the queue for a month")
    await page.getByRole("button", { name: "Add product" }).click()
    await page.getByRole("table", { name: "Products" }).getByRole("cell", { name: "VIP 30 days", exact: true }).waitFor({ timeout: 15_000 })

    const config = (await api("GET", "/api/store/admin/payment-config")).body as { enabled: boolean; configured: boolean; successUrl: string }
    expect(config).toMatchObject({ enabled: true, configured: true, successUrl: `${baseUrl}/store/success?session_id={CHECKOUT_SESSION_ID}` })
    await suite.checkAtBothWidths(admin, "admin", (p) => waitForHeading(p, "VIP store"))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a visitor who is not signed in sees the store and its products; buying asks for a sign-in first", async () => {
    visitor = await browser.open(`${baseUrl}/store`, { viewport: "desktop" })
    await waitForHeading(visitor, "VIP store")
    const page = visitor.page
    const products = page.getByRole("list", { name: "Products" })
    await products.getByRole("heading", { name: "VIP 30 days" }).waitFor({ timeout: 15_000 })
    await products.getByText("Skip the queue for a month").waitFor()
    await products.getByText("30 days", { exact: true }).waitFor()
    // No sign-in form in the way, and a way to sign in at the top.
    expect(await page.getByLabel("Password").count()).toBe(0)
    await page.getByRole("banner").getByRole("button", { name: "Sign in" }).waitFor()

    await products.getByRole("button", { name: "Choose VIP 30 days" }).click()
    await page.getByLabel("Your Steam64 id").fill(BUYER.steam64)
    await page.getByLabel("Your in-game name").fill(BUYER.name)
    await page.getByRole("button", { name: "Sign in to buy" }).waitFor()
    expect(await page.getByRole("button", { name: "Continue to payment" }).count()).toBe(0)
    await suite.checkAtBothWidths(
      visitor,
      "public",
      (p) => p.page.getByRole("list", { name: "Products" }).getByRole("heading", { name: "VIP 30 days" }).waitFor({ timeout: 15_000 }),
      // The one expected error at phone width too: the session probe of a visitor answers 401.
      { phoneProblems: (problems) => expect(problems.consoleErrors.every((line) => line.includes("401"))).toBe(true) }
    )
    // The one expected error: the session probe of a visitor answers 401.
    expect(visitor.problems().consoleErrors.every((line) => line.includes("401"))).toBe(true)
    visitor.clearProblems()
  })

  it("signed in, the buyer pays at the provider, lands on the success page, and has priority on every server", async () => {
    const page = visitor.page
    await page.getByRole("button", { name: "Sign in to buy" }).click()
    await page.getByRole("button", { name: "Back to the page" }).waitFor()
    await signInForm(visitor)
    // Back on the store, signed in.
    await waitForHeading(visitor, "VIP store")
    await page.getByRole("banner").getByRole("link", { name: /^Dashboard/ }).waitFor()

    await page.getByRole("list", { name: "Products" }).getByRole("button", { name: "Choose VIP 30 days" }).click()
    await page.getByLabel("Your Steam64 id").fill(BUYER.steam64)
    await page.getByLabel("Your in-game name").fill(BUYER.name)
    await page.getByRole("button", { name: "Continue to payment" }).click()

    // The provider's page.
    await page.waitForURL((url) => url.href.startsWith(`${payments.url}/pay/`), { timeout: 20_000 })
    await page.getByRole("heading", { name: /^Pay 4\.99 EUR/ }).waitFor()
    expect(payments.requests.at(-1)?.form).toMatchObject({
      "line_items[0][price_data][unit_amount]": "499",
      "metadata[platformId]": BUYER.steam64,
      "metadata[playerName]": BUYER.name
    })
    await page.getByRole("button", { name: /^Pay/ }).click()

    // Back at the controller, after the webhook was answered.
    await page.waitForURL((url) => url.href.startsWith(`${baseUrl}/store/success?session_id=cs_test_`), { timeout: 20_000 })
    await waitForHeading(visitor, "Payment received")
    expect(payments.deliveries.map((d) => [d.type, d.status])).toEqual([["checkout.session.completed", 200]])

    const queue = await until(
      () => api("GET", "/api/priority-queue").then((r) => (r.body as { items: ReadonlyArray<{ platformId: string; source: string; role: string; name: string }> }).items),
      (items) => items.length === 1,
      10_000,
      "the purchased priority entry"
    )
    expect(queue[0]).toMatchObject({ platformId: BUYER.steam64, name: BUYER.name, role: "VIP", source: "purchase" })
    const bought = (await api("GET", "/api/store/admin/purchases")).body as { items: ReadonlyArray<{ status: string; startedBy: string; amount: number }> }
    expect(bought.items).toEqual([expect.objectContaining({ status: "completed", startedBy: ADMIN.username, amount: 499 })])

    await suite.checkAtBothWidths(visitor, "success", (p) => waitForHeading(p, "Payment received"))
    expect(visitor.problems()).toEqual(noProblems)
  })

  it("the cancel page answers without signing in; the admin page lists the purchase", async () => {
    const cancelled = await browser.open(`${baseUrl}/store/cancel`, { viewport: "phone" })
    try {
      await waitForHeading(cancelled, "Payment cancelled")
      await cancelled.page.getByRole("link", { name: "Back to the store" }).waitFor()
      expect(await cancelled.seriousAccessibilityViolations()).toEqual([])
      await cancelled.screenshot("store-cancel")
    } finally {
      await cancelled.close()
    }

    await admin.page.reload()
    await waitForHeading(admin, "VIP store")
    const purchases = admin.page.getByRole("table", { name: "Purchases" })
    await purchases.getByRole("cell", { name: new RegExp(BUYER.name) }).waitFor({ timeout: 15_000 })
    await purchases.getByText("completed").waitFor()
    expect(admin.problems()).toEqual(noProblems)
  })
})
