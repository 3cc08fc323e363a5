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
import type { BrowserContextOptions } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, noProblems, type TestBrowser, type WatchedPage } from "../support/browser.js"
import { type ControllerHandle, makeTempDir, removeDir, requestJson, startController, stopProcess } from "../support/controller.js"
import { until } from "../support/fleet.js"

const ADMIN = { username: "admin", password: "correct horse battery staple" }
const SECRET_KEY = "sk_test_browser_store_key_0123456789"
const WEBHOOK_SECRET = "whsec_browser_store_signing_secret_01"
const BUYER = { steam64: "76561198000000042", name: "Browser Buyer" }

let controller: ControllerHandle
let payments: FakePayments
let browser: TestBrowser
let baseUrl: string
let admin: WatchedPage
let visitor: WatchedPage
let bearer: Readonly<Record<string, string>> = {}
const cleanups: Array<() => unknown> = []

const api = (method: string, path: string, body?: unknown) =>
  requestJson(baseUrl, method, path, { headers: bearer, timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })

beforeAll(async () => {
  const dataDir = makeTempDir()
  cleanups.push(() => removeDir(dataDir))
  controller = await startController({
    dataDir,
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DB_BACKUP_INTERVAL: "365 days" },
    logLevel: "Warning"
  })
  cleanups.push(() => stopProcess(controller))
  baseUrl = controller.baseUrl
  payments = await startFakePayments({ apiKey: SECRET_KEY, webhookUrl: `${baseUrl}/api/store/webhook`, webhookSecret: WEBHOOK_SECRET })
  cleanups.push(() => payments.close())
  const login = await requestJson(baseUrl, "POST", "/api/auth/login", { body: ADMIN })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  bearer = { authorization: `Bearer ${(login.body as { token: string }).token}` }
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const heading = async (page: WatchedPage, name: string | RegExp, level = 1) => {
  try {
    await page.page.getByRole("heading", { name, level }).waitFor({ timeout: 20_000 })
  } catch (error) {
    const shown = await page.page.locator("body").innerText().catch(() => "(no page)")
    throw new Error(`no heading "${String(name)}" on ${page.page.url()}; the page shows: ${shown.slice(0, 600)}; problems: ${JSON.stringify(page.problems())}`, { cause: error })
  }
}

/** axe on the page as it is now, then at phone width too (same session), both screenshotted. */
const checkPage = async (page: WatchedPage, name: string, ready: (p: WatchedPage) => Promise<unknown>) => {
  expect(await page.seriousAccessibilityViolations(), `${name} at desktop width`).toEqual([])
  await page.screenshot(`store-${name}`)
  const state = (await page.context.storageState()) as BrowserContextOptions["storageState"]
  const phone = await browser.open(page.page.url(), { viewport: "phone", context: { storageState: state! } })
  try {
    await ready(phone)
    expect(await phone.seriousAccessibilityViolations(), `${name} at phone width`).toEqual([])
    await phone.screenshot(`store-${name}`)
  } finally {
    await phone.close()
  }
}

const signInForm = async (page: WatchedPage) => {
  await heading(page, "Sign in")
  await page.page.getByLabel("Username").fill(ADMIN.username)
  await page.page.getByLabel("Password").fill(ADMIN.password)
  await page.page.getByRole("button", { name: "Sign in" }).click()
}

describe.sequential("the VIP store over a real controller and the payment stand-in", { timeout: 90_000 }, () => {
  it("an admin signs in, sets the payment provider and adds a product on the store's admin page", async () => {
    admin = await browser.open(`${baseUrl}/store/admin`, { viewport: "desktop" })
    await signInForm(admin)
    await heading(admin, "VIP store")
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
    await checkPage(admin, "admin", (p) => heading(p, "VIP store"))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a visitor who is not signed in sees the store and its products; buying asks for a sign-in first", async () => {
    visitor = await browser.open(`${baseUrl}/store`, { viewport: "desktop" })
    await heading(visitor, "VIP store")
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
    await checkPage(visitor, "public", (p) => p.page.getByRole("list", { name: "Products" }).getByRole("heading", { name: "VIP 30 days" }).waitFor({ timeout: 15_000 }))
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
    await heading(visitor, "VIP store")
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
    await heading(visitor, "Payment received")
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

    await checkPage(visitor, "success", (p) => heading(p, "Payment received"))
    expect(visitor.problems()).toEqual(noProblems)
  })

  it("the cancel page answers without signing in; the admin page lists the purchase", async () => {
    const cancelled = await browser.open(`${baseUrl}/store/cancel`, { viewport: "phone" })
    try {
      await heading(cancelled, "Payment cancelled")
      await cancelled.page.getByRole("link", { name: "Back to the store" }).waitFor()
      expect(await cancelled.seriousAccessibilityViolations()).toEqual([])
      await cancelled.screenshot("store-cancel")
    } finally {
      await cancelled.close()
    }

    await admin.page.reload()
    await heading(admin, "VIP store")
    const purchases = admin.page.getByRole("table", { name: "Purchases" })
    await purchases.getByRole("cell", { name: new RegExp(BUYER.name) }).waitFor({ timeout: 15_000 })
    await purchases.getByText("completed").waitFor()
    expect(admin.problems()).toEqual(noProblems)
  })
})
