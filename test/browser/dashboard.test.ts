/**
 * The dashboard end to end: the real controller (serving the built
 * dashboard) and a simulated game server, driven through a real Chromium.
 * An admin signs in through the UI, adds a server through the form, starts
 * it and sees it running with the players who joined, kicks one, bans
 * another and finds the ban in the bans page, watches the console receive
 * a line, backs the server up from its Backups tab and previews the backup,
 * and signs out; a second user whose role is scoped to one server
 * sees only that server (after the forced password change of their first
 * sign-in), sets up MFA from the QR code and signs in again with a recovery
 * code; a list of 1,000 servers renders only the rows in
 * view. axe finds no serious violation on any page
 * visited, and every page is left as a screenshot at desktop and phone
 * widths (test-artifacts/screenshots/dashboard-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { Secret, TOTP } from "otpauth"
import type { BrowserContextOptions } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, noProblems, type TestBrowser, type WatchedPage } from "../support/browser.js"
import { type ControllerHandle, makeTempDir, removeDir, requestJson, startController, stopProcess } from "../support/controller.js"
import { fleetEnv, fleetSimArgs, handoff, isAlive, type PlayerList, type ServerStatus, until } from "../support/fleet.js"
import { installSim, type SimInstall, simControl } from "../support/sim.js"

const ADMIN = { username: "admin", password: "correct horse battery staple" }
const MODERATOR = { username: "mod-one", password: "a long moderator passphrase" }
const FIRST_PASSWORD = "a one-time first password"
const ALPHA = { steam64: "76561198000000011", name: "Alpha" }
const BRAVO = { steam64: "76561198000000012", name: "Bravo" }

// The real sign-in: no TestAuthPlugin (it stands in for the accounts plugin's sessions), so the test's own API calls
// carry the admin's session token as `Authorization: Bearer`, the spec's second mode.
let controller: ControllerHandle
let browser: TestBrowser
let install: SimInstall
let baseUrl: string
let admin: WatchedPage
let moderator: WatchedPage
let bearer: Readonly<Record<string, string>> = {}
const cleanups: Array<() => unknown> = []
const gamePids = new Set<number>()

const api = (method: string, path: string, body?: unknown) =>
  requestJson(baseUrl, method, path, { headers: bearer, timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })
const players = async (id: string) => (await api("GET", `/api/servers/${id}/players`)).body as PlayerList
const newInstall = async () => {
  const made = await installSim()
  cleanups.push(() => made.remove())
  return made
}

beforeAll(async () => {
  install = await newInstall()
  const dataDir = makeTempDir()
  cleanups.push(() => removeDir(dataDir))
  controller = await startController({
    dataDir,
    env: { ...fleetEnv, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    logLevel: "Warning"
  })
  cleanups.push(() => stopProcess(controller))
  baseUrl = controller.baseUrl
  const login = await requestJson(baseUrl, "POST", "/api/auth/login", { body: ADMIN })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  bearer = { authorization: `Bearer ${(login.body as { token: string }).token}` }
  browser = await launchBrowser()
  admin = await browser.open(`${baseUrl}/`, { viewport: "desktop" })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  for (const pid of gamePids) if (isAlive(pid)) process.kill(pid, "SIGKILL")
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** axe on the page as it is now, then the page at phone width too (same session), both screenshotted. */
const checkPage = async (page: WatchedPage, name: string, ready: (p: WatchedPage) => Promise<unknown>) => {
  // Scrolled down, the sticky top bar covers the first nav entries, which axe's target-size rule counts against the page.
  await page.page.evaluate("window.scrollTo(0, 0)")
  expect(await page.seriousAccessibilityViolations(), `${name} at desktop width`).toEqual([])
  await page.screenshot(`dashboard-${name}`)
  const state = (await page.context.storageState()) as BrowserContextOptions["storageState"]
  const phone = await browser.open(page.page.url(), { viewport: "phone", context: { storageState: state! } })
  try {
    await ready(phone)
    expect(await phone.seriousAccessibilityViolations(), `${name} at phone width`).toEqual([])
    await phone.screenshot(`dashboard-${name}`)
    expect(phone.problems()).toEqual(noProblems)
  } finally {
    await phone.close()
  }
}

