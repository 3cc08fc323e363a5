/**
 * The chat bot's page end to end: real controllers (serving the built
 * dashboard; the chat plugin is one of the default plugins) driven
 * through a real Chromium.
 *
 * An admin sees every section: the action table (the API's actions, with
 * their permission, kind and cooldown), the chat user roles and the bot
 * key. The form's role picker offers the roles the list answer says the
 * caller may give (every role for an admin); the admin gives a chat user
 * the moderator role through it (listed) and removes it after a
 * confirmation; a role deleted since the form read the roles is refused
 * with the API's 400 message and no longer offered. The bot key shows its
 * hint; "Show key" shows a `gcb_` key once (the button is gone after, and
 * the API answers 409), and that key runs a bot call; Rotate, after a
 * confirmation, shows a different key, and the old one stops working. A
 * moderator sees the action table only; a user holding `users.manage`
 * without `admin` is offered only the roles whose every grant they hold
 * (`chat-bot`, not `moderator` or `admin`) and maps a chat user to
 * `chat-bot`; an id of dots alone is refused by the form. On a
 * controller with `CHAT_BOT_API_KEY` the key is said to come from there,
 * with nothing to show or rotate, and unsigned calls are said to be
 * refused (`CHAT_REQUIRE_SIGNATURE`). axe finds no serious violation on the
 * pages, each left as a screenshot at desktop and phone widths
 * (test-artifacts/screenshots/chat-*).
 *
 * One test per step, in order, on one browser.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { type ControllerHandle, requestJson } from "../support/controller.js"
import { handoff } from "../support/fleet.js"
import { ADMIN, type AdminApi, browserSuite, createModerator, signInAdminApi } from "./support.js"

const MODERATOR = { username: "mod-chat", password: "a long moderator passphrase" }
const MANAGER = { username: "chat-manager", password: "a long manager passphrase" }
const MANAGER_ROLE = "chat-role-manager"
/** A role the admin's form reads, deleted before the form is sent. */
const STALE_ROLE = "chat-stale"
const CHAT_USER = "123456789012345678"
const CHAT_TAG = "survivor#0001"
/** A Matrix-style id: `@` and `:` in the path. */
const MATRIX_USER = "@survivor:example.org"
const ENV_KEY = "gcb_set-by-the-environment-0123456789abcdef"

interface ChatAction {
  readonly name: string
  readonly permission: string
  readonly kind: string
  readonly cooldownSeconds: number
  readonly needsServer: boolean
}
interface Mapping {
  readonly chatUserId: string
  readonly role: string
  readonly chatUserTag: string | null
  readonly updatedBy: string | null
}
/** An input's constraint validation, as the page sees it (no DOM library here). */
interface Validated {
  readonly validity: { readonly valid: boolean; readonly patternMismatch: boolean }
}
interface KeyStatus {
  readonly source: string
  readonly hint: string
  readonly revealedAt: string | null
}

const suite = browserSuite("chat")
let controller: ControllerHandle
let fromEnvironment: ControllerHandle
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let staleRoleId: string

const mappings = async () => ((await api("GET", "/api/chat/user-roles")).body as { items: ReadonlyArray<Mapping> }).items
const keyStatus = async () => (await api("GET", "/api/chat/bot-key")).body as KeyStatus
const hintOf = (key: string) => `${key.slice(0, 4)}…${key.slice(-4)}`
let botCalls = 0
/** An unsigned bot call (run as unverified) with `key` as the bearer, each by another chat user (no cooldown in the way): its status. */
const botCall = async (key: string) =>
  (
    await requestJson(controller.baseUrl, "POST", "/api/chat/action", {
      headers: { authorization: `Bearer ${key}` },
      body: { action: "servers", chatUserId: `bot-check-${++botCalls}` }
    })
  ).status

