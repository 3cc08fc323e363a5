/**
 * The System page end to end: a real controller (serving the built
 * dashboard; started with `LOG_LEVEL=Warning`) driven through a real
 * Chromium.
 *
 * An admin finds System in the navigation: the page shows the versions the
 * API answers (never its ISO times), the data directory's disk as a meter,
 * a load chart whose line runs through the sampled history (read again
 * every 5 seconds), and the service state as the API says it (foreground
 * with its pid, or systemd). LOG_LEVEL changed to Debug through its form is
 * a stored override, still shown after a reload with the environment's
 * Warning beneath it; Reset to default returns it to the environment.
 * METRICS_TOKEN set through its password input shows as "set", its value in
 * neither the page nor the API's answer, and Clear (after a confirmation)
 * returns it to "not set". A bad GAMELOG_POLL_INTERVAL shows the API's
 * message under that input (and nothing is stored); a good one is saved.
 * A user whose role lacks `admin` has no System entry, and /system tells
 * them they may not open it, without asking the system API anything. axe
 * finds no serious violation, the page left as screenshots at desktop and
 * phone widths (test-artifacts/screenshots/system-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const VIEWER = { username: "server-viewer", password: "a long server viewer passphrase" }
const VIEWER_ROLE = "viewer-no-admin"
const TOKEN = "scrape-token-Zq8v0w7y6x5u4t3s"

interface Setting {
  readonly key: string
  readonly source: "stored" | "environment" | "default"
  readonly value?: string | number | boolean | null
  readonly fallback?: string | number | boolean | null
  readonly set?: boolean
}

const suite = browserSuite("system")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage

const settings = async (): Promise<ReadonlyArray<Setting>> => {
  const answer = await api("GET", "/api/system/config")
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return (answer.body as { settings: ReadonlyArray<Setting> }).settings
}
const setting = async (key: string): Promise<Setting> => {
  const found = (await settings()).find((s) => s.key === key)
  if (found === undefined) throw new Error(`no setting ${key}`)
  return found
}

beforeAll(async () => {
  baseUrl = (await suite.startControllerWithAdmin()).baseUrl
  api = await signInAdminApi(baseUrl)
  const role = await api("POST", "/api/roles", { name: VIEWER_ROLE, description: "Sees servers, no admin", permissions: ["server.view"] })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const user = await api("POST", "/api/users", { ...VIEWER, role: VIEWER_ROLE, mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  browser = await suite.launchBrowser()
}, 90_000)

const settingForm = (page: WatchedPage, key: string) => page.page.getByRole("form", { name: key })
const toast = (page: WatchedPage, text: string) => page.page.getByRole("status").getByText(text).waitFor({ timeout: 15_000 })
/** A `dl.kv` fact of a form: the `dd` after the `dt` named `term`. */
const fact = async (page: WatchedPage, key: string, term: string) => (await settingForm(page, key).locator(`dt:text-is("${term}") + dd`).textContent())?.trim()
/** The number of points the first load chart's line runs through. */
const chartPoints = async (page: WatchedPage) => {
  const d = await page.page.getByRole("region", { name: "Load" }).locator("svg[role=img] path").first().getAttribute("d")
  return d === null ? 0 : (d.match(/[ML]/g) ?? []).length
}

