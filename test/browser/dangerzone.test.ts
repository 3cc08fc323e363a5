/**
 * The server's Danger zone tab end to end: a real controller (serving the
 * built dashboard) and two simulated servers, driven through a real
 * Chromium.
 *
 * Sim Alpha is started through the API, so it writes its logs and its
 * persistence (players.db, data/*.bin). While it runs, a wipe typed and
 * confirmed in the tab is refused: the API's message shows beside the
 * button and as a toast, and nothing is deleted. Stopped, the log scan
 * shows its engine, admin and script logs with the API's counts; the script
 * logs cleared after a confirmation are gone from the disk, the others
 * stay, and the tab says what was freed. The Economy wipe's button stays
 * off until the server's name is typed exactly; confirmed, data/ is gone
 * from the disk, players.db stays, and the tab names the pre-wipe backup,
 * which the backups API lists. On Sim Bravo, a replicate from Sim Alpha of
 * its config and missions is previewed (the API's file counts), then done
 * with Bravo's name typed and a confirmation: Alpha's mission file and
 * config setting are in Bravo's install, Bravo keeps its hostname, and no
 * saved state was copied. A moderator whose role is scoped to Sim Alpha
 * (without `admin`) has no Danger zone tab there, and
 * /servers/<id>/dangerzone tells her she may not open it without the page
 * asking the dangerzone API anything. axe finds no serious violation at
 * desktop and phone widths (screenshots test-artifacts/screenshots/dangerzone-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForHeading, type WatchedPage } from "../support/browser.js"
import { fleetEnv, fleetSimArgs, isAlive, until } from "../support/fleet.js"
import { installSim, type SimInstall } from "../support/sim.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const MODERATOR = { username: "alpha-moderator", password: "a long alpha moderator passphrase" }
const MISSION = "mpmissions/dayzOffline.chernarusplus"
const STORAGE = `${MISSION}/storage_1`
const MARKER = `${MISSION}/custom/alpha_marker.xml`

interface Sim {
  readonly name: string
  readonly id: string
  readonly install: SimInstall
}

interface LogsScan {
  readonly categories: ReadonlyArray<{ readonly id: string; readonly name: string; readonly fileCount: number; readonly sizeBytes: number; readonly files: ReadonlyArray<{ readonly path: string }> }>
}

const suite = browserSuite("dangerzone")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let alpha: Sim
let bravo: Sim
const gamePids = new Set<number>()

const addSim = async (name: string): Promise<Sim> => {
  const install = await installSim()
  suite.onCleanup(() => install.remove())
  const created = await api("POST", "/api/servers", { name, installDir: install.dir, gamePort: install.gamePort, extraArgs: fleetSimArgs })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return { name, id: (created.body as { id: string }).id, install }
}

const status = async (sim: Sim) => (await api("GET", `/api/servers/${sim.id}/status`)).body as { status: string; pid: number | null }
const logsScan = async (sim: Sim): Promise<LogsScan> => {
  const answer = await api("GET", `/api/servers/${sim.id}/dangerzone/logs-scan`)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body as LogsScan
}
const category = (scan: LogsScan, id: string) => scan.categories.find((c) => c.id === id)!
const onDisk = (sim: Sim, relative: string) => existsSync(NodePath.join(sim.install.dir, relative))
const toast = (page: WatchedPage, text: string | RegExp) => page.page.getByRole("status").filter({ hasText: text }).first().waitFor({ timeout: 20_000 })
const section = (page: WatchedPage, name: string) => page.page.getByRole("region", { name })
/**
 * Until no section shows its loading spinner. `waitForFirstLoad` polls a
 * string predicate, which the dashboard's CSP (no 'unsafe-eval') refuses
 * once it has to poll: waiting here first lets its first check pass.
 */