beforeAll(async () => {
  // The page's reads count against the `chat` scope (60 a minute per IP) like the bot's calls: every call here comes from loopback.
  controller = await suite.startControllerWithAdmin({ RATE_LIMIT_CHAT: "off" })
  fromEnvironment = await suite.startControllerWithAdmin({ CHAT_BOT_API_KEY: ENV_KEY, CHAT_REQUIRE_SIGNATURE: "true" })
  api = await signInAdminApi(controller.baseUrl)
  await createModerator(api, MODERATOR)
  // Someone who may map chat users without being an admin (so without GET /api/roles), holding chat-bot's grants but not moderator's.
  const managerRole = await api("POST", "/api/roles", {
    name: MANAGER_ROLE,
    description: "Maps chat users to roles",
    permissions: ["users.manage", "server.view", "players.view"]
  })
  expect(managerRole.status, JSON.stringify(managerRole.body)).toBe(201)
  const manager = await api("POST", "/api/users", { ...MANAGER, role: MANAGER_ROLE, mustChangePassword: false })
  expect(manager.status, JSON.stringify(manager.body)).toBe(201)
  const stale = await api("POST", "/api/roles", { name: STALE_ROLE, description: "Deleted while the form is open", permissions: ["server.view"] })
  expect(stale.status, JSON.stringify(stale.body)).toBe(201)
  staleRoleId = (stale.body as { id: string }).id
  browser = await suite.launchBrowser()
}, 90_000)

const firstKey = handoff<string>("Show key shows the generated key once")

const actionsTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Chat-bot actions" })
const rolesTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Chat user roles" })
const roleForm = (page: WatchedPage) => page.page.getByRole("form", { name: "Set a chat user's role" })
const keyCard = (page: WatchedPage) => page.page.getByRole("region", { name: "Bot key" })
const keyPanel = (page: WatchedPage) => page.page.getByRole("region", { name: "The bot key, shown once" })

