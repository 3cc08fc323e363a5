/**
 * The license and cloud pages end to end: real controllers (serving the
 * built dashboard), a fake license server and a fake cloud relay on
 * loopback (the plugins' own test fakes, imported from
 * `packages/plugins/test/license/fakeLicenseServer.ts` and
 * `packages/plugins/test/cloud/fakeRelay.ts`), driven through a real
 * Chromium.
 *
 * A controller without `LICENSE_SERVER_URL` or `CLOUD_RELAY_URL` shows the
 * community edition and a cloud link that cannot be enabled. On one with
 * both: an admin activates a license key through the form (active, its
 * tier, holder and entitlements shown, the tiers listed); a moderator sees
 * that state but no activation or removal, no admin-only details and no
 * Cloud link page; the admin removes the license after a confirmation
 * (not activated again); enables the cloud link with the relay's token and
 * a role (connected); connects a server (mirrored: the relay is sent it)
 * and announces it again; and disables the link after a confirmation. axe
 * finds no serious violation on the pages, each left as a screenshot at
 * desktop and phone widths (test-artifacts/screenshots/license-cloud-*).
 *
 * One test per step, in order, on one browser.
 */
import { Effect, Exit, Scope } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { type FakeRelay, fakeRelay } from "../../packages/plugins/test/cloud/fakeRelay.js"
import { type FakeLicenseServer, fakeLicenseServer } from "../../packages/plugins/test/license/fakeLicenseServer.js"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import type { ControllerHandle } from "../support/controller.js"
import { until } from "../support/fleet.js"
import { ADMIN, type AdminApi, browserSuite, createModerator, signInAdminApi } from "./support.js"

const MODERATOR = { username: "mod-license", password: "a long moderator passphrase" }
const LICENSE_KEY = "GARRISON-PRO-1234-5678"
const LINK_TOKEN = "lnk_browser_test_3f9a1c0e5b7d4e2a"
const LINK_ROLE = "cloud-operator"
const DAY_MS = 24 * 60 * 60 * 1000

const suite = browserSuite("license-cloud")
let community: ControllerHandle
let controller: ControllerHandle
let license: FakeLicenseServer
let relay: FakeRelay
let browser: TestBrowser
let admin: WatchedPage
let serverId: string
let api: AdminApi

