/**
 * The server's Files and Types tabs end to end: a real controller (serving
 * the built dashboard) and two simulated servers' installs (the sim writes
 * serverDZ.cfg, BattlEye's config, a mission with db/types.xml and a
 * registered custom types file), driven through a real Chromium.
 *
 * Files: the install folder's entries, filtered by name; a binary file and
 * one over 2 MiB are refused in plain words with the API's message;
 * BattlEye's config opens with its RCon password masked, and a save there
 * is refused with the API's message as a toast. db/globals.xml, reached
 * through the folders and breadcrumbs, opens in the code editor (loaded
 * only then: the first load stays under 300 KB and never fetches it);
 * Ctrl-F opens the search panel and finds a setting; an edit saved is what
 * the API reads. A write through the API between opening and saving makes
 * the save a conflict, explained with the user's text kept: "Overwrite"
 * (after a confirmation) writes it, "Load the server's version" (after a
 * confirmation) shows the other one.
 *
 * Types: the mission's types files; items filtered by name; AKM's nominal
 * changed and saved (the API reads it); a min above nominal is refused
 * under its field with nothing sent; an item changed through the API since
 * its form opened is a conflict whose "Load theirs" shows their values; an
 * item added and found through the API; a duplicate name refused with the
 * choice to save over it; an item removed after a confirmation (cancelled
 * first).
 *
 * A moderator with `server.config` on Sim Alpha only has both tabs there
 * and none on Sim Bravo; a read-only one (`server.view`) has neither, and
 * /servers/<id>/files tells them they may not open it, without the page
 * asking the files API anything. axe finds no serious violation at desktop
 * and phone widths (screenshots test-artifacts/screenshots/files-types-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { installSim, type SimInstall } from "../support/sim.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

const EDITOR = { username: "alpha-config", password: "a long alpha config passphrase" }
const VIEWER = { username: "alpha-viewer", password: "a long alpha viewer passphrase" }
const MISSION = "mpmissions/dayzOffline.chernarusplus"
const GLOBALS = `${MISSION}/db/globals.xml`
const TYPES = `${MISSION}/db/types.xml`

interface Sim {
  readonly name: string
  readonly id: string
  readonly install: SimInstall
}
interface Item {
  readonly name: string
  readonly nominal: number | null
  readonly min: number | null
  readonly category: string | null
  readonly usage: ReadonlyArray<string>
  readonly value: ReadonlyArray<string>
}

const suite = browserSuite("files-types")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let alpha: Sim
let bravo: Sim

const addSim = async (name: string): Promise<Sim> => {
  const install = await installSim()
  suite.onCleanup(() => install.remove())
  const created = await api("POST", "/api/servers", { name, installDir: install.dir, gamePort: install.gamePort })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return { name, id: (created.body as { id: string }).id, install }
}

const readFile = async (path: string): Promise<{ content: string; etag: string }> => {
  const answer = await api("GET", `/api/servers/${alpha.id}/files/read?path=${encodeURIComponent(path)}`)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body as { content: string; etag: string }
}
const writeFile = async (path: string, content: string) => {
  const answer = await api("PUT", `/api/servers/${alpha.id}/files/write`, { path, content })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}
const items = async (name: string): Promise<ReadonlyArray<Item>> => {
  const answer = await api("GET", `/api/servers/${alpha.id}/types/items?file=${encodeURIComponent(TYPES)}&name=${encodeURIComponent(name)}`)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return (answer.body as { items: ReadonlyArray<Item> }).items
}
const item = async (name: string): Promise<Item | undefined> => (await items(name)).find((i) => i.name === name)

const toast = (page: WatchedPage, text: string | RegExp) => page.page.getByRole("status").filter({ hasText: text }).first().waitFor({ timeout: 20_000 })
const tabLink = (page: WatchedPage, name: string) => page.page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name, exact: true })
const crumbs = (page: WatchedPage) => page.page.getByRole("navigation", { name: "Folder path" })
const entry = (page: WatchedPage, name: string) => page.page.getByRole("table").getByRole("link", { name, exact: true })
const editorText = (page: WatchedPage, file: string) => page.page.getByRole("textbox", { name: `Contents of ${file}` })
const dialog = (page: WatchedPage) => page.page.getByRole("dialog")
/** Typed into the editor at the end of the text (inserted as text, as an IME would: no auto-closed tags). */
const appendInEditor = async (page: WatchedPage, file: string, text: string) => {
  await editorText(page, file).click()
  await page.page.keyboard.press("Control+End")
  await page.page.keyboard.insertText(text)
}
/** The editor box's background colour, read inside its shadow root (code for the page, as text). */
const EDITOR_BACKGROUND = "getComputedStyle(document.querySelector('.code-editor').shadowRoot.querySelector('.cm-editor')).backgroundColor"
const numberField = (page: WatchedPage, label: RegExp) => page.page.getByRole("form").getByRole("spinbutton", { name: label })
/**
 * The page had no problem but the console lines Chromium logs for answers
 * the step expected the API to refuse (`statuses`); those are forgotten.
 */