const heading = async (page: WatchedPage, name: string | RegExp) => {
  try {
    await page.page.getByRole("heading", { name, level: 1 }).waitFor({ timeout: 20_000 })
  } catch (error) {
    // What the page showed instead, for the failure message.
    const shown = await page.page.locator("body").innerText().catch(() => "(no page)")
    throw new Error(`no heading "${String(name)}" on ${page.page.url()}; the page shows: ${shown.slice(0, 600)}; problems: ${JSON.stringify(page.problems())}`, { cause: error })
  }
}

/** Signs in through the form (the page shows the sign-in form first). */
const signIn = async (page: WatchedPage, who: { readonly username: string; readonly password: string }) => {
  await heading(page, "Sign in")
  await page.page.getByLabel("Username").fill(who.username)
  await page.page.getByLabel("Password").fill(who.password)
  await page.page.getByRole("button", { name: "Sign in" }).click()
  await heading(page, "Servers")
}

const serverId = handoff<string>("an admin adds a server through the form")
const playersIn = handoff<true>("it starts, and shows running with the players who joined")

describe.sequential("the dashboard over a real controller and a simulated server", { timeout: 90_000 }, () => {
  it("an admin signs in through the sign-in form; the first load is under 300 KB of JavaScript on the wire", async () => {
    await signIn(admin, ADMIN)
    // Sign-in form and the servers page: the entry script only (pages are lazy chunks of a few KB).
    const firstLoad = admin.scriptBytes()
    console.info(`dashboard first load in the browser: ${(firstLoad / 1024).toFixed(1)} KB of JavaScript on the wire`)
    expect(firstLoad).toBeGreaterThan(0)
    expect(firstLoad).toBeLessThan(300 * 1024)
    // The one expected error: the session probe before signing in answers 401.
    admin.clearProblems()
    await checkPage(admin, "servers-empty", (p) => heading(p, "Servers"))
  })

  it("polls the server list with If-None-Match: an unchanged list comes back 304, and the page still shows it", async () => {
    const unchanged = await admin.page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/servers" && response.status() === 304,
      { timeout: 15_000 }
    )
    expect(unchanged.request().headers()["if-none-match"]).toMatch(/^W\/"/)
    // (Its empty body is checked in packages/http/test/ETags.test.ts: Playwright reads no body of a 304.)
    await heading(admin, "Servers")
    expect(admin.problems()).toEqual(noProblems)
  })

  it("an admin adds a server through the form", async () => {
    const page = admin.page
    await page.getByRole("button", { name: "Add server" }).click()
    await page.getByLabel("Name").fill("Sim One")
    await page.getByLabel(/Install folder/).fill(install.dir)
    await page.getByLabel("Game port").fill(String(install.gamePort))
    await page.getByLabel("Extra arguments").fill(fleetSimArgs.join(" "))
    await checkPage(admin, "add-server", async (p) => {
      await heading(p, "Servers")
      await p.page.getByRole("button", { name: "Add server" }).click()
    })
    await page.getByRole("button", { name: "Add server" }).last().click()
    const link = page.getByRole("link", { name: "Sim One" })
    await link.waitFor({ timeout: 20_000 })
    await link.click()
    await heading(admin, "Sim One")
    const id = /\/servers\/([^/]+)/.exec(page.url())?.[1]
    expect(id).toBeTruthy()
    serverId.set(id!)
  })

  it("it starts, and shows running with the players who joined", async () => {
    const id = serverId.get()
    const page = admin.page
    await page.getByRole("toolbar", { name: "Server controls" }).getByRole("button", { name: "Start", exact: true }).click()
    await page.getByRole("toolbar", { name: "Server controls" }).getByRole("button", { name: "Stop", exact: true }).waitFor()
    const running = await until(() => api("GET", `/api/servers/${id}/status`).then((r) => r.body as ServerStatus), (s) => s.rconStatus === "connected", 20_000, "the RCON session")
    if (running.pid !== null) gamePids.add(running.pid)
    await page.locator("h1 + .badge", { hasText: "running" }).waitFor({ timeout: 10_000 })
    simControl(install, `join ${ALPHA.steam64} ${ALPHA.name}`, `join ${BRAVO.steam64} ${BRAVO.name}`)
    await until(() => players(id), (list) => list.total === 2, 15_000, "two players online")
    await page.getByRole("link", { name: "Players" }).click()
    const table = page.getByRole("table", { name: "Online players" })
    await table.getByRole("cell", { name: ALPHA.name, exact: true }).waitFor({ timeout: 15_000 })
    await table.getByRole("cell", { name: BRAVO.name, exact: true }).waitFor({ timeout: 15_000 })
    await checkPage(admin, "server-players", (p) => p.page.getByRole("table", { name: "Online players" }).getByRole("cell", { name: BRAVO.name, exact: true }).waitFor({ timeout: 15_000 }))
    playersIn.set(true)
  })

  it("kicks one player after a confirmation", async () => {
    playersIn.get()
    const page = admin.page
    await page.getByRole("button", { name: `Manage ${ALPHA.name}` }).click()
    const panel = page.getByRole("region", { name: `Actions for ${ALPHA.name}` })
    await panel.getByRole("button", { name: "Kick" }).click()
    const dialog = page.getByRole("dialog", { name: `Kick ${ALPHA.name}?` })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Kick" }).click()
    await page.getByRole("status").getByText(`${ALPHA.name} kicked`).waitFor({ timeout: 15_000 })
    await until(() => players(serverId.get()), (list) => !list.items.some((p) => p.name === ALPHA.name), 15_000, "Alpha gone")
    await page.getByRole("table", { name: "Online players" }).getByRole("cell", { name: ALPHA.name, exact: true }).waitFor({ state: "detached", timeout: 15_000 })
  })

  it("bans another and finds the ban in the bans page", async () => {
    const page = admin.page
    await page.getByRole("button", { name: `Manage ${BRAVO.name}` }).click()
    const panel = page.getByRole("region", { name: `Actions for ${BRAVO.name}` })
    await panel.getByLabel("Reason").fill("Cheating in the browser test")
    const steam = panel.getByLabel("Steam64 (needed to ban)")
    if (await steam.count()) await steam.fill(BRAVO.steam64)
    await panel.getByRole("button", { name: "Ban" }).click()
    await page.getByRole("dialog", { name: `Ban ${BRAVO.name}?` }).getByRole("button", { name: "Ban" }).click()
    await page.getByRole("status").getByText(`${BRAVO.name} banned`).waitFor({ timeout: 15_000 })
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bans" }).click()
    await heading(admin, "Bans")
    const row = page.getByRole("row").filter({ hasText: BRAVO.steam64 })
    await row.getByText("Cheating in the browser test").waitFor({ timeout: 15_000 })
    await checkPage(admin, "bans", (p) => p.page.getByRole("row").filter({ hasText: BRAVO.steam64 }).waitFor({ timeout: 15_000 }))
  })

  it("watches the console receive a line, and answers an RCON command", async () => {
    const id = serverId.get()
    const page = admin.page
    await page.goto(`${baseUrl}/servers/${id}/console`)
    const log = page.getByRole("log", { name: "Server console" })
    await log.waitFor({ timeout: 15_000 })
    simControl(install, `join 76561198000000013 Charlie`, `chat 76561198000000013 Global hello-from-the-browser-test`)
    await log.getByText(/hello-from-the-browser-test/).first().waitFor({ timeout: 20_000 })
    await page.getByLabel("RCON command").fill("players")
    await page.getByRole("button", { name: "Send" }).click()
    await log.getByText("> players").waitFor({ timeout: 15_000 })
    await checkPage(admin, "server-console", (p) => p.page.getByRole("log", { name: "Server console" }).getByText(/hello-from-the-browser-test/).first().waitFor({ timeout: 20_000 }))
  })

  it("shows where the server is in its overview, and its Settings tab starts from the stored entry", async () => {
    const id = serverId.get()
    const page = admin.page
    await page.goto(`${baseUrl}/servers/${id}`)
    await heading(admin, "Sim One")
    // Running: Start is disabled, and drawn neutral rather than in the primary colour.
    const start = page.getByRole("toolbar", { name: "Server controls" }).getByRole("button", { name: "Start", exact: true })
    await expect.poll(() => start.isDisabled(), { timeout: 15_000 }).toBe(true)
    const stop = page.getByRole("toolbar", { name: "Server controls" }).getByRole("button", { name: "Stop", exact: true })
    const colours = await Promise.all([start, stop].map((b) => b.evaluate("(el) => getComputedStyle(el).backgroundColor") as Promise<string>))
    const accent = (await page.evaluate(`(() => {
      const probe = document.createElement("button")
      probe.className = "primary"
      document.body.append(probe)
      const colour = getComputedStyle(probe).backgroundColor
      probe.remove()
      return colour
    })()`)) as string
    expect(colours[0]).not.toBe(accent)
    expect(colours[0]).toBe(colours[1])

    const entry = page.getByRole("region", { name: "Entry" })
    expect(await entry.getByLabel("Connect address").inputValue()).toBe(`127.0.0.1:${install.gamePort}`)
    await entry.getByText(install.dir, { exact: true }).waitFor()
    await entry.getByText("none: in-game actions are off").waitFor()

    await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Settings" }).click()
    const form = page.getByRole("form", { name: "Change the entry" })
    await form.waitFor()
    expect(await form.getByLabel("Name").inputValue()).toBe("Sim One")
    expect(await form.getByLabel("Game port").inputValue()).toBe(String(install.gamePort))
    expect(await form.getByLabel(/^Extra arguments/).inputValue()).toBe(fleetSimArgs.join(" "))
    expect(await form.getByLabel("Watchdog: restart after a crash").isChecked()).toBe(true)
    // Nothing changed yet: nothing to save.
    expect(await form.getByRole("button", { name: "Save" }).isDisabled()).toBe(true)
    const before = (await api("GET", `/api/servers/${id}`)).body as Record<string, unknown>
    await form.getByLabel("Watchdog: restart after a crash").uncheck()
    await form.getByRole("button", { name: "Save" }).click()
    await page.getByRole("status").getByText("Saved: applies at the next start").waitFor({ timeout: 15_000 })
    const after = (await api("GET", `/api/servers/${id}`)).body as Record<string, unknown>
    // Only the field changed was sent: the rest of the entry is as it was.
    const entryOnly = (view: Record<string, unknown>) => ({ ...view, watchdog: undefined, status: undefined, uptime: undefined, cpu: undefined, ram: undefined, players: undefined, playerCount: undefined })
    expect(after.watchdog).toBe(false)
    expect(entryOnly(after)).toEqual(entryOnly(before))
    await checkPage(admin, "server-settings", (p) => p.page.getByRole("form", { name: "Change the entry" }).getByLabel("Name").waitFor({ timeout: 15_000 }))
    expect((await api("PATCH", `/api/servers/${id}`, { watchdog: true })).status).toBe(200)
  })

  it("backs the server up from its Backups tab, previews the backup and links its download", async () => {
    const id = serverId.get()
    const page = admin.page
    await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Backups" }).click()
    await page.getByRole("toolbar", { name: "Backup controls" }).getByRole("button", { name: "Back up now" }).click()
    // The progress is polled; when the backup ends, the list shows it.
    const manualRow = (p: WatchedPage) =>
      p.page.getByRole("table", { name: "Backups, newest first" }).getByRole("row").filter({ has: p.page.getByRole("cell", { name: "manual", exact: true }) }).first()
    await manualRow(admin).waitFor({ timeout: 60_000 })
    const listed = await api("GET", `/api/servers/${id}/backups?type=manual`)
    const filename = (listed.body as { items: ReadonlyArray<{ filename: string }> }).items[0]!.filename
    const row = manualRow(admin)
    const href = await row.getByRole("link", { name: `Download ${filename}` }).getAttribute("href")
    expect(href).toBe(`/api/servers/${id}/backups/${filename}/download`)
    // The plain link works with the session cookie alone (same origin, a GET).
    const download = await page.evaluate((url) => fetch(url).then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), bytes: (await r.arrayBuffer()).byteLength })), href!)
    expect(download.status).toBe(200)
    expect(download.type).toBe("application/zip")
    expect(download.bytes).toBeGreaterThan(0)
    const openPreview = async (p: WatchedPage) => {
      await manualRow(p).getByRole("button", { name: `Preview ${filename}` }).click()
      await p.page.getByRole("region", { name: `Preview of ${filename}` }).getByText(/players\.db/).first().waitFor({ timeout: 15_000 })
    }
    await openPreview(admin)
    await checkPage(admin, "server-backups-preview", async (p) => {
      await heading(p, "Sim One")
      await manualRow(p).waitFor({ timeout: 15_000 })
      await openPreview(p)
    })
  })

  it("gives a player priority for 30d by name, as the bans page takes an expiry", async () => {
    const page = admin.page
    await page.goto(`${baseUrl}/priority`)
    await heading(admin, "Priority queue")
    const form = page.getByRole("form", { name: "Add a player" })
    await form.getByLabel("Player id (Steam64)").fill(ALPHA.steam64)
    await form.getByLabel("Player name").fill(ALPHA.name)
    await form.getByLabel(/^Expires/).fill("30d")
    await form.getByRole("button", { name: "Add" }).click()
    await page.getByRole("status").getByText("Added to the priority queue").waitFor({ timeout: 15_000 })
    const row = page.getByRole("table", { name: "Priority queue" }).getByRole("row").filter({ hasText: ALPHA.steam64 })
    await row.getByRole("combobox", { name: `Role of ${ALPHA.name}` }).waitFor({ timeout: 15_000 })
    expect(await row.getByRole("cell").nth(2).textContent()).not.toBe("never")
    const entries = (await api("GET", "/api/priority-queue")).body as { items: ReadonlyArray<{ platformId: string; playerName: string; expiresAt: string | null }> }
    const added = entries.items.find((e) => e.platformId === ALPHA.steam64)
    expect(added?.playerName).toBe(ALPHA.name)
    expect(Math.abs(Date.parse(added?.expiresAt ?? "") - Date.now() - 30 * 86_400_000)).toBeLessThan(10 * 60_000)
  })

  // One test per page (each page is checked at two widths with axe): each has its own time budget on a busy machine.
  const otherPages: ReadonlyArray<readonly [path: (serverId: string) => string, name: string, title: string]> = [
    [() => "/users", "users", "Users"],
    [() => "/roles", "roles", "Roles"],
    [() => "/priority", "priority", "Priority queue"],
    [() => "/audit", "audit", "Audit trail"],
    [() => "/notifications", "notifications", "Notifications"],
    [() => "/account", "account", "My account"],
    [(id) => `/servers/${id}/logs`, "server-logs", "Sim One"],
    [(id) => `/servers/${id}/world`, "server-world", "Sim One"],
    [(id) => `/servers/${id}/metrics`, "server-metrics", "Sim One"],
    [(id) => `/servers/${id}/scheduler`, "server-scheduler", "Sim One"],
    [(id) => `/servers/${id}/backups`, "server-backups", "Sim One"]
  ]
  for (const [path, name, title] of otherPages) {
    it(`visits the ${name} page without a serious accessibility violation`, async () => {
      await admin.page.goto(`${baseUrl}${path(serverId.get())}`)
      await heading(admin, title)
      await admin.page.locator(".loading").waitFor({ state: "detached", timeout: 15_000 })
      await checkPage(admin, name, async (p) => {
        await heading(p, title)
        await p.page.locator(".loading").waitFor({ state: "detached", timeout: 15_000 })
      })
    })
  }

  it("names who acted in the audit trail, the user id under the name", async () => {
    await admin.page.goto(`${baseUrl}/audit`)
    await heading(admin, "Audit trail")
    // The admin's changes above (the server added, the ban): only an actor cell holds a name over an id.
    const table = admin.page.getByRole("table", { name: "Audit rows, newest first" })
    const actor = table.getByRole("cell").filter({ has: admin.page.locator(".muted.mono") }).filter({ hasText: ADMIN.username }).first()
    await actor.waitFor({ timeout: 15_000 })
    const id = (await actor.locator(".muted.mono").textContent()) ?? ""
    expect(id).not.toBe("")
    expect(await actor.textContent()).toBe(`${ADMIN.username}${id}`)
  })

  it("pages through a long audit trail 25 rows at a time, the page one screen tall", async () => {
    const id = serverId.get()
    for (let i = 0; i < 30; i++) expect((await api("PATCH", `/api/servers/${id}`, { watchdog: i % 2 === 0 })).status).toBe(200)
    await admin.page.goto(`${baseUrl}/audit`)
    await heading(admin, "Audit trail")
    const rows = admin.page.getByRole("table", { name: "Audit rows, newest first" }).locator("tbody tr")
    const pages = admin.page.getByRole("navigation", { name: "Audit pages" })
    await pages.getByText("Page 1").waitFor({ timeout: 15_000 })
    await expect.poll(() => rows.count()).toBe(25)
    const newest = await rows.first().locator("td").first().textContent()
    expect(await pages.getByRole("button", { name: "Newer" }).isDisabled()).toBe(true)
    expect(await admin.page.evaluate("document.documentElement.scrollHeight")).toBeLessThan(4000)

    await pages.getByRole("button", { name: "Older" }).click()
    await pages.getByText("Page 2").waitFor()
    await expect.poll(async () => Number(await rows.first().locator("td").first().textContent())).toBeLessThan(Number(newest))
    await pages.getByRole("button", { name: "Newer" }).click()
    await pages.getByText("Page 1").waitFor()
    await expect.poll(() => rows.first().locator("td").first().textContent()).toBe(newest)
  })

  it("has a dark theme: the toggle switches it, the system's preference picks it, and it passes axe", async () => {
    const id = serverId.get()
    await admin.page.goto(`${baseUrl}/servers/${id}/players`)
    await heading(admin, "Sim One")
    await admin.page.getByRole("button", { name: "Switch to dark theme" }).click()
    await admin.page.getByRole("button", { name: "Switch to light theme" }).waitFor()
    expect(await admin.page.evaluate("document.documentElement.dataset.theme")).toBe("dark")
    expect(await admin.seriousAccessibilityViolations()).toEqual([])
    await admin.screenshot("dashboard-server-players-dark")
    await admin.page.getByRole("button", { name: "Switch to light theme" }).click()
    expect(await admin.page.evaluate("document.documentElement.dataset.theme")).toBe("light")

    // A browser that prefers dark gets it without the toggle.
    const state = (await admin.context.storageState()) as BrowserContextOptions["storageState"]
    const dark = await browser.open(`${baseUrl}/bans`, { viewport: "phone", context: { storageState: state!, colorScheme: "dark" } })
    try {
      await heading(dark, "Bans")
      await dark.page.evaluate("localStorage.removeItem('garrison.theme')")
      await dark.page.reload()
      await heading(dark, "Bans")
      await dark.page.getByRole("button", { name: "Switch to light theme" }).waitFor()
      expect(await dark.seriousAccessibilityViolations()).toEqual([])
      await dark.screenshot("dashboard-bans-dark")
      expect(dark.problems()).toEqual(noProblems)
    } finally {
      await dark.close()
    }
  })

  it("renders 1,000 servers smoothly: only the rows in view are in the page, and scrolling reaches the last", async () => {
    const many = await browser.open(`${baseUrl}/`, { viewport: "desktop" })
    try {
      await signIn(many, ADMIN)
      many.clearProblems()
      // The list the API would answer for a fleet of 1,000 (served by the test, in the contract's shape).
      const items = Array.from({ length: 1000 }, (_, i) => ({
        id: `srv-${i + 1}`,
        name: `Fleet server ${String(i + 1).padStart(4, "0")}`,
        gamePort: 2302 + i,
        status: i % 3 === 0 ? "running" : "stopped",
        pid: null,
        playerCount: i % 50,
        uptime: 0,
        cpu: null,
        ram: null,
        map: null,
        version: null,
        locked: false,
        rconStatus: null,
        lastError: null,
        consecutiveCrashes: 0,
        operation: null
      }))
      await many.page.route(/\/api\/servers(\?.*)?$/, (route) =>
        route.request().method() === "GET" ? route.fulfill({ json: { items, nextCursor: null, total: items.length } }) : route.continue()
      )
      await many.page.reload()
      await heading(many, "Servers")
      const list = many.page.getByRole("list", { name: /^Servers \(1000 of 1000\)/ })
      await list.waitFor({ timeout: 15_000 })
      const rendered = await list.getByRole("listitem").count()
      expect(rendered).toBeGreaterThan(5)
      expect(rendered).toBeLessThan(60)
      const started = Date.now()
      await list.evaluate((element) => (element.scrollTop = element.scrollHeight))
      await many.page.getByRole("link", { name: "Fleet server 1000" }).waitFor({ timeout: 5_000 })
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(await list.getByRole("listitem").count()).toBeLessThan(60)
      // The filter works over all of them.
      await many.page.getByPlaceholder("Filter by name, state or map").fill("Fleet server 0500")
      await many.page.getByRole("link", { name: "Fleet server 0500" }).waitFor({ timeout: 5_000 })
      expect(await many.seriousAccessibilityViolations()).toEqual([])
      await many.screenshot("dashboard-servers-1000")
      expect(many.problems()).toEqual(noProblems)
    } finally {
      await many.close()
    }
  })

  it("signs out", async () => {
    await admin.page.getByRole("button", { name: "Sign out" }).click()
    await heading(admin, "Sign in")
    // Signed out for real: the API refuses the old session.
    const me = await admin.page.evaluate(() => fetch("/api/me").then((r) => r.status))
    expect(me).toBe(401)
    admin.clearProblems()
  })

  it("a user whose role is scoped to one server sees only that server", async () => {
    const id = serverId.get()
    const other = await newInstall()
    const second = await api("POST", "/api/servers", { name: "Sim Two", installDir: other.dir, gamePort: other.gamePort, extraArgs: fleetSimArgs })
    expect(second.status, JSON.stringify(second.body)).toBe(201)
    const role = await api("POST", "/api/roles", {
      name: "mod-sim-one",
      description: "Moderates Sim One",
      permissions: [
        { permission: "server.view", servers: [id] },
        { permission: "players.view", servers: [id] },
        { permission: "players.kick", servers: [id] },
        { permission: "server.deploy", servers: [id] }
      ]
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const user = await api("POST", "/api/users", { username: MODERATOR.username, password: FIRST_PASSWORD, role: "mod-sim-one", mustChangePassword: true })
    expect(user.status, JSON.stringify(user.body)).toBe(201)

    // The first sign-in goes through the forced password change.
    moderator = await browser.open(`${baseUrl}/`, { viewport: "desktop" })
    await heading(moderator, "Sign in")
    await moderator.page.getByLabel("Username").fill(MODERATOR.username)
    await moderator.page.getByLabel("Password").fill(FIRST_PASSWORD)
    await moderator.page.getByRole("button", { name: "Sign in" }).click()
    await heading(moderator, "Choose a new password")
    await moderator.page.getByLabel("Current password").fill(FIRST_PASSWORD)
    await moderator.page.getByLabel("New password (8 to 128 characters)").fill(MODERATOR.password)
    await moderator.page.getByLabel("Repeat the new password").fill(MODERATOR.password)
    await moderator.page.getByRole("button", { name: "Change password" }).click()
    await heading(moderator, "Servers")
    // Expected on the way: the session probe before sign-in (401) and before the change (403 password-change-required).
    moderator.clearProblems()
    await moderator.page.getByRole("link", { name: "Sim One" }).waitFor({ timeout: 15_000 })
    expect(await moderator.page.getByRole("link", { name: "Sim Two" }).count()).toBe(0)
    expect(await moderator.page.getByText("1 of 1 servers").count()).toBe(1)
    // No admin pages, no deploy controls.
    const nav = moderator.page.getByRole("navigation", { name: "Main" })
    expect(await nav.getByRole("link", { name: "Users" }).count()).toBe(0)
    expect(await moderator.page.getByRole("button", { name: "Add server" }).count()).toBe(0)
    await checkPage(moderator, "moderator-servers", (p) => p.page.getByRole("link", { name: "Sim One" }).waitFor({ timeout: 15_000 }))
    // Its server page offers what the role grants there: players (kick), no start or stop.
    await moderator.page.getByRole("link", { name: "Sim One" }).click()
    await heading(moderator, "Sim One")
    expect(await moderator.page.getByRole("button", { name: "Start" }).count()).toBe(0)
    expect(await moderator.page.getByRole("button", { name: "Stop" }).count()).toBe(0)
    await moderator.page.getByRole("link", { name: "Players" }).waitFor()
    // Its settings: the name is the deployer's; where RCON and the agent are is an admin's, and the form says so.
    await moderator.page.getByRole("link", { name: "Settings" }).click()
    await moderator.page.getByRole("heading", { name: "Change the entry" }).waitFor()
    expect(await moderator.page.getByLabel("Name").isDisabled()).toBe(false)
    expect(await moderator.page.getByLabel(/RCON port \(only an admin may change this\)/).isDisabled()).toBe(true)
    expect(await moderator.page.getByLabel(/Agent URL .*only an admin may change this/).isDisabled()).toBe(true)
    await checkPage(moderator, "moderator-settings", (p) => p.page.getByRole("heading", { name: "Change the entry" }).waitFor())
    expect(moderator.problems()).toEqual(noProblems)
  })

  it("sets up MFA from the QR code's secret, gets recovery codes, and signs in again with one", async () => {
    const page = moderator.page
    await page.goto(`${baseUrl}/account`)
    await heading(moderator, "My account")
    await page.getByRole("button", { name: "Set up MFA" }).click()
    await page.getByRole("img", { name: "QR code of the MFA secret" }).waitFor({ timeout: 10_000 })
    const secret = (await page.locator("form code").first().innerText()).trim()
    await page.getByLabel("Code", { exact: true }).fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate())
    await page.getByRole("button", { name: "Turn MFA on" }).click()
    const codes = page.getByRole("region", { name: "Recovery codes" })
    await codes.waitFor({ timeout: 10_000 })
    const recovery = (await codes.getByRole("listitem").first().innerText()).trim()
    expect(recovery.length).toBeGreaterThan(4)
    await checkPage(moderator, "account-mfa", (p) => heading(p, "My account"))

    await page.getByRole("button", { name: "Sign out" }).click()
    await heading(moderator, "Sign in")
    await page.getByLabel("Username").fill(MODERATOR.username)
    await page.getByLabel("Password").fill(MODERATOR.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await heading(moderator, "Two-step verification")
    await page.getByLabel(/Code from your authenticator app/).fill(recovery)
    await page.getByRole("button", { name: "Verify" }).click()
    // Back where the user was, signed in, with MFA on.
    await heading(moderator, "My account")
    await page.getByText("Status: on").waitFor({ timeout: 10_000 })
    // Expected: the sign-in without a code answered 401 mfa-required.
    moderator.clearProblems()
  })
})
