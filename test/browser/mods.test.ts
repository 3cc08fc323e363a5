/**
 * The Mods tab end to end: a real controller (serving the built dashboard)
 * with the SteamCMD stand-in (`examples/sim-steamcmd`, installed by its own
 * installer, and its Steam Web API) and simulated DayZ servers, driven
 * through a real Chromium.
 *
 * An admin installs two workshop mods through the page and watches a
 * download's progress, sees them listed in load order, changes one's type,
 * moves it up and down again with the keyboard (the focus stays on the
 * moved mod), has a bad workshop id refused with the API's message as a
 * toast, and uninstalls a mod after a confirmation (cancelled once). A new
 * version is found by "Check for updates", forgotten, found again; the
 * rollout policy refuses a too short check window under its field and
 * saves a good one; a rollout on the stopped server finishes, followed
 * live. A moderator whose role sees one server's mods gets the list
 * without any control there, and the install form on a second server where
 * the role grants `mods.install`. Last, on the running server, a broken
 * version's rollout is rolled back, and the page says so with the reason.
 * axe finds no serious violation, the page left as screenshots at desktop
 * and phone widths (test-artifacts/screenshots/mods-*).
 *
 * One test per step, in order, on one controller, one browser page.
 * Needs the build (`npm run build`).
 */
