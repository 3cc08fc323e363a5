/**
 * The webhooks page end to end: the real controller (serving the built
 * dashboard, `WEBHOOKS_ALLOW_PRIVATE=true` so a loopback receiver may be
 * reached) and a fake receiver (node:http on loopback, recording every
 * request, answering 200 or 500 as the test says), driven through a real
 * Chromium.
 *
 * An admin creates an HTTP webhook through the form, picking `server.*` and
 * `player.ban` (keeping its warnings and errors) in the event picker: the
 * signing secret is shown once. "Send test" reaches the receiver with a
 * request signed with that secret (checked here) and the page shows 200.
 * With the receiver failing, a test of `player.ban` fails and the failed
 * delivery is in the log; with it answering again, Replay delivers it
 * (same idempotency key). A ban made through the API reaches the receiver
 * as `player.ban`. Edited to be off (and limited to one server), the
 * webhook refuses replays (the API's 409 message shown); its secret is
 * rotated after a confirmation (the new one signs the next test); it is
 * deleted after a confirmation. A user who is not an admin has no Webhooks
 * entry and gets the "not found" page at /webhooks. axe finds no serious violation on the pages,
 * each left as a screenshot at desktop and phone widths
 * (test-artifacts/screenshots/webhooks-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForHeading, type WatchedPage } from "../support/browser.js"
import { handoff, until } from "../support/fleet.js"
import { ADMIN, type AdminApi, browserSuite, createModerator, signInAdminApi } from "./support.js"

const MODERATOR = { username: "mod-webhooks", password: "a long moderator passphrase" }
const NAME = "Ops receiver"
const OK_BODY = "ok from the receiver"
const FAIL_BODY = "the receiver is down"

interface Received {
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** The fake receiver: records every request; answers 200 or 500 as `failing` says. */
const startReceiver = async () => {
  const received: Array<Received> = []
  const state = { failing: false }
  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(state.failing ? 500 : 200, { "content-type": "text/plain" })
      response.end(state.failing ? FAIL_BODY : OK_BODY)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/garrison`,
    port,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** The README's check of `X-Garrison-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "${t}.${body}">`. */
const verifySignature = (secret: string, header: string, body: string, toleranceSeconds = 300): boolean => {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2) as [string, string]))
  const t = Number(parts["t"])
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false
  const expected = Buffer.from(createHmac("sha256", secret).update(`${parts["t"]}.${body}`).digest("hex"))
  const given = Buffer.from(parts["v1"] ?? "")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const suite = browserSuite("webhooks")
let serverId: string
let receiver: Receiver
let browser: TestBrowser
let baseUrl: string
let admin: WatchedPage
let api: AdminApi

interface WebhookView {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly url: string
  readonly enabled: boolean
  readonly events: ReadonlyArray<{ readonly pattern: string; readonly severities: ReadonlyArray<string> | null }>
  readonly servers: ReadonlyArray<string> | null
}
interface DeliveryView {
  readonly id: string
  readonly event: string
  readonly status: string
  readonly idempotencyKey: string
  readonly replayOf: string | null
  readonly test: boolean
}
const webhooks = async () => ((await api("GET", "/api/webhooks")).body as { items: ReadonlyArray<WebhookView> }).items
const deliveries = async (id: string) => ((await api("GET", `/api/webhooks/${id}/deliveries`)).body as { items: ReadonlyArray<DeliveryView> }).items

beforeAll(async () => {
  receiver = await startReceiver()
  suite.onCleanup(() => receiver.close())
  baseUrl = (await suite.startControllerWithAdmin({ WEBHOOKS_ALLOW_PRIVATE: "true" })).baseUrl
  api = await signInAdminApi(baseUrl)
  await createModerator(api, MODERATOR)
  // A server the webhook can be limited to.
  serverId = await suite.addSimServer(api, "Sim Hooks")
  browser = await suite.launchBrowser()
}, 60_000)

const secretShown = handoff<string>("an admin creates an HTTP webhook through the form")
const webhookId = handoff<string>("an admin creates an HTTP webhook through the form")
const failedDelivery = handoff<DeliveryView>("with the receiver failing, a test fails and the failed delivery is in the log")

const log = (page: WatchedPage) => page.page.getByRole("table", { name: "Deliveries, newest first" })
const testResult = (page: WatchedPage) => page.page.getByRole("region", { name: "Test result" })

describe.sequential("the webhooks page over a real controller and a fake receiver", { timeout: 90_000 }, () => {
  it("an admin creates an HTTP webhook through the form, picking server.* and player.ban: the secret is shown once", async () => {
    admin = await browser.open(`${baseUrl}/webhooks`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Webhooks")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).waitFor()
    await page.getByText("No webhooks yet.").waitFor({ timeout: 15_000 })

    await page.getByRole("button", { name: "New webhook" }).click()
    const form = page.getByRole("form", { name: "New webhook" })
    await form.waitFor({ timeout: 15_000 })
    await form.getByLabel("Name", { exact: true }).fill(NAME)
    await form.getByRole("combobox", { name: /^Kind/ }).selectOption("http")
    await form.getByLabel("URL", { exact: true }).fill(receiver.url)
    // The picker: groups from GET /api/webhooks/events, each event with its description and example.
    await form.getByRole("group", { name: /^server \(/ }).waitFor()
    await form.getByRole("group", { name: /^player \(/ }).waitFor()
    await form.getByRole("checkbox", { name: "All server events (server.*)" }).check()
    // A group takes its events in: they show chosen, and cannot be chosen one by one.
    await form.getByText("One by one: server events").click()
    const started = form.getByRole("checkbox", { name: /^server\.started\b/ })
    expect(await started.isChecked()).toBe(true)
    expect(await started.isDisabled()).toBe(true)
    await form.getByText("One by one: player events").click()
    await form.getByRole("checkbox", { name: /^player\.ban\b/ }).check()
    const example = form.locator("details").filter({ hasText: "Example payload of player.ban" })
    await example.getByText("Example payload of player.ban").click()
    await example.getByText(/"event": "player\.ban"/).waitFor()
    // player.ban's warnings and errors only.
    await form.getByRole("checkbox", { name: "Only warning of player.ban" }).check()
    await form.getByRole("checkbox", { name: "Only error of player.ban" }).check()
    expect(await form.getByRole("list", { name: "Chosen subscriptions" }).getByRole("listitem").count()).toBe(2)
    await suite.checkAtBothWidths(admin, "form", async (p) => {
      await waitForHeading(p, "Webhooks")
      await p.page.getByRole("button", { name: "New webhook" }).click()
      await p.page.getByRole("form", { name: "New webhook" }).getByRole("group", { name: /^server \(/ }).waitFor({ timeout: 15_000 })
    })
    await form.getByRole("button", { name: "Create webhook" }).click()

    await page.getByRole("status").getByText("Webhook created").waitFor({ timeout: 15_000 })
    const panel = page.getByRole("region", { name: `Signing secret of ${NAME}` })
    await panel.waitFor()
    await panel.getByText("you will not see it again", { exact: false }).waitFor()
    await panel.getByText(/HMAC-SHA256\(secret, "\$\{t\}\.\$\{body\}"\)/).waitFor()
    const secret = await panel.getByLabel("Signing secret").inputValue()
    expect(secret).toMatch(/^whsec_/)

    const [made] = await webhooks()
    expect(made).toMatchObject({
      name: NAME,
      kind: "http",
      enabled: true,
      servers: null,
      events: [
        { pattern: "server.*", severities: null },
        { pattern: "player.ban", severities: ["warning", "error"] }
      ]
    })
    // The list: masked URL, state, subscriptions.
    const row = page.getByRole("table", { name: "Webhooks" }).getByRole("row").filter({ hasText: NAME })
    await row.getByText(`http://127.0.0.1:${receiver.port}/hooks/••••`).waitFor()
    await row.getByText("enabled", { exact: true }).waitFor()
    await row.getByText("server.*, player.ban (warning, error)").waitFor()
    await row.getByText("none yet").waitFor()
    await suite.checkAtBothWidths(admin, "created", (p) => p.page.getByRole("table", { name: "Webhooks" }).getByRole("link", { name: NAME }).waitFor({ timeout: 15_000 }))

    // Shown once: gone when dismissed, and never in the page again.
    await panel.getByRole("button", { name: "Done, I have copied it" }).click()
    await panel.waitFor({ state: "detached" })
    expect(await page.content()).not.toContain(secret)
    secretShown.set(secret)
    webhookId.set(made!.id)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("Send test: the receiver gets a request signed with the shown secret, and the page shows 200", async () => {
    const secret = secretShown.get()
    const page = admin.page
    await page.getByRole("table", { name: "Webhooks" }).getByRole("link", { name: NAME }).click()
    await waitForHeading(admin, NAME)
    await page.getByRole("button", { name: "Send test" }).click()
    const result = testResult(admin)
    await result.getByText("HTTP 200").waitFor({ timeout: 15_000 })
    await result.getByText("delivered", { exact: true }).waitFor()
    await result.getByText(OK_BODY).waitFor()

    expect(receiver.received).toHaveLength(1)
    const request = receiver.received[0]!
    expect(request.path).toBe("/hooks/garrison")
    expect(request.headers["x-garrison-event"]).toBe("webhook.test")
    expect(request.headers["x-garrison-webhook-id"]).toBe(webhookId.get())
    expect(request.headers["user-agent"]).toBe("Garrison-Webhooks/1")
    expect(verifySignature(secret, String(request.headers["x-garrison-signature"]), request.body)).toBe(true)
    expect(verifySignature("whsec_not-the-secret", String(request.headers["x-garrison-signature"]), request.body)).toBe(false)
    expect(JSON.parse(request.body)).toMatchObject({ event: "webhook.test", data: { webhookId: webhookId.get() } })

    // In the log too.
    const row = log(admin).getByRole("row").filter({ hasText: "webhook.test" })
    await row.getByText("delivered", { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByRole("cell", { name: "200", exact: true }).waitFor()
    await suite.checkAtBothWidths(admin, "tested", async (p) => {
      await waitForHeading(p, NAME)
      await log(p).getByRole("row").filter({ hasText: "webhook.test" }).waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("with the receiver failing, a test of player.ban fails and the failed delivery is in the log", async () => {
    const page = admin.page
    receiver.state.failing = true
    await page.getByRole("combobox", { name: /^Event to send/ }).selectOption("player.ban")
    await page.getByRole("button", { name: "Send test" }).click()
    const result = testResult(admin)
    await result.getByText("HTTP 500").waitFor({ timeout: 15_000 })
    await result.getByText("failed", { exact: true }).waitFor()
    await result.getByText(FAIL_BODY).waitFor()
    expect(receiver.received.at(-1)?.headers["x-garrison-event"]).toBe("player.ban")

    await page.getByRole("combobox", { name: /^Status/ }).selectOption("failed")
    const row = log(admin).getByRole("row").filter({ hasText: "player.ban" })
    await row.getByText("failed", { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByRole("cell", { name: "500", exact: true }).waitFor()
    expect(await log(admin).getByRole("row").filter({ hasText: "webhook.test" }).count()).toBe(0)
    await row.getByText(/^Answer/).click()
    await row.locator("pre").getByText(FAIL_BODY).waitFor()
    const failed = (await deliveries(webhookId.get())).find((d) => d.event === "player.ban")
    expect(failed).toMatchObject({ status: "failed", test: true })
    failedDelivery.set(failed!)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("with the receiver answering again, Replay delivers the failed delivery (same idempotency key)", async () => {
    const failed = failedDelivery.get()
    const page = admin.page
    receiver.state.failing = false
    const before = receiver.received.length
    await log(admin).getByRole("row").filter({ hasText: "player.ban" }).getByRole("button", { name: "Replay player.ban" }).click()
    await page.getByRole("status").getByText("Replay queued").waitFor({ timeout: 15_000 })
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("")
    // Sent by the dispatcher; the log is polled.
    const replay = log(admin).getByRole("row").filter({ has: page.getByText("replay", { exact: true }) })
    await replay.getByText("delivered", { exact: true }).waitFor({ timeout: 20_000 })
    await replay.getByRole("cell", { name: "200", exact: true }).waitFor()
    const sent = receiver.received.slice(before)
    expect(sent.map((r) => r.headers["x-garrison-event"])).toEqual(["player.ban"])
    expect(sent[0]!.headers["idempotency-key"]).toBe(failed.idempotencyKey)
    expect(verifySignature(secretShown.get(), String(sent[0]!.headers["x-garrison-signature"]), sent[0]!.body)).toBe(true)
    const logged = await deliveries(webhookId.get())
    expect(logged.find((d) => d.replayOf === failed.id)).toMatchObject({ status: "delivered", event: "player.ban" })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a ban made through the API reaches the receiver as player.ban, and shows in the log", async () => {
    const before = receiver.received.length
    const ban = await api("POST", "/api/bans", { platformId: "76561198000000077", playerName: "Webhook Target", reason: "Testing webhooks" })
    expect(ban.status, JSON.stringify(ban.body)).toBe(201)
    await until(() => receiver.received.slice(before), (sent) => sent.length === 1, 20_000, "the ban at the receiver")
    const request = receiver.received[before]!
    expect(request.headers["x-garrison-event"]).toBe("player.ban")
    expect(JSON.parse(request.body)).toMatchObject({ event: "player.ban", data: { playerName: "Webhook Target", reason: "Testing webhooks" } })
    await log(admin).getByRole("row").filter({ hasText: "Webhook Target" }).getByText("delivered", { exact: true }).waitFor({ timeout: 15_000 })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("edited to be off and limited to one server: disabled, and a replay is refused with the API's message", async () => {
    const page = admin.page
    await page.getByRole("toolbar", { name: "Webhook controls" }).getByRole("button", { name: "Edit" }).click()
    const form = page.getByRole("form", { name: `Change ${NAME}` })
    await form.waitFor({ timeout: 15_000 })
    // The form starts from the webhook: its name, its subscriptions (the URL is kept when left empty).
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe(NAME)
    expect(await form.getByRole("checkbox", { name: "All server events (server.*)" }).isChecked()).toBe(true)
    expect(await form.getByRole("checkbox", { name: "Only warning of player.ban" }).isChecked()).toBe(true)
    await form.getByRole("checkbox", { name: /^Enabled/ }).uncheck()
    // Only events about one server from now on.
    await form.getByRole("combobox", { name: /^Events about/ }).selectOption("chosen")
    await form.getByRole("list", { name: "Servers to hear about" }).getByRole("checkbox", { name: "Sim Hooks" }).check()
    await form.getByRole("button", { name: "Save changes" }).click()
    await page.getByRole("status").getByText("Webhook saved").waitFor({ timeout: 15_000 })
    await form.waitFor({ state: "detached" })
    await page.getByText("Turned off by an admin.").waitFor()
    await page.locator("dd").getByText("Sim Hooks", { exact: true }).waitFor()
    await page.getByRole("toolbar", { name: "Webhook controls" }).getByRole("button", { name: "Turn on" }).waitFor()
    const [hook] = await webhooks()
    expect(hook).toMatchObject({ enabled: false, servers: [serverId], url: `http://127.0.0.1:${receiver.port}/hooks/••••`, events: [{ pattern: "server.*" }, { pattern: "player.ban" }] })

    // A webhook that is off replays nothing: 409, its message as a toast.
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("failed")
    await log(admin).getByRole("row").filter({ hasText: "player.ban" }).getByRole("button", { name: "Replay player.ban" }).click()
    await page.getByRole("alert").getByText(/is turned off: turn it on/).waitFor({ timeout: 15_000 })
    // The one expected error: the refused replay.
    expect(admin.problems().consoleErrors.every((line) => line.includes("409"))).toBe(true)
    admin.clearProblems()
  })

  it("rotates the secret after a confirmation: shown once, and the next test is signed with it", async () => {
    const page = admin.page
    await page.getByRole("toolbar", { name: "Webhook controls" }).getByRole("button", { name: "Rotate secret" }).click()
    const dialog = page.getByRole("dialog", { name: `Rotate the signing secret of ${NAME}?` })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Rotate" }).click()
    const panel = page.getByRole("region", { name: `Signing secret of ${NAME}` })
    await panel.waitFor({ timeout: 15_000 })
    const rotated = await panel.getByLabel("Signing secret").inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secretShown.get())

    // A test goes out even while the webhook is off.
    const before = receiver.received.length
    await page.getByRole("combobox", { name: /^Event to send/ }).selectOption("")
    await page.getByRole("button", { name: "Send test" }).click()
    await testResult(admin).getByText("webhook.test").waitFor({ timeout: 15_000 })
    await testResult(admin).getByText("HTTP 200").waitFor()
    const request = receiver.received[before]!
    expect(verifySignature(rotated, String(request.headers["x-garrison-signature"]), request.body)).toBe(true)
    expect(verifySignature(secretShown.get(), String(request.headers["x-garrison-signature"]), request.body)).toBe(false)
    await panel.getByRole("button", { name: "Done, I have copied it" }).click()
    await suite.checkAtBothWidths(admin, "disabled", async (p) => {
      await waitForHeading(p, NAME)
      await p.page.getByText("Turned off by an admin.").waitFor({ timeout: 15_000 })
    })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("deletes the webhook after a confirmation", async () => {
    const page = admin.page
    await page.getByRole("toolbar", { name: "Webhook controls" }).getByRole("button", { name: "Delete" }).click()
    const dialog = page.getByRole("dialog", { name: `Delete ${NAME}?` })
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("status").getByText("Webhook deleted").waitFor({ timeout: 15_000 })
    await waitForHeading(admin, "Webhooks")
    await page.getByText("No webhooks yet.").waitFor({ timeout: 15_000 })
    expect(await webhooks()).toEqual([])
    expect((await api("GET", `/api/webhooks/${webhookId.get()}`)).status).toBe(404)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a user who is not an admin has no Webhooks entry, and gets the not-found page at /webhooks", async () => {
    const moderator = await browser.open(`${baseUrl}/servers`, { viewport: "desktop", signIn: MODERATOR })
    try {
      await waitForHeading(moderator, "Servers")
      const nav = moderator.page.getByRole("navigation", { name: "Main" })
      await nav.getByRole("link", { name: "Servers" }).waitFor()
      expect(await nav.getByRole("link", { name: "Webhooks" }).count()).toBe(0)
      await moderator.page.goto(`${baseUrl}/webhooks`)
      await waitForHeading(moderator, "Not found")
      await moderator.page.getByText("There is no page at /webhooks, or you may not open it.").waitFor()
      // The API refuses too.
      const refused = (await moderator.page.evaluate("fetch('/api/webhooks').then((r) => r.status)")) as number
      expect(refused).toBe(403)
      moderator.clearProblems()
    } finally {
      await moderator.close()
    }
  })
})