describe.sequential("the chat bot page over a real controller", { timeout: 90_000 }, () => {
  it("an admin sees the bot key, the chat user roles and the action table: every action with its permission, kind and cooldown", async () => {
    admin = await browser.open(`${controller.baseUrl}/chat`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Chat bot")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat bot" }).waitFor()
    await waitForHeading(admin, "Bot key", 2)
    await waitForHeading(admin, "Chat user roles", 2)
    await waitForHeading(admin, "Actions", 2)

    const actions = ((await api("GET", "/api/chat/actions")).body as { items: ReadonlyArray<ChatAction> }).items
    expect(actions).toHaveLength(34)
    const table = actionsTable(admin)
    await table.waitFor({ timeout: 15_000 })
    expect(await table.locator("tbody tr td:first-child code").allTextContents()).toEqual(actions.map((a) => a.name))
    for (const name of ["status", "kick", "restart"]) {
      const action = actions.find((a) => a.name === name)!
      const row = table.getByRole("row").filter({ has: page.getByText(name, { exact: true }) })
      await row.getByRole("cell", { name: action.permission, exact: true }).waitFor()
      await row.getByRole("cell", { name: action.kind, exact: true }).waitFor()
      await row.getByRole("cell", { name: `${action.cooldownSeconds} s`, exact: true }).waitFor()
    }
    expect(actions.find((a) => a.name === "restart")).toMatchObject({ kind: "power", cooldownSeconds: 30 })
    await table.getByRole("row").filter({ has: page.getByText("servers", { exact: true }) }).getByText("every server the role may see").waitFor()

    await page.getByText("No chat user has a role of their own.").waitFor()
    await page.getByText(/every other chat user acts with chat-bot/).waitFor()
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "admin", async (p) => {
      await waitForHeading(p, "Chat bot")
      await actionsTable(p).waitFor({ timeout: 15_000 })
      await keyCard(p).getByText("generated by Garrison").waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the admin gives a chat user the moderator role through the form: listed; then removes it after a confirmation", async () => {
    const page = admin.page
    const form = roleForm(admin)
    const role = form.getByRole("combobox", { name: "Role" })
    // The roles come from the list answer's assignableRoles: every role for an admin.
    await role.locator('option[value="moderator"]').waitFor({ state: "attached", timeout: 15_000 })
    const offered = await role.locator("option").evaluateAll((options) => options.map((o) => o.getAttribute("value")))
    expect(offered[0]).toBe("")
    expect(offered).toEqual(expect.arrayContaining(["admin", "moderator", "chat-bot", MANAGER_ROLE, STALE_ROLE]))
    expect(admin.responses().filter((r) => r.url.includes("/api/roles"))).toEqual([])
    await form.getByLabel("Chat user id").fill(CHAT_USER)
    await role.selectOption("moderator")
    await form.getByLabel("Tag (optional)").fill(CHAT_TAG)
    await form.getByRole("button", { name: "Set role" }).click()
    await page.getByRole("status").getByText("Chat user role set").waitFor({ timeout: 15_000 })

    const row = rolesTable(admin).getByRole("row").filter({ hasText: CHAT_USER })
    await row.getByRole("cell", { name: "moderator", exact: true }).waitFor({ timeout: 15_000 })
    await row.getByText(CHAT_TAG).waitFor()
    await row.getByText("by admin").waitFor()
    expect(await form.getByLabel("Chat user id").inputValue()).toBe("")
    expect(await mappings()).toMatchObject([{ chatUserId: CHAT_USER, role: "moderator", chatUserTag: CHAT_TAG, updatedBy: "admin" }])
    await suite.checkAtBothWidths(admin, "mapped", (p) => rolesTable(p).getByRole("row").filter({ hasText: CHAT_USER }).waitFor({ timeout: 15_000 }))

    await row.getByRole("button", { name: `Remove the role of ${CHAT_USER}` }).click()
    const dialog = page.getByRole("dialog", { name: `Remove the role of ${CHAT_TAG}?` })
    await dialog.getByText("They act with chat-bot from now on.").waitFor()
    await dialog.getByRole("button", { name: "Remove" }).click()
    await page.getByRole("status").getByText("Chat user role removed").waitFor({ timeout: 15_000 })
    await page.getByText("No chat user has a role of their own.").waitFor()
    expect(await mappings()).toEqual([])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a role deleted since the form read the roles is refused: the API's 400 message shown, and the role no longer offered", async () => {
    const page = admin.page
    const form = roleForm(admin)
    const role = form.getByRole("combobox", { name: "Role" })
    await form.getByLabel("Chat user id").fill(CHAT_USER)
    await role.selectOption(STALE_ROLE)
    const removed = await api("DELETE", `/api/roles/${staleRoleId}`)
    expect(removed.status, JSON.stringify(removed.body)).toBe(204)
    await form.getByRole("button", { name: "Set role" }).click()
    await page.getByRole("alert").getByText(`role: no role named "${STALE_ROLE}"`).waitFor({ timeout: 15_000 })
    expect(admin.responses().filter((r) => r.url.endsWith(`/api/chat/user-roles/${CHAT_USER}`)).at(-1)?.status).toBe(400)
    await role.locator(`option[value="${STALE_ROLE}"]`).waitFor({ state: "detached", timeout: 15_000 })
    // The stale pick is gone with its option: nothing is chosen.
    expect(await role.inputValue()).toBe("")
    // What was typed stays, to be sent again with another role.
    expect(await form.getByLabel("Chat user id").inputValue()).toBe(CHAT_USER)
    expect(await mappings()).toEqual([])
    // The one expected error: the refused save.
    expect(admin.problems().consoleErrors.length).toBeGreaterThan(0)
    expect(admin.problems().consoleErrors.every((line) => line.includes("400"))).toBe(true)
    admin.clearProblems()
  })

  it("the bot key shows its hint; Show key shows the generated key once, and it runs a bot call", async () => {
    const page = admin.page
    const card = keyCard(admin)
    const before = await keyStatus()
    expect(before).toMatchObject({ source: "generated", revealedAt: null })
    await card.getByText(before.hint, { exact: true }).waitFor()
    await card.getByText("not yet: it can be shown once").waitFor()
    await card.getByText(/^accepted, run as unverified/).waitFor()

    await card.getByRole("button", { name: "Show key" }).click()
    const panel = keyPanel(admin)
    await panel.waitFor({ timeout: 15_000 })
    await panel.getByText("you will not see it again", { exact: false }).waitFor()
    const key = await panel.getByLabel("Key").inputValue()
    expect(key).toMatch(/^gcb_/)
    expect(hintOf(key)).toBe(before.hint)
    // Once: the button is gone, and the API refuses a second showing.
    await card.getByRole("button", { name: "Show key" }).waitFor({ state: "detached", timeout: 15_000 })
    expect(await card.getByText("not yet: it can be shown once").count()).toBe(0)
    const again = await api("POST", "/api/chat/bot-key/reveal")
    expect(again.status).toBe(409)
    expect((again.body as { message: string }).message).toMatch(/rotate it to get a new one/)
    expect((await keyStatus()).revealedAt).not.toBeNull()
    // The key is the bot's.
    expect(await botCall(key)).toBe(200)

    await panel.getByRole("button", { name: "Done, I have copied it" }).click()
    await panel.waitFor({ state: "detached" })
    expect(await page.content()).not.toContain(key)
    firstKey.set(key)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("Rotate, after a confirmation, shows a different key once; the old one stops working", async () => {
    const page = admin.page
    const card = keyCard(admin)
    await card.getByRole("button", { name: "Rotate" }).click()
    const dialog = page.getByRole("dialog", { name: "Rotate the bot key?" })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Rotate" }).click()
    await page.getByRole("status").getByText("New bot key made").waitFor({ timeout: 15_000 })
    const panel = keyPanel(admin)
    await panel.waitFor({ timeout: 15_000 })
    const rotated = await panel.getByLabel("Key").inputValue()
    expect(rotated).toMatch(/^gcb_/)
    expect(rotated).not.toBe(firstKey.get())
    // The card shows the new key's hint, made by the admin; still nothing to show again.
    await card.getByText(hintOf(rotated), { exact: true }).waitFor({ timeout: 15_000 })
    await card.getByText(/ by admin$/).waitFor()
    expect(await card.getByRole("button", { name: "Show key" }).count()).toBe(0)
    expect((await keyStatus()).hint).toBe(hintOf(rotated))
    expect(await botCall(firstKey.get())).toBe(403)
    expect(await botCall(rotated)).toBe(200)

    await suite.checkAtBothWidths(admin, "rotated", (p) => keyCard(p).getByRole("button", { name: "Rotate" }).waitFor({ timeout: 15_000 }))
    await panel.getByRole("button", { name: "Done, I have copied it" }).click()
    await panel.waitFor({ state: "detached" })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a moderator sees the action table only: no bot key, no chat user roles", async () => {
    const moderator = await browser.open(`${controller.baseUrl}/servers`, { viewport: "desktop", signIn: MODERATOR })
    try {
      const page = moderator.page
      await waitForHeading(moderator, "Servers")
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat bot" }).click()
      await waitForHeading(moderator, "Chat bot")
      await actionsTable(moderator).getByRole("row").filter({ has: page.getByText("status", { exact: true }) }).waitFor({ timeout: 15_000 })
      await waitForFirstLoad(moderator)
      expect(await keyCard(moderator).count()).toBe(0)
      expect(await page.getByRole("heading", { name: "Chat user roles" }).count()).toBe(0)
      expect(await roleForm(moderator).count()).toBe(0)
      // Nothing it may not read was asked for.
      expect(moderator.responses().filter((r) => r.status >= 400)).toEqual([])
      expect(await moderator.seriousAccessibilityViolations()).toEqual([])
      await moderator.screenshot("chat-moderator")
      expect(moderator.problems()).toEqual(noProblems)
    } finally {
      await moderator.close()
    }
  })

  it("a user holding users.manage without admin is offered only the roles they may give, and maps a chat user to chat-bot", async () => {
    const manager = await browser.open(`${controller.baseUrl}/chat`, { viewport: "desktop", signIn: MANAGER })
    try {
      const page = manager.page
      await waitForHeading(manager, "Chat bot")
      await waitForHeading(manager, "Chat user roles", 2)
      await page.getByText("No chat user has a role of their own.").waitFor({ timeout: 15_000 })
      expect(await keyCard(manager).count()).toBe(0)
      const form = roleForm(manager)
      const role = form.getByRole("combobox", { name: "Role" })
      expect(await form.getByRole("textbox", { name: "Role" }).count()).toBe(0)
      // Only the roles whose every grant the manager holds: chat-bot (server.view, players.view) and their own; not moderator, not admin.
      await role.locator('option[value="chat-bot"]').waitFor({ state: "attached", timeout: 15_000 })
      const offered = await role.locator("option").evaluateAll((options) => options.map((o) => o.getAttribute("value")))
      expect(offered).toEqual(expect.arrayContaining(["", "chat-bot", MANAGER_ROLE]))
      expect(offered).not.toContain("moderator")
      expect(offered).not.toContain("admin")

      // Dots alone are no chat user id: the form refuses them before any call.
      const chatUserId = form.getByLabel("Chat user id")
      for (const dots of [".", ".."]) {
        await chatUserId.fill(dots)
        expect(await chatUserId.evaluate((el) => (el as unknown as Validated).validity.patternMismatch)).toBe(true)
      }
      await chatUserId.fill("a.b")
      expect(await chatUserId.evaluate((el) => (el as unknown as Validated).validity.valid)).toBe(true)

      await chatUserId.fill(MATRIX_USER)
      await role.selectOption("chat-bot")
      await form.getByRole("button", { name: "Set role" }).click()
      await page.getByRole("status").getByText("Chat user role set").waitFor({ timeout: 15_000 })
      await rolesTable(manager).getByRole("row").filter({ hasText: MATRIX_USER }).getByRole("cell", { name: "chat-bot", exact: true }).waitFor()
      expect(await mappings()).toMatchObject([{ chatUserId: MATRIX_USER, role: "chat-bot", chatUserTag: null, updatedBy: MANAGER.username }])
      // GET /api/roles (admin) was never asked for, and nothing was refused.
      expect(manager.responses().filter((r) => r.url.includes("/api/roles"))).toEqual([])
      expect(manager.responses().filter((r) => r.status >= 400)).toEqual([])
      expect(await manager.seriousAccessibilityViolations()).toEqual([])
      await manager.screenshot("chat-manager")
      expect(manager.problems()).toEqual(noProblems)
    } finally {
      await manager.close()
    }
  })

  it("with CHAT_BOT_API_KEY set, the key is said to come from there: nothing to show or rotate, and unsigned calls are refused", async () => {
    const page = await browser.open(`${fromEnvironment.baseUrl}/chat`, { viewport: "desktop", signIn: ADMIN })
    try {
      await waitForHeading(page, "Chat bot")
      const card = keyCard(page)
      await card.getByText("the controller's setting CHAT_BOT_API_KEY").waitFor({ timeout: 15_000 })
      await card.getByText(hintOf(ENV_KEY), { exact: true }).waitFor()
      await card.getByText(/^refused \(CHAT_REQUIRE_SIGNATURE\)/).waitFor()
      await card.getByText(/is set by CHAT_BOT_API_KEY on the controller/).waitFor()
      await waitForFirstLoad(page)
      expect(await card.getByRole("button").count()).toBe(0)
      expect(await page.page.content()).not.toContain(ENV_KEY)
      await suite.checkAtBothWidths(page, "environment", (p) => keyCard(p).getByText("the controller's setting CHAT_BOT_API_KEY").waitFor({ timeout: 15_000 }))
      expect(page.problems()).toEqual(noProblems)
    } finally {
      await page.close()
    }
  })
})
