/**
 * The Config tab (config plugin) end to end: a real controller (serving the
 * built dashboard) and a simulated server's `serverDZ.cfg`, driven through a
 * real Chromium.
 *
 * An admin opens Config and finds the file's values in the form (a switch
 * checked, the join password's input empty, the file's text read-only, a
 * setting Garrison does not know listed as kept). Changing the
 * server name and the maximum players shows the file's lines the save
 * removes and adds, with text markers; Save sends them with the version the
 * page read (`If-Match`), and the API's file has them, its comments and the
 * unknown setting kept. A join password typed in is shown in neither the
 * diff nor the page afterwards. A write through the API between the read and
 * the save is refused (412): the page says so, nothing is written, what was
 * typed stays, and "Reload and keep my changes" shows what changed meanwhile
 * and saves both. Wrong values (0 or text for the maximum players, a bad
 * start time) are named under their inputs in plain words before anything
 * is sent; a value the API refuses (the request changed on its way) shows
 * the API's own message under its input. Templates: saved under a name, a
 * taken name refused in a toast, restored after a confirmation (what it
 * changed shown, the file before kept as a template), deleted after a
 * confirmation (Cancel first keeps it). A role scoped to one server sees
 * Config on that server only (the other's tab is not there and the API
 * refuses it); the built-in moderator has no Config tab. axe finds no
 * serious violation, at desktop and phone widths
 * (test-artifacts/screenshots/config-*).
 *
 * One test per step, in order, on one controller and one browser page.
 */
import { readFileSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { ADMIN, type AdminApi, browserSuite, createModerator, signInAdminApi } from "./support.js"

const SCOPED = { username: "config-keeper", password: "a long config keeper passphrase" }
const MODERATOR = { username: "day-moderator", password: "a long day moderator passphrase" }
const UNKNOWN_LINE = "adminLogPlayerHitsOnly = 1;  // not a setting Garrison knows"
const JOIN_PASSWORD = "hunter2-Zq8v0w7y"

interface ConfigAnswer {
  readonly file: string
  readonly fields: Readonly<Record<string, unknown>>
  readonly unknown: ReadonlyArray<{ readonly key: string; readonly value: string; readonly line: number }>
  readonly text: string
  readonly etag: string
}

const suite = browserSuite("config")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let serverId: string
let otherId: string

const readConfig = async (id = serverId): Promise<ConfigAnswer> => {
  const answer = await api("GET", `/api/servers/${id}/config`)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body as ConfigAnswer
}
const templates = async (): Promise<ReadonlyArray<{ id: string; name: string }>> =>
  ((await api("GET", `/api/servers/${serverId}/config/templates`)).body as { items: ReadonlyArray<{ id: string; name: string }> }).items

const toast = (page: WatchedPage, text: string | RegExp) => page.page.getByRole("status").getByText(text).first().waitFor({ timeout: 15_000 })
const settings = (page: WatchedPage) => page.page.getByRole("form", { name: "Settings" })
const field = (page: WatchedPage, label: string) => settings(page).getByLabel(label, { exact: true })
const review = (page: WatchedPage) => page.page.getByRole("region", { name: "Review the changes" })
/** The problem shown under a setting's input (the element its aria-describedby names last). */
const problemOf = async (page: WatchedPage, label: string) => {
  const ids = ((await field(page, label).getAttribute("aria-describedby")) ?? "").split(" ")
  const id = ids.find((i) => i.endsWith("-problem"))
  return id === undefined ? undefined : (await page.page.locator(`#${id}`).textContent())?.trim()
}
const openConfig = async (page: WatchedPage) => {
  await page.page.getByRole("navigation", { name: "Server sections" }).getByRole("link", { name: "Config" }).click()
  await settings(page).waitFor({ timeout: 20_000 })
  await waitForFirstLoad(page)
}
const patchesSent = (page: WatchedPage) => page.responses().filter((r) => r.url.endsWith(`/api/servers/${serverId}/config`) && r.status !== 200 && r.status !== 304).length

beforeAll(async () => {
  baseUrl = (await suite.startControllerWithAdmin()).baseUrl
  api = await signInAdminApi(baseUrl)
  serverId = await suite.addSimServer(api, "Sim Config")
  otherId = await suite.addSimServer(api, "Sim Elsewhere")
  // A setting Garrison does not know: listed, and kept as it is through every save.
  const entry = (await api("GET", `/api/servers/${serverId}`)).body as { installDir: string; configFile: string }
  const path = NodePath.join(entry.installDir, entry.configFile)
  writeFileSync(path, `${UNKNOWN_LINE}\n${readFileSync(path, "utf8")}`)
  const role = await api("POST", "/api/roles", {
    name: "config-one-server",
    description: "Configures Sim Config, sees Sim Elsewhere",
    permissions: [
      { permission: "server.view", servers: [serverId, otherId] },
      { permission: "server.config", servers: [serverId] }
    ]
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const user = await api("POST", "/api/users", { ...SCOPED, role: "config-one-server", mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  await createModerator(api, MODERATOR)
  browser = await suite.launchBrowser()
}, 120_000)

describe.sequential("the Config tab over a real controller", { timeout: 120_000 }, () => {
  it("an admin opens Config and finds the file's values, its text, and the setting Garrison does not know", async () => {
    const file = await readConfig()
    admin = await browser.open(`${baseUrl}/servers/${serverId}`, { viewport: "desktop", signIn: ADMIN })
    await waitForHeading(admin, "Sim Config")
    await openConfig(admin)
    expect(admin.page.url()).toBe(`${baseUrl}/servers/${serverId}/config`)
    expect(await field(admin, "Server name").inputValue()).toBe(file.fields["hostname"])
    expect(await field(admin, "Maximum players").inputValue()).toBe(String(file.fields["maxPlayers"]))
    expect(await field(admin, "Start time").inputValue()).toBe("SystemTime")
    expect(await field(admin, "Mission").inputValue()).toBe(file.fields["template"])
    expect(await field(admin, "No personal light").isChecked()).toBe(true)
    expect(await field(admin, "Only whitelisted players may join").isChecked()).toBe(false)
    const password = field(admin, "Join password")
    expect(await password.getAttribute("type")).toBe("password")
    expect(await password.inputValue()).toBe("")
    // The key as the file spells it, and the contract's range, in words.
    expect(await admin.page.locator(`#${await field(admin, "Maximum players").getAttribute("id")}-hint`).textContent()).toBe(
      "maxPlayers · A whole number from 1 to 127."
    )
    // The text, read-only; the unknown setting listed.
    const text = admin.page.getByRole("textbox", { name: "serverDZ.cfg as it is on the server (passwords hidden)" })
    expect(await text.inputValue()).toBe(file.text)
    expect(await text.isEditable()).toBe(false)
    const unknown = admin.page.getByRole("table", { name: "Other settings in the file, kept as they are" })
    expect(await unknown.getByRole("row", { name: /adminLogPlayerHitsOnly 1 1/ }).count()).toBe(1)
    expect(await admin.page.getByText("No changes.").count()).toBe(1)
    // The text itself is edited in the Files tab's editor, one link away.
    const toEditor = admin.page.getByRole("link", { name: "open serverDZ.cfg in the Files tab's editor" })
    expect(await toEditor.getAttribute("href")).toBe(`/servers/${serverId}/files?file=serverDZ.cfg`)
    await suite.checkAtBothWidths(admin, "form", (phone) => settings(phone).waitFor({ timeout: 20_000 }))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("changes the server name and the maximum players: the diff first, then a save with If-Match the API shows", async () => {
    const before = await readConfig()
    const oldName = String(before.fields["hostname"])
    const oldMax = String(before.fields["maxPlayers"])
    await field(admin, "Server name").fill("Config Test | PvE")
    await field(admin, "Maximum players").fill("42")
    await admin.page.getByText("2 settings changed.").waitFor()
    await admin.page.getByRole("button", { name: "Review changes" }).click()
    const panel = review(admin)
    await panel.waitFor()
    await panel.getByText("2 settings change: Server name (hostname), Maximum players (maxPlayers).").waitFor()
    const diff = panel.getByRole("group", { name: "Changes to serverDZ.cfg" })
    // Lines with text markers: removed and added, the rest folded.
    expect(await diff.locator("del").allTextContents()).toEqual([`− Removed: hostname = "${oldName}";  // Server name`, expect.stringMatching(new RegExp(`^− Removed: maxPlayers = ${oldMax};`))])
    expect(await diff.locator("ins").allTextContents()).toEqual(['+ Added: hostname = "Config Test | PvE";  // Server name', expect.stringMatching(/^\+ Added: maxPlayers = 42;/)])
    await panel.getByText("Changes to serverDZ.cfg: 2 lines removed (−), 2 added (+)").waitFor()
    await suite.checkAtBothWidths(admin, "review", (phone) => settings(phone).waitFor({ timeout: 20_000 }))

    const patch = admin.page.waitForRequest((r) => r.method() === "PATCH" && r.url().endsWith(`/api/servers/${serverId}/config`))
    await panel.getByRole("button", { name: "Save to serverDZ.cfg" }).click()
    const sent = await patch
    expect(sent.headers()["if-match"]).toBe(before.etag)
    expect(sent.postDataJSON()).toEqual({ hostname: "Config Test | PvE", maxPlayers: 42 })
    await toast(admin, "serverDZ.cfg saved")
    await review(admin).waitFor({ state: "detached" })
    await admin.page.getByText("No changes.").waitFor()

    const after = await readConfig()
    expect(after.fields).toMatchObject({ hostname: "Config Test | PvE", maxPlayers: 42 })
    expect(after.etag).not.toBe(before.etag)
    // Only those values changed: comments, the unknown setting and the rest stay.
    expect(after.text).toBe(before.text.replace(`"${oldName}"`, '"Config Test | PvE"').replace(`maxPlayers = ${oldMax};`, "maxPlayers = 42;"))
    expect(after.text.startsWith(UNKNOWN_LINE)).toBe(true)
    expect(await field(admin, "Server name").inputValue()).toBe("Config Test | PvE")
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a join password typed in goes to the file but is shown in neither the diff nor the page", async () => {
    await field(admin, "Join password").fill(JOIN_PASSWORD)
    await admin.page.getByRole("button", { name: "Review changes" }).click()
    const diff = review(admin).getByRole("group", { name: "Changes to serverDZ.cfg" })
    expect(await diff.locator("ins").allTextContents()).toEqual([expect.stringMatching(/^\+ Added: password = "\(a new password\)";/)])
    expect(await review(admin).innerText()).not.toContain(JOIN_PASSWORD)
    // The answer to this save, not the toast: the last step's "saved" toast may still be showing.
    const saved = admin.page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(`/api/servers/${serverId}/config`))
    await review(admin).getByRole("button", { name: "Save to serverDZ.cfg" }).click()
    expect((await saved).status()).toBe(200)
    await toast(admin, "serverDZ.cfg saved")
    expect((await readConfig()).fields["password"]).toBe("********")
    expect(await field(admin, "Join password").inputValue()).toBe("")
    await admin.page.getByText("Set (never shown). Leave empty to keep it, or type a new one.").first().waitFor()
    expect(await admin.page.locator("body").innerText()).not.toContain(JOIN_PASSWORD)
    expect(await admin.page.content()).not.toContain(JOIN_PASSWORD)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a write through the API between the read and the save: 412 said plainly, nothing lost, reload keeps the change", async () => {
    await field(admin, "Server name").fill("Mine | typed in the page")
    // Someone else changes the file meanwhile.
    const theirs = await api("PATCH", `/api/servers/${serverId}/config`, { maxPlayers: 50 })
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200)
    await admin.page.getByRole("button", { name: "Review changes" }).click()
    await review(admin).getByRole("button", { name: "Save to serverDZ.cfg" }).click()
    const conflict = admin.page.getByRole("alert").filter({ hasText: "Not saved: someone else changed serverDZ.cfg" })
    await conflict.waitFor({ timeout: 15_000 })
    await conflict.getByText("Your changes are still in the form.").waitFor()
    expect(admin.responses().some((r) => r.url.endsWith(`/api/servers/${serverId}/config`) && r.status === 412)).toBe(true)
    // Nothing was written over their change, and what was typed is still there.
    expect((await readConfig()).fields).toMatchObject({ hostname: "Config Test | PvE", maxPlayers: 50 })
    expect(await field(admin, "Server name").inputValue()).toBe("Mine | typed in the page")
    await suite.checkAtBothWidths(admin, "conflict", (phone) => settings(phone).waitFor({ timeout: 20_000 }))
    expect(admin.problems().consoleErrors.length).toBeGreaterThan(0)
    expect(admin.problems().consoleErrors.every((line) => line.includes("412"))).toBe(true)
    admin.clearProblems()

    await conflict.getByRole("button", { name: "Reload and keep my changes" }).click()
    const panel = review(admin)
    await panel.waitFor({ timeout: 15_000 })
    const meanwhile = panel.getByRole("group", { name: "Changed on the server meanwhile" })
    expect(await meanwhile.locator("ins").allTextContents()).toEqual([expect.stringMatching(/^\+ Added: maxPlayers = 50;/)])
    expect(await field(admin, "Maximum players").inputValue()).toBe("50")
    expect(await field(admin, "Server name").inputValue()).toBe("Mine | typed in the page")
    await panel.getByText("One setting changes: Server name (hostname).").waitFor()
    await panel.getByRole("button", { name: "Save to serverDZ.cfg" }).click()
    await toast(admin, "serverDZ.cfg saved")
    expect((await readConfig()).fields).toMatchObject({ hostname: "Mine | typed in the page", maxPlayers: 50 })
    expect(await conflict.count()).toBe(0)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("wrong values are named under their inputs in plain words before anything is sent; the API's own refusal too", async () => {
    const sentBefore = patchesSent(admin)
    await field(admin, "Maximum players").fill("0")
    await field(admin, "Start time").fill("noon")
    await admin.page.getByRole("button", { name: "Review changes" }).click()
    await expect.poll(() => problemOf(admin, "Maximum players")).toBe("must be a whole number from 1 to 127")
    expect(await problemOf(admin, "Start time")).toBe("must be SystemTime or YYYY/MM/DD/HH/MM")
    expect(await field(admin, "Maximum players").getAttribute("aria-invalid")).toBe("true")
    const summary = admin.page.getByRole("alert").filter({ hasText: "2 settings need another value before saving" })
    await summary.waitFor()
    // Focus went to the first one.
    expect(await admin.page.evaluate("document.activeElement?.id")).toBe(await field(admin, "Maximum players").getAttribute("id"))
    await field(admin, "Maximum players").fill("many")
    await expect.poll(() => problemOf(admin, "Maximum players")).toBe("must be a number")
    expect(await review(admin).count()).toBe(0)
    await suite.checkAtBothWidths(admin, "refused", (phone) => settings(phone).waitFor({ timeout: 20_000 }))
    expect(patchesSent(admin)).toBe(sentBefore)
    // Nothing in the schema library's words.
    expect(await settings(admin).innerText()).not.toMatch(/Expected|Refinement|actual/)

    // The API checks too: a value changed on its way is refused (400), its message under the input it names.
    await field(admin, "Start time").fill("SystemTime")
    await field(admin, "Maximum players").fill("64")
    await admin.page.route(`**/api/servers/${serverId}/config`, (route) =>
      route.request().method() === "PATCH" ? route.continue({ postData: JSON.stringify({ maxPlayers: 500 }) }) : route.continue()
    )
    await admin.page.getByRole("button", { name: "Review changes" }).click()
    await review(admin).getByRole("button", { name: "Save to serverDZ.cfg" }).click()
    await expect.poll(() => problemOf(admin, "Maximum players"), { timeout: 15_000 }).toBe("must be a whole number from 1 to 127")
    await admin.page.unroute(`**/api/servers/${serverId}/config`)
    expect(admin.responses().filter((r) => r.url.endsWith(`/api/servers/${serverId}/config`)).at(-1)?.status).toBe(400)
    expect((await readConfig()).fields["maxPlayers"]).toBe(50)
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()
    // Editing the input clears the API's message; Discard returns to the file.
    await field(admin, "Maximum players").fill("65")
    expect(await problemOf(admin, "Maximum players")).toBeUndefined()
    await admin.page.getByRole("button", { name: "Discard changes" }).click()
    expect(await field(admin, "Maximum players").inputValue()).toBe("50")
    await admin.page.getByText("No changes.").waitFor()
    expect(admin.problems()).toEqual(noProblems)
  })

  it("templates: saved under a name (a taken one refused in a toast), restored after a confirmation, deleted after one", async () => {
    const page = admin.page
    const form = page.getByRole("form", { name: "Save as template" })
    await form.getByLabel("Template name").fill("weekend event")
    await form.getByRole("button", { name: "Save as template" }).click()
    await toast(admin, 'Template "weekend event" saved')
    const list = page.getByRole("table", { name: "Templates of this server, newest first" })
    await list.getByRole("cell", { name: "weekend event", exact: true }).waitFor()
    expect((await templates()).map((t) => t.name)).toEqual(["weekend event"])
    // A taken name: the API's message as a toast.
    await form.getByLabel("Template name").fill("weekend event")
    await form.getByRole("button", { name: "Save as template" }).click()
    await page.getByRole("alert").filter({ hasText: /weekend event/ }).first().waitFor({ timeout: 15_000 })
    expect(admin.responses().some((r) => r.url.endsWith(`/api/servers/${serverId}/config/templates`) && r.status === 409)).toBe(true)
    expect((await templates()).length).toBe(1)
    admin.clearProblems()
    // An empty name is named under the input, in words.
    await form.getByLabel("Template name").fill("   ")
    await form.getByRole("button", { name: "Save as template" }).click()
    await form.getByText("The name must not be empty.").waitFor()

    // The file changes; restoring the template brings it back.
    expect((await api("PATCH", `/api/servers/${serverId}/config`, { hostname: "Changed after the template" })).status).toBe(200)
    await page.reload()
    await settings(admin).waitFor({ timeout: 20_000 })
    expect(await field(admin, "Server name").inputValue()).toBe("Changed after the template")
    await list.getByRole("button", { name: "Restore weekend event" }).click()
    const dialog = page.getByRole("dialog", { name: 'Restore "weekend event"?' })
    await dialog.getByText("The file as it is now is saved as a template first, so this can be undone.").waitFor()
    await dialog.getByRole("button", { name: "Restore" }).click()
    await toast(admin, /^Template "weekend event" restored\. The file as it was is saved as "before restoring "weekend event" at /)
    const restored = page.getByRole("region", { name: 'What restoring "weekend event" changed' })
    await restored.waitFor()
    expect(await restored.locator("del").allTextContents()).toEqual([expect.stringContaining('hostname = "Changed after the template";')])
    expect(await restored.locator("ins").allTextContents()).toEqual([expect.stringContaining('hostname = "Mine | typed in the page";')])
    expect(await field(admin, "Server name").inputValue()).toBe("Mine | typed in the page")
    expect((await readConfig()).fields["hostname"]).toBe("Mine | typed in the page")
    // The password came back with the template (sealed, never shown).
    expect((await readConfig()).fields["password"]).toBe("********")
    const names = (await templates()).map((t) => t.name)
    expect(names).toHaveLength(2)
    const undo = names.find((name) => name.startsWith('before restoring "weekend event" at '))!
    await list.getByRole("cell", { name: undo, exact: true }).waitFor()
    await suite.checkAtBothWidths(admin, "templates", (phone) => phone.page.getByRole("table", { name: "Templates of this server, newest first" }).waitFor({ timeout: 20_000 }))

    // Delete: Cancel keeps it; Delete removes it.
    await list.getByRole("button", { name: `Delete ${undo}` }).click()
    const confirm = page.getByRole("dialog", { name: `Delete "${undo}"?` })
    await confirm.getByRole("button", { name: "Cancel" }).click()
    expect((await templates()).length).toBe(2)
    await list.getByRole("button", { name: `Delete ${undo}` }).click()
    await confirm.getByRole("button", { name: "Delete" }).click()
    await toast(admin, `Template "${undo}" deleted`)
    await list.getByRole("cell", { name: undo, exact: true }).waitFor({ state: "detached" })
    expect((await templates()).map((t) => t.name)).toEqual(["weekend event"])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a role scoped to one server configures that one only; the moderator has no Config tab", async () => {
    const scoped = await browser.open(`${baseUrl}/servers/${serverId}`, { viewport: "desktop", signIn: SCOPED })
    try {
      await waitForHeading(scoped, "Sim Config")
      await openConfig(scoped)
      expect(await field(scoped, "Server name").inputValue()).toBe("Mine | typed in the page")
      expect(await field(scoped, "Server name").isDisabled()).toBe(false)
      expect(await scoped.page.getByRole("button", { name: "Review changes" }).count()).toBe(1)
      // The other server: no Config tab, the section refused, the API never asked.
      await scoped.page.goto(`${baseUrl}/servers/${otherId}`)
      await waitForHeading(scoped, "Sim Elsewhere")
      const tabs = scoped.page.getByRole("navigation", { name: "Server sections" })
      await tabs.getByRole("link", { name: "Overview" }).waitFor()
      expect(await tabs.getByRole("link", { name: "Config" }).count()).toBe(0)
      await scoped.page.goto(`${baseUrl}/servers/${otherId}/config`)
      await scoped.page.getByText("No such section, or you may not open it.").waitFor({ timeout: 15_000 })
      expect(scoped.responses().filter((r) => r.url.includes(`/api/servers/${otherId}/config`))).toEqual([])
      expect((await scoped.context.request.get(`${baseUrl}/api/servers/${otherId}/config`)).status()).toBe(403)
      expect(await scoped.seriousAccessibilityViolations()).toEqual([])
      expect(scoped.problems()).toEqual(noProblems)
    } finally {
      await scoped.close()
    }

    const moderator = await browser.open(`${baseUrl}/servers/${serverId}`, { viewport: "desktop", signIn: MODERATOR })
    try {
      await waitForHeading(moderator, "Sim Config")
      const tabs = moderator.page.getByRole("navigation", { name: "Server sections" })
      await tabs.getByRole("link", { name: "Players" }).waitFor({ timeout: 15_000 })
      expect(await tabs.getByRole("link", { name: "Config" }).count()).toBe(0)
      expect((await moderator.context.request.get(`${baseUrl}/api/servers/${serverId}/config`)).status()).toBe(403)
      expect(moderator.problems()).toEqual(noProblems)
    } finally {
      await moderator.close()
    }
  })
})