import { spawnSync } from "node:child_process"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { publishItemVersion, setBehaviour, startWebApi } from "../../examples/sim-steamcmd/src/index.js"
import { csrfHeaders, noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { makeTempDir, removeDir, repoRoot } from "../support/controller.js"
import { fleetEnv, fleetSimArgs, isAlive, until } from "../support/fleet.js"
import { installSim } from "../support/sim.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const CF = "1559212036"
const COT = "1564026768"
const MODERATOR = { username: "mods-viewer", password: "a long mods viewer passphrase" }
const MODERATOR_ROLE = "mods-viewer-one-server"

interface ModView {
  readonly workshopId: string
  readonly name: string
  readonly type: string
  readonly loadOrder: number
  readonly pendingUpdate: unknown
  readonly heldUpdate: string | null
}
interface RolloutView {
  readonly state: string
  readonly error: string | null
  readonly message: string
}

const suite = browserSuite("mods")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let steamDir: string
let serverId: string
let otherServerId: string
const gamePids = new Set<number>()

const mods = async (id = serverId): Promise<ReadonlyArray<ModView>> => {
  const answer = await api("GET", `/api/servers/${id}/mods`)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return (answer.body as { items: ReadonlyArray<ModView> }).items
}
const rolloutStatus = async () => (await api("GET", `/api/servers/${serverId}/rollout/status`)).body as RolloutView
const toast = (page: WatchedPage, text: string | RegExp) => page.page.locator(".toasts").getByText(text).first().waitFor({ timeout: 30_000 })
const modsTable = (page: WatchedPage) => page.page.getByRole("table", { name: /Installed mods in load order/ })
/** A mod's title in the table (its buttons repeat it for screen readers). */
const modTitle = (page: WatchedPage, title: string) => modsTable(page).locator("strong", { hasText: title })

/** A sim install added as a server whose game process quits fast and quietly (the fleet's settings). */
const addServer = async (name: string): Promise<string> => {
  const install = await installSim()
  suite.onCleanup(() => install.remove())
  const created = await api("POST", "/api/servers", {
    name,
    installDir: install.dir,
    gamePort: install.gamePort,
    extraArgs: fleetSimArgs,
    stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return (created.body as { id: string }).id
}

beforeAll(async () => {
  // The stand-in SteamCMD and its Web API, installed as an operator would; removed after the file (after the controller stops).
  const dir = makeTempDir("garrison-browser-steam-")
  steamDir = dir
  suite.onCleanup(() => removeDir(dir))
  const installer = spawnSync(process.execPath, [NodePath.join(repoRoot, "examples/sim-steamcmd/dist/install.js"), steamDir], { encoding: "utf8" })
  expect(installer.status, installer.stderr).toBe(0)
  const steamcmdPath = installer.stdout.trim().split("\n").at(-1) ?? ""
  const webApi = await startWebApi({ dir: steamDir })
  suite.onCleanup(() => webApi.close())

  baseUrl = (await suite.startControllerWithAdmin({ ...fleetEnv, STEAMCMD_PATH: steamcmdPath, STEAM_WEB_API_URL: webApi.url })).baseUrl
  // Game servers outlive the controller by design: end the ones the test started before it stops.
  suite.onCleanup(() => {
    for (const pid of gamePids) if (isAlive(pid)) process.kill(pid, "SIGKILL")
  })
  api = await signInAdminApi(baseUrl)
  const steam = await api("POST", "/api/platform/credentials", { username: "garrison_bot", password: "correct-horse" })
  expect(steam.status, JSON.stringify(steam.body)).toBe(200)
  serverId = await addServer("Sim Mods")
  otherServerId = await addServer("Sim Other")

  const role = await api("POST", "/api/roles", {
    name: MODERATOR_ROLE,
    description: "Sees Sim Mods' mods; installs on Sim Other",
    permissions: [
      { permission: "server.view", servers: [serverId, otherServerId] },
      { permission: "mods.view", servers: [serverId, otherServerId] },
      { permission: "mods.install", servers: [otherServerId] }
    ]
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const user = await api("POST", "/api/users", { ...MODERATOR, role: MODERATOR_ROLE, mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  browser = await suite.launchBrowser()
}, 120_000)

const installThroughPage = async (workshopId: string, title: string) => {
  const form = admin.page.getByRole("form", { name: "Install a mod" })
  await form.getByLabel("Workshop id").fill(workshopId)
  await form.getByRole("button", { name: "Install", exact: true }).click()
  await toast(admin, `Install of workshop item ${workshopId} started`)
  await modTitle(admin, title).waitFor({ timeout: 30_000 })
}

describe.sequential("the Mods tab over a real controller and the SteamCMD stand-in", { timeout: 120_000 }, () => {
  it("an admin installs two mods by workshop id, watching a download's progress, and sees them in load order", async () => {
    admin = await browser.open(`${baseUrl}/servers/${serverId}/mods`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Sim Mods")
    await page.getByText("No mods installed on this server yet.").waitFor({ timeout: 15_000 })

    // A slow download (300 KB at 100 KB/s) shows its progress in Downloads until it is done.
    setBehaviour(steamDir, { bytesPerSecond: 100_000 })
    const form = page.getByRole("form", { name: "Install a mod" })
    await form.getByLabel("Workshop id").fill(CF)
    await form.getByRole("button", { name: "Install", exact: true }).click()
    await page.getByRole("progressbar", { name: `Install of workshop item ${CF} progress` }).waitFor({ timeout: 15_000 })
    await toast(admin, "Install of Community Framework done")
    setBehaviour(steamDir, { bytesPerSecond: 20_000_000 })
    await modTitle(admin, "Community Framework").waitFor()
    expect(await page.getByRole("region", { name: "Downloads" }).getByText("done").count()).toBeGreaterThan(0)
    // The live progress came over the install-status stream.
    expect(admin.responses().some((r) => r.url.endsWith("/api/mods/install-status/events") && r.status === 200)).toBe(true)

    await installThroughPage(COT, "Community Online Tools")
    const installed = await mods()
    expect(installed.map((m) => [m.workshopId, m.name, m.type, m.loadOrder])).toEqual([
      [CF, "@cf", "client", 1],
      [COT, "@cot", "client", 2]
    ])
    const rows = modsTable(admin).locator("tbody tr")
    expect(await rows.nth(0).textContent()).toContain("@cf")
    expect(await rows.nth(1).textContent()).toContain("@cot")
    await modsTable(admin).getByRole("link", { name: CF }).waitFor()
    expect(await page.getByRole("region", { name: "Installed mods" }).locator("dt:text-is('Client mods (-mod=)') + dd").textContent()).toBe("@cf;@cot")

    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "list", async (phone) => {
      await waitForHeading(phone, "Sim Mods")
      await modTitle(phone, "Community Online Tools").waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("changes a mod's type, and moves it up and back down with the keyboard, the focus staying on it", async () => {
    const page = admin.page
    await page.getByRole("combobox", { name: "Type of Community Online Tools" }).selectOption("server")
    await toast(admin, "Community Online Tools loads as a server mod from the next start")
    expect((await mods()).find((m) => m.workshopId === COT)?.type).toBe("server")
    const launch = page.getByRole("region", { name: "Installed mods" })
    await expect.poll(() => launch.locator("dt:text-is('Server mods (-serverMod=)') + dd").textContent()).toBe("@cot")

    await page.getByRole("button", { name: "↑ Up Community Online Tools" }).focus()
    await page.keyboard.press("Enter")
    await toast(admin, "Community Online Tools moved to 1 of 2 in the load order")
    expect((await mods()).map((m) => m.workshopId)).toEqual([COT, CF])
    await expect.poll(() => modsTable(admin).locator("tbody tr").first().textContent()).toContain("@cot")
    // First now, so its Up is disabled: the focus is on its Down, and Enter moves it back.
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe(`mod-${COT}-down`)
    await page.keyboard.press("Enter")
    await toast(admin, "Community Online Tools moved to 2 of 2 in the load order")
    expect((await mods()).map((m) => m.workshopId)).toEqual([CF, COT])
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe(`mod-${COT}-up`)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("shows the API's message as a toast when the workshop does not know an id", async () => {
    const form = admin.page.getByRole("form", { name: "Install a mod" })
    await form.getByLabel("Workshop id").fill("999999")
    await form.getByRole("button", { name: "Install", exact: true }).click()
    await admin.page.locator(".toasts").getByRole("alert").getByText("workshopId: no workshop item 999999 (unknown to Steam, or removed)").waitFor({ timeout: 15_000 })
    expect(admin.responses().filter((r) => r.url.endsWith("/mods/install")).at(-1)?.status).toBe(400)
    expect((await mods()).map((m) => m.workshopId)).toEqual([CF, COT])
    // The one expected error: the refused install.
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()
  })

  it("uninstalls a mod only after a confirmation", async () => {
    const page = admin.page
    const uninstall = page.getByRole("button", { name: "Uninstall Community Online Tools" })
    await uninstall.click()
    const dialog = page.getByRole("dialog", { name: "Uninstall Community Online Tools?" })
    await dialog.getByText("@cot").waitFor()
    await dialog.getByRole("button", { name: "Cancel" }).click()
    expect((await mods()).map((m) => m.workshopId)).toEqual([CF, COT])

    await uninstall.click()
    await dialog.getByRole("button", { name: "Uninstall" }).click()
    await toast(admin, "Community Online Tools uninstalled")
    await expect.poll(() => modTitle(admin, "Community Online Tools").count()).toBe(0)
    expect((await mods()).map((m) => m.workshopId)).toEqual([CF])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("finds a new version, forgets it, finds it again, sets the policy, and follows a rollout on the stopped server to its end", async () => {
    const page = admin.page
    const row = modsTable(admin).locator("tbody tr").first()
    publishItemVersion(steamDir, CF)
    await page.getByRole("button", { name: "Check for updates" }).click()
    await toast(admin, "Checked 1 mod(s): 1 with a newer version: Community Framework")
    await row.getByText("update available").waitFor()
    await page.getByRole("button", { name: "Forget update of Community Framework" }).click()
    await toast(admin, "The update of Community Framework is forgotten until the next check")
    await expect.poll(() => row.getByText("update available").count()).toBe(0)
    expect((await mods())[0]?.pendingUpdate).toBeNull()
    await page.getByRole("button", { name: "Check for updates" }).click()
    await row.getByText("update available").waitFor({ timeout: 15_000 })

    // The policy: a check window under 10 s is refused under its field, nothing saved; 10 s is saved.
    const before = (await api("GET", `/api/servers/${serverId}/rollout/policy`)).body
    await page.getByRole("button", { name: "Change the rollout policy" }).click()
    const policyForm = page.getByRole("form", { name: "Change the rollout policy" })
    await policyForm.getByLabel("Warn players at", { exact: false }).fill("5, 1")
    const window = policyForm.getByLabel("Check window in seconds", { exact: false })
    await window.fill("5")
    await policyForm.getByRole("button", { name: "Save rollout policy" }).click()
    await policyForm.getByRole("alert").getByText("checkWindowSeconds is 10 to 3600").waitFor()
    expect(await window.getAttribute("aria-invalid")).toBe("true")
    expect((await api("GET", `/api/servers/${serverId}/rollout/policy`)).body).toEqual(before)
    await window.fill("10")
    await policyForm.getByRole("button", { name: "Save rollout policy" }).click()
    await toast(admin, "Rollout policy saved")
    expect((await api("GET", `/api/servers/${serverId}/rollout/policy`)).body).toMatchObject({ warnings: [5, 1], checkWindowSeconds: 10, lock: true })
    await page.getByText("5 and 1 minutes before the restart").waitFor()

    const start = page.getByRole("form", { name: "Start a rollout" })
    expect(await start.getByRole("checkbox", { name: /Community Framework/ }).isChecked()).toBe(true)
    await start.getByText("The server is stopped: the new versions are downloaded and put on, and it stays stopped.").waitFor()
    await start.getByRole("button", { name: "Start rollout" }).click()
    await page.getByRole("dialog", { name: "Start the rollout?" }).getByRole("button", { name: "Start the rollout" }).click()
    await toast(admin, "Rollout started")
    await page.getByText("Updates put on; the server was stopped and stays stopped.").first().waitFor({ timeout: 60_000 })
    await toast(admin, /^Rollout done\./)
    expect(await rolloutStatus()).toMatchObject({ state: "done" })
    await expect.poll(() => row.getByText("up to date").count(), { timeout: 15_000 }).toBe(1)
    expect((await mods())[0]).toMatchObject({ workshopId: CF, pendingUpdate: null, heldUpdate: null })
    await page.getByText("What happened, step by step (times in UTC)").click()
    await page.getByText(/put on @cf/).waitFor()

    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "rollout-done", async (phone) => {
      await waitForHeading(phone, "Sim Mods")
      await phone.page.getByText("Updates put on; the server was stopped and stays stopped.").first().waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a moderator who may only view Sim Mods' mods sees the list with no controls, and installs on the server their role allows", async () => {
    const viewer = await browser.open(`${baseUrl}/servers/${serverId}/mods`, { viewport: "desktop", signIn: MODERATOR })
    try {
      const page = viewer.page
      await waitForHeading(viewer, "Sim Mods")
      await modTitle(viewer, "Community Framework").waitFor({ timeout: 15_000 })
      await page.getByRole("region", { name: "Rollout policy" }).getByText("5 and 1 minutes before the restart").waitFor()
      await waitForFirstLoad(viewer)
      expect(await page.getByRole("form", { name: "Install a mod" }).count()).toBe(0)
      expect(await page.getByRole("form", { name: "Start a rollout" }).count()).toBe(0)
      expect(await page.getByRole("button", { name: /Uninstall|Check for updates|Update all|Up |Down |Change the rollout policy/ }).count()).toBe(0)
      expect(await page.getByRole("combobox", { name: /Type of/ }).count()).toBe(0)
      expect(await modsTable(viewer).getByText("Client (-mod=)").count()).toBe(1)
      await suite.checkAtBothWidths(viewer, "moderator", async (phone) => {
        await waitForHeading(phone, "Sim Mods")
        await modTitle(phone, "Community Framework").waitFor({ timeout: 15_000 })
      })
      // And the API refuses them the same (their session, outside the page).
      const refused = await viewer.context.request.post(`${baseUrl}/api/servers/${serverId}/mods/install`, {
        headers: await csrfHeaders(viewer.context, baseUrl),
        data: { workshopId: COT }
      })
      expect(refused.status()).toBe(403)

      // On Sim Other the role grants mods.install: the controls are there.
      await page.goto(`${baseUrl}/servers/${otherServerId}/mods`)
      await waitForHeading(viewer, "Sim Other")
      await page.getByRole("form", { name: "Install a mod" }).waitFor({ timeout: 15_000 })
      await page.getByRole("button", { name: "Check for updates" }).waitFor()
      // No server.restart there: no rollout can be started.
      expect(await page.getByRole("form", { name: "Start a rollout" }).count()).toBe(0)
      expect(viewer.problems()).toEqual(noProblems)
    } finally {
      await viewer.close()
    }
  })

  it("on the running server, a broken version's rollout is followed live and rolled back, with the reason on the page", async () => {
    const page = admin.page
    expect((await api("POST", `/api/servers/${serverId}/start`)).status).toBe(200)
    const running = await until(
      async () => (await api("GET", `/api/servers/${serverId}/status`)).body as { rconStatus: string | null; pid: number | null },
      (s) => s.rconStatus === "connected",
      30_000,
      "the server's RCON session"
    )
    gamePids.add(running.pid!)
    await page.getByText("The server is running: installs, updates and uninstalls wait until it is stopped", { exact: false }).waitFor({ timeout: 15_000 })
    await page.getByRole("form", { name: "Install a mod" }).getByRole("button", { name: "Install with a rollout" }).waitFor()

    publishItemVersion(steamDir, CF, { crashOnLoad: true })
    await page.getByRole("button", { name: "Check for updates" }).click()
    await toast(admin, "Checked 1 mod(s): 1 with a newer version: Community Framework")
    const start = page.getByRole("form", { name: "Start a rollout" })
    await start.getByRole("checkbox", { name: "Skip the warnings: restart as soon as the downloads are done" }).check()
    await start.getByRole("button", { name: "Start rollout" }).click()
    const confirm = page.getByRole("dialog", { name: "Start the rollout?" })
    await confirm.getByText("everyone is kicked, and the server restarts with the new versions", { exact: false }).waitFor()
    await confirm.getByRole("button", { name: "Start the rollout" }).click()
    await toast(admin, "Rollout started")
    // Followed live: its phases show as they come (the check after the restart lasts the policy's 10 s), from the rollout's stream.
    await page.getByRole("status").getByText("Checking that the server runs, answers and loads its mods").first().waitFor({ timeout: 60_000 })
    await page.getByText("Rolled back", { exact: false }).first().waitFor({ timeout: 100_000 })
    expect(admin.responses().some((r) => r.url.endsWith(`/api/servers/${serverId}/rollout/events`) && r.status === 200)).toBe(true)

    const ended = await until(rolloutStatus, (s) => s.state !== "running", 30_000, "the rollout to end")
    expect(ended.state).toBe("rolled-back")
    expect(ended.error).toMatch(/crashed|failed to load/)
    const shown = page.getByRole("region", { name: "Safe rollout" }).locator(".notice").filter({ hasText: "Why:" })
    expect(await shown.textContent()).toContain(ended.error!.slice(1))
    expect(await shown.textContent()).toContain("Rolled back: the server runs the previous versions again.")
    await toast(admin, /^Rollout rolled back\. Why: /)
    // The broken version is held back on the mod's row.
    await modsTable(admin).getByText("held back").waitFor({ timeout: 15_000 })
    expect((await mods())[0]?.heldUpdate).not.toBeNull()

    const after = (await api("GET", `/api/servers/${serverId}/status`)).body as { pid: number | null }
    if (after.pid !== null) gamePids.add(after.pid)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "rolled-back", async (phone) => {
      await waitForHeading(phone, "Sim Mods")
      await phone.page.getByText("Why:", { exact: false }).first().waitFor({ timeout: 15_000 })
    })
    expect((await api("POST", `/api/servers/${serverId}/stop`)).status).toBe(200)
    expect(admin.problems()).toEqual(noProblems)
  })
})