describe.sequential("the System page over a real controller", { timeout: 90_000 }, () => {
  it("an admin sees the versions, the disk, a load chart over the sampled history, and the service state", async () => {
    admin = await browser.open(`${baseUrl}/servers`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Servers")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "System" }).click()
    await waitForHeading(admin, "System")

    const info = (await api("GET", "/api/system/info")).body as {
      garrison: { version: string; startedAt: string }
      node: { version: string }
      database: { engine: string }
      dataDir: { path: string; disk: unknown }
    }
    const versions = page.getByRole("region", { name: "Versions and host" })
    await versions.getByText(info.garrison.version, { exact: true }).waitFor({ timeout: 15_000 })
    await versions.getByText(info.node.version, { exact: true }).waitFor()
    await versions.getByText(info.dataDir.path, { exact: true }).waitFor()
    expect(await versions.textContent()).toContain(info.database.engine === "sqlite" ? "SQLite" : "PostgreSQL")
    if (info.dataDir.disk !== null) {
      await versions.getByRole("meter", { name: "Data directory disk used" }).waitFor()
      expect(await versions.textContent()).toMatch(/used of .* \(\d+(\.\d)? %\), .* free/)
    }
    // Times in the user's locale, never as the API writes them.
    expect(await page.locator("main").innerText()).not.toContain(info.garrison.startedAt)

    // The first sample comes 5 s after the start, then one every 5 s: the line runs through at least two.
    await expect.poll(() => chartPoints(admin), { timeout: 30_000, interval: 1000 }).toBeGreaterThanOrEqual(2)
    const load = page.getByRole("region", { name: "Load" })
    expect(await load.locator("svg[role=img]").count()).toBe(4)
    await load.getByRole("img", { name: /^Host CPU over the last \d+ samples: now .* %/ }).waitFor()
    // Polled: the history grows without a reload.
    const before = await chartPoints(admin)
    await expect.poll(() => chartPoints(admin), { timeout: 20_000, interval: 1000 }).toBeGreaterThan(before)

    const service = (await api("GET", "/api/system/service")).body as { manager: string; pid: number }
    const state = page.getByRole("region", { name: "Service" })
    if (service.manager === "foreground") await state.getByText("Running in the foreground, not under systemd.").waitFor()
    else await state.getByText("Started by systemd.").waitFor()
    expect(await state.locator("dt:text-is('Pid') + dd").textContent()).toBe(String(service.pid))

    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "page", async (phone) => {
      await waitForHeading(phone, "System")
      await settingForm(phone, "LOG_LEVEL").waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("LOG_LEVEL changed through its form is stored, still shown after a reload; Reset to default returns to the environment's", async () => {
    const page = admin.page
    const form = settingForm(admin, "LOG_LEVEL")
    expect(await fact(admin, "LOG_LEVEL", "In force")).toBe("Warning")
    expect(await fact(admin, "LOG_LEVEL", "From")).toBe("environment variable")
    await form.getByRole("combobox", { name: "Value" }).selectOption("Debug")
    await form.getByRole("button", { name: "Save" }).click()
    await toast(admin, "LOG_LEVEL saved")
    await expect.poll(() => fact(admin, "LOG_LEVEL", "From")).toBe("stored override")
    expect(await setting("LOG_LEVEL")).toMatchObject({ source: "stored", value: "Debug", fallback: "Warning" })

    await page.reload()
    await waitForHeading(admin, "System")
    await form.waitFor({ timeout: 15_000 })
    expect(await form.getByRole("combobox", { name: "Value" }).inputValue()).toBe("Debug")
    expect(await fact(admin, "LOG_LEVEL", "In force")).toBe("Debug")
    expect(await fact(admin, "LOG_LEVEL", "From")).toBe("stored override")
    expect(await fact(admin, "LOG_LEVEL", "Without the override")).toBe("Warning")

    await form.getByRole("button", { name: "Reset LOG_LEVEL to default" }).click()
    await toast(admin, "LOG_LEVEL reset: Warning in force")
    await expect.poll(() => fact(admin, "LOG_LEVEL", "From")).toBe("environment variable")
    expect(await fact(admin, "LOG_LEVEL", "In force")).toBe("Warning")
    expect(await form.getByRole("button", { name: "Reset LOG_LEVEL to default" }).isDisabled()).toBe(true)
    expect(await setting("LOG_LEVEL")).toMatchObject({ source: "environment", value: "Warning" })
    await waitForFirstLoad(admin)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("METRICS_TOKEN set through its password input shows as set, its value in neither the page nor the API; Clear unsets it", async () => {
    const page = admin.page
    const form = settingForm(admin, "METRICS_TOKEN")
    expect(await fact(admin, "METRICS_TOKEN", "In force")).toBe("not set")
    const input = form.getByLabel("New value")
    expect(await input.getAttribute("type")).toBe("password")
    await input.fill(TOKEN)
    await form.getByRole("button", { name: "Set", exact: true }).click()
    await toast(admin, "METRICS_TOKEN set")
    await expect.poll(() => fact(admin, "METRICS_TOKEN", "In force")).toBe("set")
    expect(await fact(admin, "METRICS_TOKEN", "From")).toBe("stored override")
    expect(await input.inputValue()).toBe("")
    expect(await page.locator("body").innerText()).not.toContain(TOKEN)
    expect(await page.content()).not.toContain(TOKEN)
    const answer = await api("GET", "/api/system/config")
    expect(JSON.stringify(answer.body)).not.toContain(TOKEN)
    const stored = await setting("METRICS_TOKEN")
    expect(stored).toMatchObject({ source: "stored", set: true })
    expect(stored).not.toHaveProperty("value")

    await form.getByRole("button", { name: "Clear METRICS_TOKEN" }).click()
    await page.getByRole("dialog", { name: "Clear METRICS_TOKEN?" }).getByRole("button", { name: "Clear" }).click()
    await toast(admin, "METRICS_TOKEN cleared")
    await expect.poll(() => fact(admin, "METRICS_TOKEN", "In force")).toBe("not set")
    expect(await setting("METRICS_TOKEN")).toMatchObject({ set: false })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a bad GAMELOG_POLL_INTERVAL shows the API's message under that input and stores nothing; a good one is saved", async () => {
    const page = admin.page
    const form = settingForm(admin, "GAMELOG_POLL_INTERVAL")
    const before = await setting("GAMELOG_POLL_INTERVAL")
    await form.getByText('A duration, written like "500 millis", "5 seconds" or "2 minutes".').waitFor()
    const input = form.getByRole("textbox", { name: "Value" })
    await input.fill("5 parsecs")
    await form.getByRole("button", { name: "Save" }).click()
    const problem = form.getByRole("alert")
    await problem.getByText(/must be a duration from 100 millis to 10 minutes/).waitFor({ timeout: 15_000 })
    expect(await input.getAttribute("aria-invalid")).toBe("true")
    expect((await input.getAttribute("aria-describedby"))?.split(" ")).toContain(await problem.getAttribute("id"))
    // Only under that field: no other setting shows a problem.
    expect(await page.getByRole("region", { name: "Run-time settings" }).getByRole("alert").count()).toBe(1)
    expect(admin.responses().filter((r) => r.url.endsWith("/api/system/config")).at(-1)?.status).toBe(400)
    expect(await setting("GAMELOG_POLL_INTERVAL")).toEqual(before)
    // What was typed stays, to be corrected.
    expect(await input.inputValue()).toBe("5 parsecs")
    await suite.checkAtBothWidths(admin, "refused", async (phone) => {
      await waitForHeading(phone, "System")
      await settingForm(phone, "GAMELOG_POLL_INTERVAL").waitFor({ timeout: 15_000 })
    })
    // The one expected error: the refused save.
    expect(admin.problems().consoleErrors.length).toBeGreaterThan(0)
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()

    await input.fill("3 seconds")
    await form.getByRole("button", { name: "Save" }).click()
    await toast(admin, "GAMELOG_POLL_INTERVAL saved")
    await expect.poll(() => fact(admin, "GAMELOG_POLL_INTERVAL", "In force")).toBe("3 seconds")
    expect(await form.getByRole("alert").count()).toBe(0)
    expect(await setting("GAMELOG_POLL_INTERVAL")).toMatchObject({ source: "stored", value: "3 seconds" })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a user whose role lacks admin has no System entry, and /system says they may not open it", async () => {
    const viewer = await browser.open(`${baseUrl}/servers`, { viewport: "desktop", signIn: VIEWER })
    try {
      const page = viewer.page
      await waitForHeading(viewer, "Servers")
      const nav = page.getByRole("navigation", { name: "Main" })
      await nav.getByRole("link", { name: "Servers" }).waitFor()
      expect(await nav.getByRole("link", { name: "System" }).count()).toBe(0)
      await page.goto(`${baseUrl}/system`)
      await waitForHeading(viewer, "Not found")
      await page.getByText("There is no page at /system, or you may not open it.").waitFor()
      await waitForFirstLoad(viewer)
      expect(await viewer.seriousAccessibilityViolations()).toEqual([])
      expect(viewer.responses().filter((r) => r.url.includes("/api/system"))).toEqual([])
      // And the API refuses them all the same (their session, outside the page).
      expect((await viewer.context.request.get(`${baseUrl}/api/system/config`)).status()).toBe(403)
      expect(viewer.problems()).toEqual(noProblems)
    } finally {
      await viewer.close()
    }
  })
})
