/**
 * The SteamCMD, Workshop, Updates and Deploy pages end to end: a real
 * controller (serving the built dashboard) with the SteamCMD stand-in
 * (`examples/sim-steamcmd`, installed by its own installer) and its fake
 * Steam Web API, driven through a real Chromium.
 *
 * An admin opens SteamCMD: the status says SteamCMD is found and no account
 * is set. A wrong password is refused (the API's message as a toast); the
 * Steam Guard account asks for its code, and signs in with it; the password
 * is never shown back; Remove account (after a confirmation) forgets it,
 * and the account that downloads is signed in. The Web API's address set
 * through the settings form is in force and still in the form after a
 * reload. The Workshop lists popular items, finds Community Framework by
 * search, shows its details in words, and installs it on the sim server
 * (the mods API lists it). The server's Updates tab runs a game update with
 * its progress live (the stream, the bar, SteamCMD's lines) to the end, a
 * rebuild after its confirmation (cancelling the dialog starts nothing),
 * and cancels an update half way. Deploy makes a new server, follows its
 * download and links to it; deploying into the same folder again shows the
 * API's refusal under the field and as a toast. A moderator who may only
 * view the server sees its update status without any control, and no
 * Deploy, SteamCMD or Workshop entry. axe finds no serious violation, each
 * page left as screenshots at desktop and phone widths
 * (test-artifacts/screenshots/updates-platform-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { publishAppBuild, setBehaviour, startWebApi, type WebApi } from "../../examples/sim-steamcmd/src/index.js"
import { csrfHeaders, noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { makeTempDir, removeDir, repoRoot } from "../support/controller.js"
import { freeUdpPort } from "../support/sim.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const SERVER = "Sim Updates"
const DEPLOYED = "Deployed Chernarus"
const CF = { workshopId: "1559212036", title: "Community Framework" }
/** The stand-in's accounts (its default catalogue). */
const BOT = { username: "garrison_bot", password: "correct-horse" }
const GUARDED = { username: "guarded_admin", password: "battery-staple", guardCode: "F4K3C" }
const VIEWER = { username: "update-viewer", password: "a long update viewer passphrase" }

interface UpdateStatus {
  readonly state: string
  readonly kind: string | null
  readonly appId: string | null
  readonly buildId: string | null
  readonly endedAt: string | null
}
interface PlatformStatus {
  readonly steamcmd: { readonly available: boolean }
  readonly webApi: { readonly url: string; readonly source: string }
  readonly credentials: { readonly configured: boolean; readonly username: string | null; readonly validatedAt: string | null }
}

const suite = browserSuite("updates-platform")
const steamDir = makeTempDir("garrison-browser-steam-")
const deployDir = makeTempDir("garrison-browser-deploy-")
let webApi: WebApi
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let serverId: string

const platformStatus = async () => (await api("GET", "/api/platform/status")).body as PlatformStatus
const updateStatus = async (id: string) => (await api("GET", `/api/servers/${id}/update/status`)).body as UpdateStatus
/** Waits for a toast saying `text`; fails at once with the error toast that comes instead. */
const toast = async (page: WatchedPage, text: string | RegExp) => {
  const wanted = page.page.locator(".toasts").getByText(text)
  await wanted.or(page.page.locator(".toasts .toast-error")).first().waitFor({ timeout: 20_000 })
  if ((await wanted.count()) === 0) throw new Error(`no toast ${String(text)}; the toasts say: ${await page.page.locator(".toasts").innerText()}`)
}
/** Dismisses the toasts shown, so a later check sees only new ones. */
const dismissToasts = async (page: WatchedPage) => {
  const buttons = page.page.locator(".toasts").getByRole("button", { name: "Dismiss" })
  // Toasts also leave by themselves meanwhile: each click may find one gone.
  for (let left = 10; left > 0 && (await buttons.count()) > 0; left--) await buttons.first().click({ timeout: 2_000 }).catch(() => undefined)
}
const mainNav = (page: WatchedPage) => page.page.getByRole("navigation", { name: "Main" })
/** The value of the update's `<progress>` (the tab's, not the server page's operation bar). */
const progressValue = async (page: WatchedPage) => Number(await page.page.locator(".update-progress progress").getAttribute("value"))