const expectOnlyRefusals = (page: WatchedPage, statuses: ReadonlyArray<number>) => {
  const problems = page.problems()
  expect({ ...problems, consoleErrors: [] }).toEqual(noProblems)
  for (const line of problems.consoleErrors) expect(line).toMatch(new RegExp(`status of (${statuses.join("|")})`))
  page.clearProblems()
}

beforeAll(async () => {
  baseUrl = (await suite.startControllerWithAdmin()).baseUrl
  api = await signInAdminApi(baseUrl)
  alpha = await addSim("Sim Alpha")
  bravo = await addSim("Sim Bravo")
  // A text file over the editor's 2 MiB.
  writeFileSync(NodePath.join(alpha.install.dir, "profiles", "huge.log"), "a line of a very long log\n".repeat(100_000))

  const editorRole = await api("POST", "/api/roles", {
    name: "alpha-config",
    description: "Configures Sim Alpha; sees Sim Bravo",
    permissions: [
      { permission: "server.view", servers: [alpha.id, bravo.id] },
      { permission: "server.config", servers: [alpha.id] }
    ]
  })
  expect(editorRole.status, JSON.stringify(editorRole.body)).toBe(201)
  const viewerRole = await api("POST", "/api/roles", {
    name: "alpha-viewer",
    description: "Sees Sim Alpha, changes nothing",
    permissions: [{ permission: "server.view", servers: [alpha.id] }]
  })
  expect(viewerRole.status, JSON.stringify(viewerRole.body)).toBe(201)
  for (const [user, role] of [
    [EDITOR, "alpha-config"],
    [VIEWER, "alpha-viewer"]
  ] as const) {
    const created = await api("POST", "/api/users", { ...user, role, mustChangePassword: false })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
  }
  browser = await suite.launchBrowser()
}, 120_000)