const settled = (page: WatchedPage) => expect.poll(() => page.page.locator(".loading").count(), { timeout: 15_000 }).toBe(0)
/** The tab as a phone opens it: the three sections there and loaded. */
const tabReady = async (page: WatchedPage, shows: (page: WatchedPage) => Promise<unknown>) => {
  await shows(page)
  await section(page, "Replicate from another server").waitFor({ timeout: 15_000 })
  await settled(page)
}

beforeAll(async () => {
  baseUrl = (await suite.startControllerWithAdmin(fleetEnv)).baseUrl
  api = await signInAdminApi(baseUrl)
  alpha = await addSim("Sim Alpha")
  bravo = await addSim("Sim Bravo")
  // What a replicate from Alpha must carry over: a mission file of its own and a config setting Bravo lacks.
  writeFileSync(NodePath.join(alpha.install.dir, MARKER), "<types><!-- alpha --></types>\n")
  const alphaConfig = NodePath.join(alpha.install.dir, "serverDZ.cfg")
  writeFileSync(alphaConfig, readFileSync(alphaConfig, "utf8").replace(/^maxPlayers\s*=\s*\d+;/m, "maxPlayers = 42;"))
  const bravoConfig = NodePath.join(bravo.install.dir, "serverDZ.cfg")
  writeFileSync(bravoConfig, readFileSync(bravoConfig, "utf8").replace(/^hostname\s*=\s*"[^"]*";/m, 'hostname = "Bravo Own Host";'))

  // Started so it writes its logs and its saved state.
  suite.onCleanup(() => {
    for (const pid of gamePids) if (isAlive(pid)) process.kill(pid, "SIGKILL")
  })
  const start = await api("POST", `/api/servers/${alpha.id}/start`)
  expect(start.status, JSON.stringify(start.body)).toBe(200)
  const running = await until(() => status(alpha), (s) => s.status === "running", 30_000, "Sim Alpha running")
  if (running.pid !== null) gamePids.add(running.pid)
  await until(() => onDisk(alpha, `${STORAGE}/players.db`), (there) => there, 15_000, "Sim Alpha's players.db")

  const role = await api("POST", "/api/roles", {
    name: "alpha-moderator",
    description: "Moderates Sim Alpha, no admin",
    permissions: [
      { permission: "server.view", servers: [alpha.id] },
      { permission: "players.view", servers: [alpha.id] }
    ]
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const user = await api("POST", "/api/users", { ...MODERATOR, role: "alpha-moderator", mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  browser = await suite.launchBrowser()
}, 120_000)

describe.sequential("the Danger zone tab over a real controller and two simulated servers", { timeout: 120_000 }, () => {
  it("a wipe of the running server, typed and confirmed, is refused with the API's message; nothing is deleted", async () => {
    admin = await browser.open(`${baseUrl}/servers/${alpha.id}`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, alpha.name)
    await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Danger zone" }).click()
    const wipe = section(admin, "Wipe")
    await wipe.getByText(`${alpha.name} is running. Stop it first`).waitFor({ timeout: 15_000 })
    await wipe.getByRole("radio", { name: /^Players:/ }).check()
    await wipe.getByLabel(/Type the server's name/).fill(alpha.name)
    await wipe.getByRole("button", { name: "Wipe players" }).click()
    const dialog = page.getByRole("dialog", { name: `Wipe players on ${alpha.name}?` })
    await dialog.getByRole("button", { name: "Wipe" }).click()

    const refusal = wipe.getByRole("alert")
    await refusal.getByText(`The wipe was refused: ${alpha.name} is busy (it is running): stop it before wiping it`).waitFor({ timeout: 15_000 })
    await page.getByRole("alert").filter({ hasText: /^Sim Alpha is busy \(it is running\): stop it before wiping it/ }).first().waitFor()
    expect(admin.responses().filter((r) => r.url.endsWith(`/api/servers/${alpha.id}/dangerzone/wipe`)).map((r) => r.status)).toEqual([409])
    expect(onDisk(alpha, `${STORAGE}/players.db`)).toBe(true)
    // What the typed name was: still there, to try again once stopped.
    expect(await wipe.getByLabel(/Type the server's name/).inputValue()).toBe(alpha.name)

    await settled(admin)
    await suite.checkAtBothWidths(admin, "running-refused", (phone) =>
      tabReady(phone, (p) => section(p, "Wipe").getByText(`${alpha.name} is running. Stop it first`).waitFor({ timeout: 15_000 }))
    )
    // The one expected error: the refused wipe.
    expect(admin.problems().consoleErrors.length).toBeGreaterThan(0)
    expect(admin.problems().consoleErrors.every((line) => line.includes("409"))).toBe(true)
    admin.clearProblems()
  })

  it("stopped, the log scan shows the sim's logs; the script logs cleared after a confirmation are gone from the disk", async () => {
    const page = admin.page
    const stop = await api("POST", `/api/servers/${alpha.id}/stop`)
    expect(stop.status, JSON.stringify(stop.body)).toBe(200)
    await until(() => status(alpha), (s) => s.status === "stopped", 30_000, "Sim Alpha stopped")
    const wipe = section(admin, "Wipe")
    await wipe.getByText(`${alpha.name} is running`).waitFor({ state: "detached", timeout: 15_000 })
    // The refusal spoke of the running server: stopped, it is gone.
    await expect.poll(() => wipe.getByRole("alert").count(), { timeout: 15_000 }).toBe(0)

    const logs = section(admin, "Log files")
    await logs.getByRole("button", { name: "Scan again" }).click()
    const before = await logsScan(alpha)
    const scripts = category(before, "script")
    const engine = category(before, "rpt")
    expect(scripts.fileCount).toBeGreaterThan(0)
    expect(engine.fileCount).toBeGreaterThan(0)
    for (const file of [...scripts.files, ...engine.files]) expect(onDisk(alpha, file.path), file.path).toBe(true)
    const table = logs.getByRole("table", { name: "Log files by category" })
    const row = (name: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) })
    await expect.poll(() => row("Script logs").getByRole("cell").nth(1).textContent(), { timeout: 15_000 }).toBe(String(scripts.fileCount))
    expect(await row("Engine logs (.RPT)").getByRole("cell").nth(1).textContent()).toBe(String(engine.fileCount))
    // Sizes in words a person reads.
    expect(await row("Script logs").getByRole("cell").nth(2).textContent()).toMatch(/^\d+(\.\d)? (B|KB|MB)$/)
    // Nothing selected: nothing to clear.
    expect(await logs.getByRole("button", { name: "Clear selected logs" }).isDisabled()).toBe(true)

    await logs.getByRole("checkbox", { name: "Select Script logs" }).check()
    await logs.getByRole("button", { name: "Clear selected logs" }).click()
    const dialog = page.getByRole("dialog", { name: `Delete ${scripts.fileCount} log file${scripts.fileCount === 1 ? "" : "s"} of ${alpha.name}?` })
    await dialog.getByText(/^Script logs: /).waitFor()
    await dialog.getByRole("button", { name: "Delete" }).click()
    await logs.getByRole("status", { name: "Logs cleared" }).getByText(`Removed ${scripts.fileCount} file${scripts.fileCount === 1 ? "" : "s"}, freed `).waitFor({ timeout: 15_000 })

    for (const file of scripts.files) expect(onDisk(alpha, file.path), file.path).toBe(false)
    for (const file of engine.files) expect(onDisk(alpha, file.path), file.path).toBe(true)
    const after = await logsScan(alpha)
    expect(category(after, "script").fileCount).toBe(0)
    expect(category(after, "rpt").fileCount).toBe(engine.fileCount)
    await expect.poll(() => row("Script logs").getByRole("cell").nth(1).textContent()).toBe("0")
    expect(await logs.getByRole("checkbox", { name: "Select Script logs" }).isDisabled()).toBe(true)

    await settled(admin)
    await suite.checkAtBothWidths(admin, "logs-cleared", (phone) =>
      tabReady(phone, (p) => section(p, "Log files").getByRole("table", { name: "Log files by category" }).getByRole("rowheader", { name: "Script logs" }).waitFor({ timeout: 15_000 }))
    )
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the economy wipe's button is off until the name is typed exactly; confirmed, data/ is gone and the pre-wipe backup is named", async () => {
    const page = admin.page
    expect(onDisk(alpha, `${STORAGE}/data`)).toBe(true)
    expect(readdirSync(NodePath.join(alpha.install.dir, STORAGE, "data")).length).toBeGreaterThan(0)
    const wipe = section(admin, "Wipe")
    await wipe.getByRole("button", { name: "Wipe players" }).waitFor()
    const name = wipe.getByLabel(/Type the server's name/)
    await name.fill("")
    await wipe.getByRole("radio", { name: /^Economy:/ }).check()
    const button = wipe.getByRole("button", { name: "Wipe economy" })
    expect(await button.isDisabled()).toBe(true)
    await name.fill(alpha.name.toLowerCase())
    expect(await button.isDisabled()).toBe(true)
    expect(await name.getAttribute("aria-invalid")).toBe("true")
    await name.fill(`${alpha.name} `)
    expect(await button.isDisabled()).toBe(true)
    await name.fill(alpha.name)
    expect(await button.isEnabled()).toBe(true)
    await button.click()
    await page.getByRole("dialog", { name: `Wipe economy on ${alpha.name}?` }).getByRole("button", { name: "Wipe" }).click()

    const result = wipe.getByRole("status", { name: "Wipe result" })
    await result.getByText(`Economy wiped on ${alpha.name}: removed 1 item from ${STORAGE}, freed `).waitFor({ timeout: 30_000 })
    await result.getByRole("list", { name: `Removed from ${STORAGE}` }).getByText("data", { exact: true }).waitFor()
    const backup = (await result.locator(".mono").last().textContent())!.trim()
    expect(backup).toMatch(/\.zip$/)
    await toast(admin, /^Economy wiped: /)

    expect(onDisk(alpha, `${STORAGE}/data`)).toBe(false)
    expect(onDisk(alpha, `${STORAGE}/players.db`)).toBe(true)
    const backups = (await api("GET", `/api/servers/${alpha.id}/backups`)).body as { items: ReadonlyArray<{ filename: string; type: string }> }
    expect(backups.items).toContainEqual(expect.objectContaining({ filename: backup, type: "pre-wipe" }))
    // The typed name is cleared: another wipe needs it typed again.
    expect(await name.inputValue()).toBe("")
    await expect.poll(() => wipe.getByRole("radio", { name: /^Economy:/ }).isDisabled(), { timeout: 15_000 }).toBe(true)

    await settled(admin)
    await suite.checkAtBothWidths(admin, "wiped", (phone) => tabReady(phone, (p) => section(p, "Wipe").getByRole("radio", { name: /^Players:/ }).waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a replicate from Sim Alpha into Sim Bravo is previewed, then done with Bravo's name typed: Bravo has Alpha's files and keeps its own", async () => {
    const page = admin.page
    await page.goto(`${baseUrl}/servers/${bravo.id}/dangerzone`)
    await waitForHeading(admin, bravo.name)
    const replicate = section(admin, "Replicate from another server")
    const form = replicate.getByRole("form", { name: "Replicate preview" })
    await form.getByLabel("Copy from").selectOption({ label: `${alpha.name} (stopped)` })
    await form.getByRole("checkbox", { name: /^Config:/ }).check()
    await form.getByRole("checkbox", { name: /^Missions:/ }).check()
    await form.getByRole("button", { name: "Preview" }).click()

    const planned = (await api("POST", `/api/servers/${bravo.id}/dangerzone/replicate-preview`, { sourceServerId: alpha.id, components: ["config", "mpmissions"] })).body as {
      components: ReadonlyArray<{ component: string; files: number }>
      blockers: ReadonlyArray<string>
    }
    expect(planned.blockers).toEqual([])
    const missionFiles = planned.components.find((c) => c.component === "mpmissions")!.files
    const preview = replicate.getByRole("region", { name: `Preview: from ${alpha.name} into ${bravo.name}` })
    const table = preview.getByRole("table", { name: `What would be copied from ${alpha.name}` })
    const missions = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Missions" }) })
    await expect.poll(() => missions.getByRole("cell").first().textContent(), { timeout: 15_000 }).toBe(String(missionFiles))
    // Persistence is left out, and said so.
    await missions.getByText(/left out/).click()
    await missions.getByText(/storage_1.*persistence is never copied/).waitFor()
    await preview.getByText(`${bravo.name} keeps:`).waitFor()

    const button = replicate.getByRole("button", { name: `Replicate into ${bravo.name}` })
    expect(await button.isDisabled()).toBe(true)
    await replicate.getByLabel(/Type the server's name/).fill(alpha.name)
    expect(await button.isDisabled()).toBe(true)
    await settled(admin)
    await suite.checkAtBothWidths(admin, "replicate", (phone) => tabReady(phone, (p) => section(p, "Replicate from another server").getByLabel("Copy from").waitFor({ timeout: 15_000 })))

    await replicate.getByLabel(/Type the server's name/).fill(bravo.name)
    await button.click()
    await page.getByRole("dialog", { name: `Replicate ${alpha.name} into ${bravo.name}?` }).getByRole("button", { name: "Replicate" }).click()
    const result = replicate.getByRole("status", { name: "Replicate result" })
    await result.getByText(new RegExp(`^Copied \\d+ files \\(.+\\) from ${alpha.name} into ${bravo.name}: config, missions\\.$`)).waitFor({ timeout: 30_000 })
    const backup = (await result.locator(".mono").last().textContent())!.trim()

    expect(readFileSync(NodePath.join(bravo.install.dir, MARKER), "utf8")).toContain("alpha")
    const bravoConfig = readFileSync(NodePath.join(bravo.install.dir, "serverDZ.cfg"), "utf8")
    expect(bravoConfig).toMatch(/^maxPlayers\s*=\s*42;/m)
    expect(bravoConfig).toMatch(/^hostname\s*=\s*"Bravo Own Host";/m)
    // Alpha's saved state stayed Alpha's.
    expect(onDisk(bravo, `${STORAGE}/players.db`)).toBe(false)
    const backups = (await api("GET", `/api/servers/${bravo.id}/backups`)).body as { items: ReadonlyArray<{ filename: string; type: string }> }
    expect(backups.items).toContainEqual(expect.objectContaining({ filename: backup, type: "pre-restore" }))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a moderator scoped to Sim Alpha without admin has no Danger zone tab, and its address says she may not open it", async () => {
    const moderator = await browser.open(`${baseUrl}/servers/${alpha.id}`, { viewport: "desktop", signIn: MODERATOR })
    try {
      const page = moderator.page
      await waitForHeading(moderator, alpha.name)
      const tabs = page.getByRole("navigation", { name: "Server sections" })
      await tabs.getByRole("link", { name: "Players" }).waitFor({ timeout: 15_000 })
      expect(await tabs.getByRole("link", { name: "Danger zone" }).count()).toBe(0)
      await page.goto(`${baseUrl}/servers/${alpha.id}/dangerzone`)
      await waitForHeading(moderator, alpha.name)
      await page.getByText("No such section, or you may not open it.").waitFor({ timeout: 15_000 })
      await settled(moderator)
      expect(await moderator.seriousAccessibilityViolations()).toEqual([])
      await moderator.screenshot("dangerzone-moderator")
      expect(moderator.responses().filter((r) => r.url.includes("/dangerzone/"))).toEqual([])
      // And the API refuses her all the same (her session, outside the page).
      expect((await moderator.context.request.get(`${baseUrl}/api/servers/${alpha.id}/dangerzone/logs-scan`)).status()).toBe(403)
      expect(moderator.problems()).toEqual(noProblems)
    } finally {
      await moderator.close()
    }
  })
})