beforeAll(async () => {
  suite.onCleanup(() => removeDir(steamDir))
  suite.onCleanup(() => removeDir(deployDir))
  const installer = spawnSync(process.execPath, [NodePath.join(repoRoot, "examples/sim-steamcmd/dist/install.js"), steamDir], { encoding: "utf8" })
  expect(installer.status, installer.stderr).toBe(0)
  const steamcmdPath = installer.stdout.trim().split("\n").at(-1) ?? ""
  expect(existsSync(steamcmdPath)).toBe(true)
  webApi = await startWebApi({ dir: steamDir })
  suite.onCleanup(() => webApi.close())
  // The Web API's address starts wrong (a closed port): the settings form sets it, as an operator would.
  baseUrl = (await suite.startControllerWithAdmin({ STEAMCMD_PATH: steamcmdPath, DEPLOY_DIR: deployDir, STEAM_WEB_API_URL: "http://127.0.0.1:9" })).baseUrl
  api = await signInAdminApi(baseUrl)
  serverId = await suite.addSimServer(api, SERVER)
  const role = await api("POST", "/api/roles", { name: "views-sim-updates", description: "Sees one server", permissions: [{ permission: "server.view", servers: [serverId] }] })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const user = await api("POST", "/api/users", { ...VIEWER, role: "views-sim-updates", mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  browser = await suite.launchBrowser()
}, 90_000)

describe.sequential("SteamCMD, the workshop, updates and deploys over a real controller", () => {
  it("signs in to Steam: a wrong password is a toast, Steam Guard asks for its code, the password is never shown back", { timeout: 90_000 }, async () => {
    admin = await browser.open(`${baseUrl}/servers`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Servers")
    await mainNav(admin).getByRole("link", { name: "SteamCMD" }).click()
    await waitForHeading(admin, "SteamCMD")
    const status = page.getByRole("region", { name: "Status" })
    await status.getByText("found", { exact: true }).waitFor({ timeout: 15_000 })
    await status.getByText("none: downloads cannot sign in").waitFor()
    expect(await status.textContent()).toContain(NodePath.join(steamDir, "steamcmd.sh"))

    const form = page.getByRole("form", { name: "Steam sign-in" })
    await form.getByLabel("Steam account name").fill(BOT.username)
    await form.getByLabel("Password", { exact: true }).fill("not-the-password")
    await form.getByRole("button", { name: "Sign in and save" }).click()
    await page.locator(".toasts .toast-error").waitFor({ timeout: 30_000 })
    expect(admin.responses().filter((r) => r.url.endsWith("/api/platform/credentials")).at(-1)?.status).toBe(400)
    expect((await platformStatus()).credentials.configured).toBe(false)
    await dismissToasts(admin)
    // The one expected error: the refused sign-in.
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()

    await form.getByLabel("Steam account name").fill(GUARDED.username)
    await form.getByLabel("Password", { exact: true }).fill(GUARDED.password)
    await form.getByRole("button", { name: "Sign in and save" }).click()
    await form.getByText(/Steam asks for a Steam Guard code/).waitFor({ timeout: 30_000 })
    expect((await platformStatus()).credentials.configured).toBe(false)
    // Asked for, not failed: no error toast, the code's input has the focus.
    expect(await page.locator(".toasts .toast-error").count()).toBe(0)
    // The browser logs the 409 that asked for it.
    expect(admin.problems().consoleErrors.every((line) => line.includes("409"))).toBe(true)
    admin.clearProblems()
    const code = form.getByLabel("Steam Guard code")
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('autocomplete')")).toBe("one-time-code")
    await code.fill(GUARDED.guardCode)
    await form.getByRole("button", { name: "Sign in with the code" }).click()
    await toast(admin, `Signed in to Steam as ${GUARDED.username}: the account is saved`)
    await status.getByText("signed in", { exact: true }).waitFor()
    expect(await status.textContent()).toContain(GUARDED.username)
    expect(await form.getByLabel("Password", { exact: true }).inputValue()).toBe("")
    expect(await form.getByLabel("Steam Guard code").count()).toBe(0)
    expect(await page.content()).not.toContain(GUARDED.password)
    expect((await platformStatus()).credentials).toMatchObject({ configured: true, username: GUARDED.username })
    expect((await platformStatus()).credentials.validatedAt).not.toBeNull()
    expect(JSON.stringify(await platformStatus())).not.toContain(GUARDED.password)

    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "steamcmd", async (phone) => {
      await waitForHeading(phone, "SteamCMD")
      await phone.page.getByRole("region", { name: "Status" }).getByText("signed in", { exact: true }).waitFor({ timeout: 15_000 })
    })

    // Forgotten only after a confirmation; then the account that downloads is signed in.
    await page.getByRole("button", { name: "Remove account" }).click()
    const dialog = page.getByRole("dialog", { name: `Remove the Steam account ${GUARDED.username}?` })
    await dialog.getByText(/Game updates, deploys and mod downloads fail/).waitFor()
    await dialog.getByRole("button", { name: "Remove" }).click()
    await toast(admin, "Steam account removed")
    await status.getByText("none: downloads cannot sign in").waitFor()
    expect((await platformStatus()).credentials.configured).toBe(false)
    await form.getByLabel("Steam account name").fill(BOT.username)
    await form.getByLabel("Password", { exact: true }).fill(BOT.password)
    await form.getByRole("button", { name: "Sign in and save" }).click()
    await toast(admin, `Signed in to Steam as ${BOT.username}: the account is saved`)
    expect((await platformStatus()).credentials).toMatchObject({ configured: true, username: BOT.username })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("saves the Steam Web API's address through the settings form, still shown after a reload", async () => {
    const page = admin.page
    const settings = page.getByRole("form", { name: "Settings" })
    const address = settings.getByLabel("Steam Web API address")
    expect(await address.inputValue()).toBe("http://127.0.0.1:9")
    await settings.getByText("In force now: environment variable.").first().waitFor()
    // A value the contract refuses: its words under the field, as a toast, nothing sent.
    await address.fill("ftp://steam.example")
    await settings.getByRole("button", { name: "Save settings" }).click()
    await settings.getByRole("alert").getByText("must be an http(s) URL without user or password").waitFor({ timeout: 10_000 })
    expect(await address.getAttribute("aria-invalid")).toBe("true")
    await toast(admin, "Steam Web API address: must be an http(s) URL without user or password")
    expect(admin.responses().filter((r) => r.url.endsWith("/api/platform/settings"))).toEqual([])
    await dismissToasts(admin)

    await address.fill(webApi.url)
    await settings.getByRole("button", { name: "Save settings" }).click()
    await toast(admin, "Settings saved")
    expect((await platformStatus()).webApi).toMatchObject({ url: webApi.url, source: "setting" })
    await page.reload()
    await waitForHeading(admin, "SteamCMD")
    await settings.waitFor({ timeout: 15_000 })
    expect(await settings.getByLabel("Steam Web API address").inputValue()).toBe(webApi.url)
    await settings.getByText("Where workshop searches and details are asked. In force now: set here.").waitFor()
    expect(await page.getByRole("region", { name: "Status" }).textContent()).toContain(webApi.url)
    expect(await settings.getByRole("button", { name: "Use the environment's Web API address" }).count()).toBe(1)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("searches the workshop, shows an item's details in words and installs it on the sim server", { timeout: 90_000 }, async () => {
    const page = admin.page
    await mainNav(admin).getByRole("link", { name: "Workshop" }).click()
    await waitForHeading(admin, "Workshop")
    await page.getByRole("heading", { name: "Popular this week" }).waitFor()
    await page.getByRole("heading", { name: "Community Online Tools", level: 3 }).waitFor({ timeout: 15_000 })

    await page.getByRole("searchbox", { name: "Search the workshop" }).fill("framework")
    await page.getByRole("button", { name: "Search", exact: true }).click()
    await page.getByRole("heading", { name: "Results for “framework”" }).waitFor()
    const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: CF.title, level: 3 }) })
    await item.waitFor({ timeout: 15_000 })
    // Its description names it too: "Requires Community Framework".
    await page.getByRole("heading", { name: "Community Online Tools", level: 3 }).waitFor()
    expect(await page.getByRole("heading", { name: "Trader", level: 3 }).count()).toBe(0)
    expect(await item.textContent()).toMatch(/subscribers/)

    await item.getByRole("button", { name: `Details of ${CF.title}` }).click()
    const details = item.locator("dl")
    await details.getByText(CF.workshopId, { exact: true }).waitFor({ timeout: 15_000 })
    expect(await details.locator("dt:text-is('Subscribers') + dd").textContent()).toBe((900_000).toLocaleString("en-US"))
    expect(await details.locator("dt:text-is('Size') + dd").textContent()).toMatch(/KB|MB/)
    // A day, never Steam's seconds or the API's ISO time.
    expect(await details.locator("dt:text-is('Last updated') + dd").textContent()).toMatch(/\d{4}/)
    expect(await item.textContent()).not.toMatch(/T\d\d:\d\d:\d\d/)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "workshop", async (phone) => {
      await waitForHeading(phone, "Workshop")
      await phone.page.getByRole("heading", { name: CF.title, level: 3 }).waitFor({ timeout: 15_000 })
    })

    await item.getByRole("button", { name: `Install on server… (${CF.title})` }).click()
    const install = item.getByRole("form", { name: `Install ${CF.title} on a server` })
    await install.getByRole("combobox", { name: "Server" }).selectOption({ label: SERVER })
    await install.getByRole("button", { name: "Install" }).click()
    await toast(admin, `Installing ${CF.title}`)
    await item.getByText(`On ${SERVER}: installed as @cf`).waitFor({ timeout: 60_000 })
    const mods = (await api("GET", `/api/servers/${serverId}/mods`)).body as { items: ReadonlyArray<{ workshopId: string; name: string }> }
    expect(mods.items).toEqual([expect.objectContaining({ workshopId: CF.workshopId, name: "@cf" })])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("updates the sim server's game files with live progress to the end", { timeout: 120_000 }, async () => {
    const page = admin.page
    // Slow enough to watch: 2 MB at 200 KB/s.
    setBehaviour(steamDir, { bytesPerSecond: 200_000, progressIntervalMs: 100 })
    await page.goto(`${baseUrl}/servers/${serverId}`)
    await waitForHeading(admin, SERVER)
    await page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Updates" }).click()
    const tab = page.getByRole("main")
    await tab.locator("dt:text-is('Last update') + dd").getByText("none since the controller started").waitFor({ timeout: 15_000 })
    await tab.getByRole("button", { name: "Update game files" }).click()
    await toast(admin, "Update started")
    await page.getByRole("heading", { name: "Update is running", level: 2 }).waitFor({ timeout: 15_000 })
    await tab.getByText("Live", { exact: true }).waitFor({ timeout: 15_000 })
    // The bar moves between the ends while SteamCMD downloads.
    await expect.poll(() => progressValue(admin), { timeout: 30_000, interval: 200 }).toBeGreaterThan(0)
    expect(await progressValue(admin)).toBeLessThan(100)
    await tab.locator("label").getByText(/^Downloading: \d+%/).waitFor()
    expect((await updateStatus(serverId)).state).toBe("running")
    await page.getByRole("heading", { name: "Update finished", level: 2 }).waitFor({ timeout: 60_000 })
    expect(await progressValue(admin)).toBe(100)
    await page.getByRole("log", { name: "SteamCMD output" }).getByText("Success! App '223350' fully installed.").waitFor()
    expect(await tab.locator("dt:text-is('Build') + dd").textContent()).toBe("1000")
    expect(await tab.locator("dt:text-is('Installed') + dd").textContent()).toBe("DayZ server (stable)")
    expect(await updateStatus(serverId)).toMatchObject({ state: "done", kind: "update", appId: "223350", buildId: "1000" })
    // The server's state is read again once the update let it go: the controls are offered again.
    await expect.poll(() => tab.getByRole("button", { name: "Update game files" }).isEnabled(), { timeout: 10_000 }).toBe(true)
    // Followed through the event stream, closed once it ended.
    expect(admin.responses().some((r) => r.url.endsWith(`/api/servers/${serverId}/update/events`) && r.contentType.startsWith("text/event-stream"))).toBe(true)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "updated", async (phone) => {
      await waitForHeading(phone, SERVER)
      await phone.page.getByRole("heading", { name: "Update finished", level: 2 }).waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("rebuilds only after its confirmation; cancels a running update half way", { timeout: 120_000 }, async () => {
    const page = admin.page
    const tab = page.getByRole("main")
    const before = await updateStatus(serverId)
    await tab.getByRole("button", { name: "Rebuild…" }).click()
    let dialog = page.getByRole("dialog", { name: `Rebuild ${SERVER}?` })
    await dialog.getByText(/checks every file of the game server/).waitFor()
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "hidden" })
    expect(await updateStatus(serverId)).toEqual(before)

    await tab.getByRole("button", { name: "Rebuild…" }).click()
    dialog = page.getByRole("dialog", { name: `Rebuild ${SERVER}?` })
    await dialog.getByRole("button", { name: "Rebuild" }).click()
    await toast(admin, "Rebuild started")
    await page.getByRole("heading", { name: "Rebuild finished", level: 2 }).waitFor({ timeout: 60_000 })
    expect(await updateStatus(serverId)).toMatchObject({ state: "done", kind: "rebuild", buildId: "1000" })

    // A new build, downloaded slowly: cancelled half way, after a confirmation.
    publishAppBuild(steamDir, "223350")
    setBehaviour(steamDir, { bytesPerSecond: 50_000 })
    await tab.getByRole("button", { name: "Update game files" }).click()
    await page.getByRole("heading", { name: "Update is running", level: 2 }).waitFor({ timeout: 15_000 })
    await expect.poll(() => progressValue(admin), { timeout: 30_000, interval: 200 }).toBeGreaterThan(0)
    await tab.getByRole("button", { name: "Cancel", exact: true }).click()
    dialog = page.getByRole("dialog", { name: `Cancel the update of ${SERVER}?` })
    await dialog.getByText(/the next update continues from there/).waitFor()
    await dialog.getByRole("button", { name: "Cancel it" }).click()
    await toast(admin, "Update cancelled")
    await page.getByRole("heading", { name: "Update was cancelled", level: 2 }).waitFor({ timeout: 20_000 })
    expect(await updateStatus(serverId)).toMatchObject({ state: "cancelled", kind: "update", buildId: "1000" })
    expect(await tab.getByRole("button", { name: "Cancel", exact: true }).count()).toBe(0)
    setBehaviour(steamDir, { bytesPerSecond: 20_000_000, progressIntervalMs: 50 })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("deploys a new server, follows its download and links to it; the same folder again is refused under the field", { timeout: 120_000 }, async () => {
    const page = admin.page
    setBehaviour(steamDir, { bytesPerSecond: 1_000_000 })
    await mainNav(admin).getByRole("link", { name: "Deploy" }).click()
    await waitForHeading(admin, "Deploy a server")
    const form = page.getByRole("form", { name: "New server" })
    await form.getByLabel("Name", { exact: true }).fill(DEPLOYED)
    await form.getByLabel("Folder", { exact: true }).fill("chernarus")
    await form.getByLabel("Game port (optional)").fill(String(await freeUdpPort()))
    expect(await form.getByRole("radio", { name: "Stable" }).isChecked()).toBe(true)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "deploy-form", (phone) => waitForHeading(phone, "Deploy a server"))
    await form.getByRole("button", { name: "Deploy" }).click()
    await toast(admin, "Deploy started")
    await page.getByRole("heading", { name: "Download of the new server finished", level: 2 }).waitFor({ timeout: 60_000 })
    const servers = (await api("GET", "/api/servers")).body as { items: ReadonlyArray<{ id: string; name: string }> }
    const made = servers.items.find((s) => s.name === DEPLOYED)
    expect(made).toBeDefined()
    expect(((await api("GET", `/api/servers/${made!.id}`)).body as { installDir: string }).installDir).toBe(NodePath.join(deployDir, "chernarus"))
    expect(await updateStatus(made!.id)).toMatchObject({ state: "done", kind: "deploy", appId: "223350" })
    expect(existsSync(NodePath.join(deployDir, "chernarus", "DayZServer"))).toBe(true)
    await page.getByRole("log", { name: "SteamCMD output" }).getByText("Success! App '223350' fully installed.").waitFor()
    await suite.checkAtBothWidths(admin, "deployed", (phone) => waitForHeading(phone, "Deploy a server"))
    await page.getByRole("link", { name: `Open ${DEPLOYED}` }).click()
    await waitForHeading(admin, DEPLOYED)
    expect(page.url()).toBe(`${baseUrl}/servers/${made!.id}`)

    // The same folder again: refused (it has files), the API's words under the field and as a toast.
    await mainNav(admin).getByRole("link", { name: "Deploy" }).click()
    await waitForHeading(admin, "Deploy a server")
    await form.getByLabel("Name", { exact: true }).fill("Second Chernarus")
    await form.getByLabel("Folder", { exact: true }).fill("chernarus")
    await form.getByRole("button", { name: "Deploy" }).click()
    await toast(admin, /has files in it/)
    await form.getByRole("alert").getByText(/has files in it/).waitFor()
    expect(await form.getByLabel("Folder", { exact: true }).getAttribute("aria-invalid")).toBe("true")
    expect(((await api("GET", "/api/servers")).body as { items: ReadonlyArray<{ name: string }> }).items.map((s) => s.name)).not.toContain("Second Chernarus")
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()
  })

  it("a moderator who may only view the server sees its update status, no update control, no Deploy, SteamCMD or Workshop", { timeout: 60_000 }, async () => {
    const viewer = await browser.open(`${baseUrl}/servers/${serverId}/updates`, { viewport: "desktop", signIn: VIEWER })
    try {
      const page = viewer.page
      await waitForHeading(viewer, SERVER)
      const tab = page.getByRole("main")
      await tab.locator("dt:text-is('Build') + dd").getByText("1000").waitFor({ timeout: 15_000 })
      await page.getByRole("heading", { name: "Update was cancelled", level: 2 }).waitFor()
      expect(await tab.getByRole("toolbar", { name: "Update controls" }).count()).toBe(0)
      expect(await tab.getByRole("button", { name: "Update game files" }).count()).toBe(0)
      expect(await tab.getByRole("button", { name: "Rebuild…" }).count()).toBe(0)
      const nav = mainNav(viewer)
      await nav.getByRole("link", { name: "Servers" }).waitFor()
      for (const entry of ["Deploy", "SteamCMD", "Workshop"]) expect(await nav.getByRole("link", { name: entry }).count()).toBe(0)
      await waitForFirstLoad(viewer)
      await suite.checkAtBothWidths(viewer, "viewer", async (phone) => {
        await waitForHeading(phone, SERVER)
        await phone.page.getByRole("heading", { name: "Update was cancelled", level: 2 }).waitFor({ timeout: 15_000 })
      })
      // The API refuses the viewer all the same (her session, outside the page).
      const refused = await viewer.context.request.post(`${baseUrl}/api/servers/${serverId}/update`, { headers: await csrfHeaders(viewer.context, baseUrl) })
      expect(refused.status()).toBe(403)
      expect(((await refused.json()) as { error: string }).error).toBe("forbidden")
      expect(viewer.problems()).toEqual(noProblems)
    } finally {
      await viewer.close()
    }
  })
})