describe.sequential("the Files and Types tabs over a real controller and simulated installs", { timeout: 120_000 }, () => {
  it("lists the install folder, filters it by name, and refuses a binary and a too-large file in plain words", async () => {
    admin = await browser.open(`${baseUrl}/servers/${alpha.id}`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, alpha.name)
    // The first load fetched no code editor, and stayed in the budget.
    expect(admin.scriptBytes()).toBeLessThan(300 * 1024)
    await tabLink(admin, "Files").click()
    await entry(admin, "serverDZ.cfg").waitFor({ timeout: 20_000 })
    await entry(admin, "mpmissions/").waitFor()
    await page.getByLabel("Filter by name").fill("CFG")
    await page.getByText(/^1 of \d+ entries$/).waitFor()
    expect(await entry(admin, "ban.txt").count()).toBe(0)
    await entry(admin, "serverDZ.cfg").waitFor()

    await page.getByLabel("Filter by name").fill("")
    await entry(admin, "keys/").click()
    await crumbs(admin).getByText("keys").waitFor()
    expect(new URL(page.url()).searchParams.get("path")).toBe("keys")
    await entry(admin, "dayz.bikey").click()
    const refused = page.getByRole("alert").filter({ hasText: "not text" })
    await refused.waitFor({ timeout: 15_000 })
    expect(await refused.innerText()).toMatch(/binary file/)

    await crumbs(admin).getByRole("link", { name: "Install folder" }).click()
    await entry(admin, "profiles/").click()
    await page.getByText("too large to edit").waitFor()
    await entry(admin, "huge.log").click()
    const tooLarge = page.getByRole("alert").filter({ hasText: "too large" })
    await tooLarge.waitFor({ timeout: 15_000 })
    expect(await tooLarge.innerText()).toMatch(/more than the \d+-byte limit/)
    // None of that loaded the editor: it comes with the first text file opened.
    expect(admin.responses().some((r) => /CodeEditor/.test(r.url))).toBe(false)
    expectOnlyRefusals(admin, [400, 409])
  })

  it("opens BattlEye's config with its password masked; a save there is refused with the API's message as a toast", async () => {
    const page = admin.page
    await crumbs(admin).getByRole("link", { name: "Install folder" }).click()
    await entry(admin, "battleye/").click()
    await entry(admin, "beserver_x64.cfg").click()
    await editorText(admin, "beserver_x64.cfg").waitFor({ timeout: 20_000 })
    expect(admin.responses().some((r) => /CodeEditor/.test(r.url))).toBe(true)
    await page.getByText(/Secrets show as \*{8} \(RConPassword\)/).waitFor()
    expect(await editorText(admin, "beserver_x64.cfg").innerText()).not.toContain(alpha.install.rconPassword)
    await appendInEditor(admin, "beserver_x64.cfg", "\n// a note")
    await page.getByText("Unsaved changes").waitFor()
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await toast(admin, /beserver_x64\.cfg/)
    // Not written: the API answered 403, and the text is still in the editor.
    expect((await readFile("battleye/beserver_x64.cfg")).content).not.toContain("a note")
    expect(await editorText(admin, "beserver_x64.cfg").innerText()).toContain("// a note")
    expectOnlyRefusals(admin, [403])
    // Leaving with unsaved text asks first.
    await crumbs(admin).getByRole("link", { name: "Install folder" }).click()
    await dialog(admin).getByRole("heading", { name: "Leave beserver_x64.cfg without saving?" }).waitFor()
    await dialog(admin).getByRole("button", { name: "Leave without saving" }).click()
    await entry(admin, "serverDZ.cfg").waitFor()
  })

  it("opens db/globals.xml through the folders, searches it with Ctrl-F, and saves an edit the API reads", async () => {
    const page = admin.page
    await entry(admin, "mpmissions/").click()
    await entry(admin, "dayzOffline.chernarusplus/").click()
    await entry(admin, "db/").click()
    await crumbs(admin).getByRole("link", { name: "dayzOffline.chernarusplus" }).waitFor()
    await entry(admin, "globals.xml").click()
    const text = editorText(admin, "globals.xml")
    await text.waitFor({ timeout: 20_000 })
    await page.getByRole("heading", { name: GLOBALS }).waitFor()
    expect(await text.innerText()).toContain("ZombieMaxCount")

    await text.click()
    await page.keyboard.press("Control+f")
    const find = page.getByRole("textbox", { name: "Find", exact: true })
    await find.waitFor()
    await find.fill("ZombieMaxCount")
    await find.press("Enter")
    await page.locator(".cm-searchMatch").first().waitFor()
    await suite.checkAtBothWidths(admin, "file-search", (phone) => editorText(phone, "globals.xml").waitFor({ timeout: 20_000 }))
    await find.press("Escape")
    await find.waitFor({ state: "detached" })

    await appendInEditor(admin, "globals.xml", "\n<!-- tuned by the browser test -->")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await toast(admin, "globals.xml saved")
    expect((await readFile(GLOBALS)).content).toContain("<!-- tuned by the browser test -->")
    expect(await page.getByText("Unsaved changes").count()).toBe(0)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a write through the API since the file was opened is a conflict: the text stays; Overwrite writes it", async () => {
    const page = admin.page
    const before = (await readFile(GLOBALS)).content
    await appendInEditor(admin, "globals.xml", "\n<!-- my second edit -->")
    await writeFile(GLOBALS, `${before}<!-- written elsewhere -->\n`)
    await page.getByRole("button", { name: "Save", exact: true }).click()
    const conflict = page.getByRole("alert").filter({ hasText: "was changed on the server after you opened it" })
    await conflict.waitFor({ timeout: 15_000 })
    expect(await editorText(admin, "globals.xml").innerText()).toContain("my second edit")
    expect((await readFile(GLOBALS)).content).toContain("written elsewhere")
    // In the dark theme (the toggle's choice is kept for the phone page too), the editor is drawn in the app's dark colours.
    await page.getByRole("button", { name: "Switch to dark theme" }).click()
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor()
    expect(await page.evaluate(EDITOR_BACKGROUND)).toBe("rgb(26, 31, 37)")
    await suite.checkAtBothWidths(admin, "file-conflict-dark", (phone) => editorText(phone, "globals.xml").waitFor({ timeout: 20_000 }))
    await page.getByRole("button", { name: "Switch to light theme" }).click()
    expect(await page.evaluate(EDITOR_BACKGROUND)).toBe("rgb(255, 255, 255)")

    await conflict.getByRole("button", { name: "Overwrite with my text" }).click()
    await dialog(admin).getByRole("heading", { name: "Overwrite globals.xml?" }).waitFor()
    await dialog(admin).getByRole("button", { name: "Overwrite" }).click()
    await toast(admin, "globals.xml saved")
    const after = (await readFile(GLOBALS)).content
    expect(after).toContain("my second edit")
    expect(after).not.toContain("written elsewhere")
    await conflict.waitFor({ state: "detached" })
    expectOnlyRefusals(admin, [412])
  })

  it("another conflict, resolved by loading the server's version after a confirmation", async () => {
    const page = admin.page
    const before = (await readFile(GLOBALS)).content
    await appendInEditor(admin, "globals.xml", "\n<!-- my third edit -->")
    await writeFile(GLOBALS, `${before}<!-- theirs again -->\n`)
    await page.getByRole("button", { name: "Save", exact: true }).click()
    const conflict = page.getByRole("alert").filter({ hasText: "was changed on the server after you opened it" })
    await conflict.getByRole("button", { name: "Load the server's version" }).click()
    await dialog(admin).getByRole("heading", { name: "Load the server's globals.xml?" }).waitFor()
    await dialog(admin).getByRole("button", { name: "Load the server's version" }).click()
    await page.getByText("theirs again").waitFor({ timeout: 15_000 })
    expect(await editorText(admin, "globals.xml").innerText()).not.toContain("my third edit")
    expect(await page.getByText("Unsaved changes").count()).toBe(0)
    expectOnlyRefusals(admin, [412])
  })

  it("Types: filters the items, saves AKM's nominal, and refuses a min above nominal under its field", async () => {
    const page = admin.page
    await tabLink(admin, "Types").click()
    const picker = page.getByLabel("Types file")
    await picker.waitFor({ timeout: 20_000 })
    expect(await picker.locator("option").allInnerTexts()).toEqual([expect.stringMatching(/^db\/types\.xml \(\d+ items\)$/), "custom/types_custom.xml (2 items)"])
    await page.getByLabel("Filter by name").fill("akm")
    await page.getByText(/^2 of \d+ items$/).waitFor()
    await page.getByRole("button", { name: "Mag_AKM_30Rnd", exact: true }).waitFor()
    await page.getByRole("button", { name: "AKM", exact: true }).click()
    await page.getByRole("heading", { name: "AKM", exact: true }).waitFor()
    expect(await numberField(admin, /^Nominal/).inputValue()).toBe("8")
    await numberField(admin, /^Nominal/).fill("12")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await toast(admin, "AKM saved")
    expect((await item("AKM"))?.nominal).toBe(12)

    await numberField(admin, /^Min/).fill("20")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("Must not be above nominal (12).").waitFor()
    expect(await numberField(admin, /^Min/).getAttribute("aria-invalid")).toBe("true")
    expect((await item("AKM"))?.min).toBe(4)
    await numberField(admin, /^Min/).fill("4")
    expect(admin.problems()).toEqual(noProblems)
  })

  it("Types: an item changed through the API since its form opened is a conflict; Load theirs shows their values", async () => {
    const page = admin.page
    const changed = await api("PUT", `/api/servers/${alpha.id}/types/save`, {
      file: TYPES,
      items: [{ name: "AKM", nominal: 15, min: 4, lifetime: 28800, restock: 0, quantmin: -1, quantmax: -1, cost: 100, category: "weapons", usage: ["Military"], value: ["Tier3", "Tier4"] }]
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    await numberField(admin, /^Min/).fill("5")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    const conflict = page.getByRole("alert").filter({ hasText: "AKM was changed by someone else after you opened it" })
    await conflict.waitFor({ timeout: 15_000 })
    expect(await conflict.innerText()).toMatch(/nominal/)
    expect((await item("AKM"))?.min).toBe(4)
    await conflict.getByRole("button", { name: "Load theirs (drop mine)" }).click()
    expect(await numberField(admin, /^Nominal/).inputValue()).toBe("15")
    expect(await numberField(admin, /^Min/).inputValue()).toBe("4")
    // The list was read again: its AKM row shows their nominal too.
    const row = page.getByRole("list", { name: "Items" }).getByRole("listitem").filter({ has: page.getByRole("button", { name: "AKM", exact: true }) })
    await row.filter({ hasText: "nominal 15" }).waitFor()
    await suite.checkAtBothWidths(admin, "types", (phone) => phone.page.getByRole("button", { name: "AKM", exact: true }).waitFor({ timeout: 20_000 }))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("Types: adds an item, refuses a duplicate with the choice to save over it, and removes the item after a confirmation", async () => {
    const page = admin.page
    await page.getByRole("button", { name: "Add an item" }).click()
    await page.getByRole("heading", { name: "Add an item" }).waitFor()
    await page.getByLabel("Class name").fill("GarrisonTestLantern")
    await numberField(admin, /^Nominal/).fill("4")
    await numberField(admin, /^Min/).fill("2")
    await page.getByRole("form").getByLabel("Category").fill("tools")
    await page.getByLabel("Usage (comma-separated)").fill("Town, Village")
    await page.getByLabel("Value (tiers, comma-separated)").fill("Tier1")
    await page.getByRole("button", { name: "Add item" }).click()
    await toast(admin, "GarrisonTestLantern added")
    expect(await item("GarrisonTestLantern")).toMatchObject({ nominal: 4, min: 2, category: "tools", usage: ["Town", "Village"], value: ["Tier1"] })
    // The form now edits the new item.
    await page.getByRole("heading", { name: "GarrisonTestLantern" }).waitFor()

    await page.getByRole("button", { name: "Add an item" }).click()
    await page.getByLabel("Class name").fill("AKM")
    await numberField(admin, /^Nominal/).fill("1")
    await numberField(admin, /^Min/).fill("0")
    await page.getByRole("button", { name: "Add item" }).click()
    const duplicate = page.getByRole("alert").filter({ hasText: "already has an item AKM" })
    await duplicate.waitFor({ timeout: 15_000 })
    await duplicate.getByRole("button", { name: "Save my values over it" }).waitFor()
    expect((await item("AKM"))?.nominal).toBe(15)
    await page.getByRole("button", { name: "Close" }).click()

    await page.getByLabel("Filter by name").fill("GarrisonTestLantern")
    await page.getByRole("button", { name: "GarrisonTestLantern", exact: true }).click()
    await page.getByRole("button", { name: "Remove" }).click()
    await dialog(admin).getByRole("heading", { name: "Remove GarrisonTestLantern?" }).waitFor()
    await dialog(admin).getByRole("button", { name: "Cancel" }).click()
    expect(await item("GarrisonTestLantern")).toBeDefined()
    await page.getByRole("button", { name: "Remove" }).click()
    await dialog(admin).getByRole("button", { name: "Remove" }).click()
    await toast(admin, "GarrisonTestLantern removed")
    await page.getByText("No item matches these filters.").waitFor()
    expect(await item("GarrisonTestLantern")).toBeUndefined()
    expectOnlyRefusals(admin, [409])
  })

  it("a moderator with server.config on Sim Alpha only has the tabs there, not on Sim Bravo", async () => {
    const moderator = await browser.open(`${baseUrl}/servers/${alpha.id}/files`, { viewport: "desktop", signIn: EDITOR })
    try {
      await waitForHeading(moderator, alpha.name)
      await tabLink(moderator, "Types").waitFor()
      await entry(moderator, "serverDZ.cfg").click()
      await editorText(moderator, "serverDZ.cfg").waitFor({ timeout: 20_000 })
      await moderator.page.getByRole("button", { name: "Save", exact: true }).waitFor()

      await moderator.page.goto(`${baseUrl}/servers/${bravo.id}`)
      await waitForHeading(moderator, bravo.name)
      expect(await tabLink(moderator, "Files").count()).toBe(0)
      expect(await tabLink(moderator, "Types").count()).toBe(0)
      await moderator.page.goto(`${baseUrl}/servers/${bravo.id}/types`)
      await moderator.page.getByText("No such section, or you may not open it.").waitFor({ timeout: 20_000 })
      expect(moderator.responses().some((r) => r.url.includes(`/api/servers/${bravo.id}/types`))).toBe(false)
      expect(moderator.problems()).toEqual(noProblems)
    } finally {
      await moderator.close()
    }
  })

  it("a read-only moderator has neither tab, and the Files address says she may not open it", async () => {
    const viewer = await browser.open(`${baseUrl}/servers/${alpha.id}`, { viewport: "desktop", signIn: VIEWER })
    try {
      await waitForHeading(viewer, alpha.name)
      await tabLink(viewer, "Overview").waitFor()
      expect(await tabLink(viewer, "Files").count()).toBe(0)
      expect(await tabLink(viewer, "Types").count()).toBe(0)
      await viewer.page.goto(`${baseUrl}/servers/${alpha.id}/files?path=battleye`)
      await viewer.page.getByText("No such section, or you may not open it.").waitFor({ timeout: 20_000 })
      await waitForFirstLoad(viewer)
      expect(await viewer.page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0)
      expect(viewer.responses().some((r) => /\/api\/servers\/[^/]+\/(files|types)/.test(r.url))).toBe(false)
      expect(viewer.problems()).toEqual(noProblems)
    } finally {
      await viewer.close()
    }
  })
})