beforeAll(async () => {
  // The fakes live in a scope closed after the controllers stop (cleanups run in reverse).
  const scope = Effect.runSync(Scope.make())
  suite.onCleanup(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  license = await Effect.runPromise(
    Scope.extend(fakeLicenseServer({ issuedAt: Date.now() - 60_000, expiresAt: Date.now() + 365 * DAY_MS, entitlements: ["reports", "cloud"] }), scope)
  )
  relay = await Effect.runPromise(Scope.extend(fakeRelay(LINK_TOKEN), scope))

  community = await suite.startControllerWithAdmin()
  controller = await suite.startControllerWithAdmin({ LICENSE_SERVER_URL: license.url, LICENSE_PUBLIC_KEY: license.publicKeyPem, CLOUD_RELAY_URL: relay.url })
  api = await signInAdminApi(controller.baseUrl)

  // A server to mirror, the role the link acts with, and a user who is not an admin.
  serverId = await suite.addSimServer(api, "Sim Cloud")
  const role = await api("POST", "/api/roles", {
    name: LINK_ROLE,
    description: "What the cloud relay may do",
    permissions: ["server.start", "server.stop", { permission: "server.restart", servers: [serverId] }]
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  await createModerator(api, MODERATOR)

  browser = await suite.launchBrowser()
}, 90_000)

const status = async () => (await api("GET", "/api/cloud/status")).body as { state: string; servers: ReadonlyArray<{ serverId: string }> }

describe.sequential("the license and cloud pages over a real controller, a fake license server and a fake relay", { timeout: 90_000 }, () => {
  it("without a license server, the license page shows the community edition; without a relay, the link cannot be enabled", async () => {
    const page = await browser.open(`${community.baseUrl}/license`, { viewport: "desktop", signIn: ADMIN })
    try {
      await waitForHeading(page, "License")
      await waitForHeading(page, "Community edition", 2)
      await page.page.getByText(/no license server is configured/).waitFor()
      await waitForFirstLoad(page)
      // Nothing to activate or remove.
      expect(await page.page.getByLabel("License key").count()).toBe(0)
      expect(await page.page.getByRole("button", { name: "Remove license" }).count()).toBe(0)
      await page.page.getByText("The community edition has no tiers.").waitFor()
      await suite.checkAtBothWidths(page, "community", async (p) => {
        await waitForHeading(p, "Community edition", 2)
      })

      await page.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cloud link" }).click()
      await waitForHeading(page, "Cloud link")
      await waitForHeading(page, "Link disabled", 2)
      await page.page.getByText(/No relay is configured/).waitFor()
      expect(await page.page.getByRole("button", { name: "Enable link" }).count()).toBe(0)
      await waitForFirstLoad(page)
      expect(page.problems()).toEqual(noProblems)
    } finally {
      await page.close()
    }
  })

  it("an admin activates a license key through the form: active, with its tier and entitlements, and the tiers listed", async () => {
    admin = await browser.open(`${controller.baseUrl}/license`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "License")
    await waitForHeading(admin, "License not activated", 2)
    await page.getByText(/No license is activated\. Licensed features refuse every request/).waitFor()
    // Admins see what the license is bound to.
    await page.getByText(/^gm-[0-9a-f]{32}$/).waitFor()

    await page.getByLabel("License key").fill(LICENSE_KEY)
    await page.getByRole("button", { name: "Activate", exact: true }).click()
    await page.getByRole("status").getByText("License activated").waitFor({ timeout: 15_000 })
    await waitForHeading(admin, "License active", 2)
    await page.getByText(/The license is active until/).waitFor()
    const entitlements = page.getByRole("list", { name: "Entitlements" })
    await entitlements.getByText("reports", { exact: true }).waitFor()
    await entitlements.getByText("cloud", { exact: true }).waitFor()
    await page.getByText("Test Community", { exact: true }).waitFor()
    // The tiers, the current one marked.
    const tiers = page.getByRole("table", { name: "License tiers" })
    await tiers.getByRole("row").filter({ hasText: "Pro" }).getByText("current").waitFor({ timeout: 15_000 })
    await tiers.getByRole("cell", { name: "Standard", exact: true }).waitFor()
    expect(await page.content()).not.toContain(LICENSE_KEY)
    expect(license.requests.filter((r) => r.path === "/v1/activate").map((r) => r.body?.["key"])).toEqual([LICENSE_KEY])

    await suite.checkAtBothWidths(admin, "license-active", async (p) => {
      await waitForHeading(p, "License active", 2)
      await p.page.getByRole("table", { name: "License tiers" }).waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a user who is not an admin sees the license's state, but no activation, removal or admin details, and no Cloud link page", async () => {
    const moderator = await browser.open(`${controller.baseUrl}/license`, { viewport: "desktop", signIn: MODERATOR })
    try {
      const page = moderator.page
      await waitForHeading(moderator, "License")
      await waitForHeading(moderator, "License active", 2)
      await page.getByRole("list", { name: "Entitlements" }).getByText("reports", { exact: true }).waitFor()
      await waitForFirstLoad(moderator)
      expect(await page.getByLabel("License key").count()).toBe(0)
      expect(await page.getByRole("button", { name: "Activate" }).count()).toBe(0)
      expect(await page.getByRole("button", { name: "Remove license" }).count()).toBe(0)
      expect(await page.getByText("Machine id").count()).toBe(0)
      const nav = page.getByRole("navigation", { name: "Main" })
      await nav.getByRole("link", { name: "License" }).waitFor()
      expect(await nav.getByRole("link", { name: "Cloud link" }).count()).toBe(0)
      expect(await moderator.seriousAccessibilityViolations()).toEqual([])
      await moderator.screenshot("license-cloud-license-moderator")
      // The page itself is not offered either.
      await page.goto(`${controller.baseUrl}/cloud`)
      await waitForHeading(moderator, "Not found")
      expect(moderator.problems()).toEqual(noProblems)
    } finally {
      await moderator.close()
    }
  })

  it("the admin removes the license after a confirmation: not activated again", async () => {
    const page = admin.page
    await page.getByRole("button", { name: "Remove license" }).click()
    const dialog = page.getByRole("dialog", { name: "Remove the license?" })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Remove" }).click()
    await page.getByRole("status").getByText("License removed").waitFor({ timeout: 15_000 })
    await waitForHeading(admin, "License not activated", 2)
    expect(await page.getByRole("list", { name: "Entitlements" }).count()).toBe(0)
    expect(await page.getByRole("button", { name: "Remove license" }).count()).toBe(0)
    expect(license.requests.some((r) => r.path === "/v1/deactivate")).toBe(true)
    expect((await api("GET", "/api/license")).body).toMatchObject({ state: "unactivated", license: null })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("enables the cloud link with the relay's token and a role: connected", async () => {
    const page = admin.page
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cloud link" }).click()
    await waitForHeading(admin, "Cloud link")
    await waitForHeading(admin, "Link disabled", 2)
    const roles = page.getByRole("combobox", { name: /^Role/ })
    // Roles granting admin are not offered.
    await roles.locator(`option[value="${LINK_ROLE}"]`).waitFor({ state: "attached", timeout: 15_000 })
    expect(await roles.locator('option[value="admin"]').count()).toBe(0)
    await page.getByLabel("Link token (from the relay)").fill(LINK_TOKEN)
    await roles.selectOption(LINK_ROLE)
    // What the role lets the relay do, in words.
    await page.getByText(`With ${LINK_ROLE}, the relay may ask: server.start on every server, server.stop on every server, server.restart on 1 server.`).waitFor()
    await page.getByRole("button", { name: "Enable link" }).click()
    await page.getByRole("status").getByText("Cloud link enabled").waitFor({ timeout: 15_000 })
    await waitForHeading(admin, "Link connected", 2)
    await page.getByText(new RegExp(`Connected to the relay since .* the role ${LINK_ROLE} allows`)).waitFor()
    expect(relay.received.find((m) => m.type === "hello")).toMatchObject({ token: LINK_TOKEN })
    expect(await page.content()).not.toContain(LINK_TOKEN)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("connects a server: mirrored, and the relay is sent it; reconnect announces it again", async () => {
    const page = admin.page
    const row = page.getByRole("table", { name: "Servers and the cloud link" }).getByRole("row").filter({ hasText: "Sim Cloud" })
    await row.getByText("no", { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByText("stopped", { exact: true }).waitFor()
    await row.getByRole("button", { name: "Connect Sim Cloud" }).click()
    await page.getByRole("status").getByText("Sim Cloud connected to the cloud").waitFor({ timeout: 15_000 })
    await row.getByText(/^mirrored since /).waitFor()
    await until(() => relay.received.filter((m) => m.type === "server.connected"), (sent) => sent.length === 1, 10_000, "server.connected at the relay")
    expect(relay.received.find((m) => m.type === "server.connected")).toMatchObject({ server: { id: serverId, name: "Sim Cloud", status: "stopped" } })
    expect((await status()).servers.map((s) => s.serverId)).toEqual([serverId])

    await row.getByRole("button", { name: "Reconnect Sim Cloud" }).click()
    await page.getByRole("status").getByText("Sim Cloud announced again").waitFor({ timeout: 15_000 })
    await until(() => relay.received.filter((m) => m.type === "server.connected"), (sent) => sent.length === 2, 10_000, "server.connected again")
    expect(relay.received.some((m) => m.type === "server.disconnected" && m["serverId"] === serverId)).toBe(true)

    await suite.checkAtBothWidths(admin, "cloud-connected", async (p) => {
      await waitForHeading(p, "Link connected", 2)
      await p.page.getByRole("table", { name: "Servers and the cloud link" }).getByText(/^mirrored since /).waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("disables the link after a confirmation: disabled, the socket closed, the server still chosen", async () => {
    const page = admin.page
    await page.getByRole("button", { name: "Disable link" }).click()
    const dialog = page.getByRole("dialog", { name: "Disable the cloud link?" })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Disable" }).click()
    await page.getByRole("status").getByText("Cloud link disabled").waitFor({ timeout: 15_000 })
    await waitForHeading(admin, "Link disabled", 2)
    await page.getByRole("button", { name: "Enable link" }).waitFor()
    expect(await page.getByRole("button", { name: "Disable link" }).count()).toBe(0)
    const row = page.getByRole("table", { name: "Servers and the cloud link" }).getByRole("row").filter({ hasText: "Sim Cloud" })
    await row.getByText(/^chosen since .*; sent when the link connects$/).waitFor()
    await until(() => relay.closes, (codes) => codes.includes(1000), 10_000, "the link's close at the relay")
    expect(await status()).toMatchObject({ state: "disabled", servers: [{ serverId }] })
    expect(admin.problems()).toEqual(noProblems)
  })
})
