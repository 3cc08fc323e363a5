/**
 * The trust network's page end to end: a real controller (serving the
 * built dashboard; `TRUST_THRESHOLD=1`, so this community's vouch alone
 * makes a pool ban active) driven through a real Chromium.
 *
 * An admin submits a ban of the ban list (picked through the search) to the
 * pool: active at once. A player's appeal of it is recorded and approved
 * with a note: the pool ban shows overturned, and this community, overturned
 * every time, drops to weight 0 and is held; a review sets its weight back
 * to 1 and lifts the hold. A partner key is issued with a tier: shown once
 * (`gtp_…`, and it reads the export), then revoked after a confirmation (the
 * export refuses it). A subscription to this controller's own export, with
 * a freshly issued key and the cheating category, pulled now, shows its
 * report: the active ban whose local ban was lifted here comes back as a
 * local ban of the feed (`trust:self`); its policy is edited (off, two
 * vouches), and it is removed lifting that ban. The lookup shows the score
 * and band the public API answers. A user holding only `trust.manage` sees
 * the pool, appeals, communities and lookup, types a ban's id to submit, and
 * has neither partner keys nor subscriptions (and nothing they may not read
 * was asked for); a moderator has no Trust network entry. axe finds no
 * serious violation on the pages, each left as a screenshot at desktop and
 * phone widths (test-artifacts/screenshots/trust-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { requestJson } from "../support/controller.js"
import { handoff } from "../support/fleet.js"
import { ADMIN, type AdminApi, browserSuite, createModerator, signInAdminApi } from "./support.js"

const COMMUNITY = "Browser Test Community"
const MANAGER = { username: "trust-manager", password: "a long trust manager passphrase" }
const MANAGER_ROLE = "trust-only"
const MODERATOR = { username: "mod-trust", password: "a long moderator passphrase" }
const CHEATER = { platformId: "76561198040000001", playerName: "Aimbot Andy", reason: "aimbot on video" }
const RETURNER = { platformId: "76561198040000002", playerName: "Wallhack Walt", reason: "wallhack, three reports" }
const STATEMENT = "I was not on the server that night"
const PARTNER = "Chernarus Survivors"

interface PoolBan {
  readonly id: string
  readonly platformId: string
  readonly reasonCategory: string
  readonly status: string
  readonly vouchCount: number
}
interface Community {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly weight: number
  readonly held: boolean
  readonly reviewedBy: string | null
}
interface PartnerKey {
  readonly id: string
  readonly name: string
  readonly tier: string
  readonly hint: string
  readonly revokedAt: string | null
}
interface Subscription {
  readonly id: string
  readonly name: string
  readonly enabled: boolean
  readonly minVouches: number
  readonly categories: ReadonlyArray<string>
  readonly lastChanges: number | null
  readonly lastError: string | null
  readonly bansHeld: number
}
interface LocalBan {
  readonly id: string
  readonly platformId: string
  readonly source: string
}

const suite = browserSuite("trust")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let cheaterBanId: string
let returnerBanId: string

const pool = async () => ((await api("GET", "/api/trust/pool?limit=500")).body as { items: ReadonlyArray<PoolBan> }).items
const communities = async () => ((await api("GET", "/api/trust/communities")).body as { items: ReadonlyArray<Community> }).items
const partnerKeys = async () => ((await api("GET", "/api/trust/partner-keys")).body as { items: ReadonlyArray<PartnerKey> }).items
const subscriptions = async () => ((await api("GET", "/api/trust/subscriptions")).body as { items: ReadonlyArray<Subscription> }).items
const localBans = async () => ((await api("GET", "/api/bans?limit=100")).body as { items: ReadonlyArray<LocalBan> }).items
const exportWith = async (key: string) => (await requestJson(baseUrl, "GET", "/api/v1/trust/export", { headers: { authorization: `Bearer ${key}` } })).status

const addBan = async (ban: typeof CHEATER) => {
  const made = await api("POST", "/api/bans", ban)
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return (made.body as { id: string }).id
}

beforeAll(async () => {
  baseUrl = (await suite.startControllerWithAdmin({ TRUST_THRESHOLD: "1", TRUST_COMMUNITY_NAME: COMMUNITY })).baseUrl
  api = await signInAdminApi(baseUrl)
  await createModerator(api, MODERATOR)
  const role = await api("POST", "/api/roles", { name: MANAGER_ROLE, description: "The trust pool only", permissions: ["trust.manage"] })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const manager = await api("POST", "/api/users", { ...MANAGER, role: MANAGER_ROLE, mustChangePassword: false })
  expect(manager.status, JSON.stringify(manager.body)).toBe(201)
  cheaterBanId = await addBan(CHEATER)
  returnerBanId = await addBan(RETURNER)
  browser = await suite.launchBrowser()
}, 90_000)

const cheaterPoolId = handoff<string>("an admin submits a ban of the ban list on the page")

const poolTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Pool bans, newest change first" })
const poolRow = (page: WatchedPage, platformId: string) => poolTable(page).getByRole("row").filter({ hasText: platformId })
const appealsTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Appeals, newest first" })
const communityRow = (page: WatchedPage, name: string) => page.page.getByRole("table", { name: "Communities" }).getByRole("row").filter({ hasText: name })
const keysTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Partner keys" })
const subscriptionsTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Subscriptions" })
/** A `checkAtBothWidths` ready check: `wait`, then every section loaded. */
const ready = (wait: (page: WatchedPage) => Promise<unknown>) => async (page: WatchedPage) => {
  await wait(page)
  await waitForFirstLoad(page)
}
const toast = (page: WatchedPage, text: string) => page.page.getByRole("status").getByText(text).waitFor({ timeout: 15_000 })

/** Issues a partner key through the page's form: the key shown once, then dismissed. */
const issueKey = async (name: string, tier: string): Promise<string> => {
  const page = admin.page
  const form = page.getByRole("form", { name: "Issue a partner key" })
  await form.getByLabel("Partner", { exact: true }).fill(name)
  await form.getByRole("combobox", { name: "Tier" }).selectOption(tier)
  await form.getByRole("button", { name: "Issue key" }).click()
  await toast(admin, "Partner key issued")
  const panel = page.getByRole("region", { name: `Partner key for ${name}, shown once` })
  await panel.getByText("you will not see it again", { exact: false }).waitFor({ timeout: 15_000 })
  return panel.getByLabel("Partner key").inputValue()
}

describe.sequential("the trust network page over a real controller", { timeout: 90_000 }, () => {
  it("an admin submits a ban of the ban list on the page: active in the pool at once", async () => {
    admin = await browser.open(`${baseUrl}/trust`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Trust network")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trust network" }).waitFor()
    for (const section of ["Ban pool", "Submit a ban", "Appeals", "Communities", "Player lookup", "Partner keys", "Subscriptions"]) {
      await waitForHeading(admin, section, 2)
    }
    await page.getByText("The pool is empty: submit a ban below.").waitFor({ timeout: 15_000 })
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(
      admin,
      "empty",
      ready(async (p) => {
        await waitForHeading(p, "Trust network")
        await p.page.getByText("The pool is empty: submit a ban below.").waitFor({ timeout: 15_000 })
      })
    )

    const form = page.getByRole("form", { name: "Submit a ban" })
    await form.getByRole("searchbox", { name: "Search the ban list" }).fill("Aimbot")
    const ban = form.getByRole("combobox", { name: "Ban" })
    // The search leaves the matching active ban only.
    await ban.locator(`option[value="${returnerBanId}"]`).waitFor({ state: "detached", timeout: 15_000 })
    await ban.locator(`option[value="${cheaterBanId}"]`).waitFor({ state: "attached", timeout: 15_000 })
    await ban.selectOption(cheaterBanId)
    await form.getByRole("combobox", { name: "Category" }).selectOption("cheating")
    await form.getByLabel(/^Private note/).fill("seen on video by two admins")
    await form.getByRole("button", { name: "Submit to the pool" }).click()
    await toast(admin, "Ban submitted to the pool")
    await form.getByText(/is active \(1 vouch\)/).waitFor({ timeout: 15_000 })

    const row = poolRow(admin, CHEATER.platformId)
    await row.getByText("active", { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByText("cheating", { exact: true }).waitFor()
    await row.getByText("1 vouch, weight 1.00").waitFor()
    const [pooled] = await pool()
    expect(pooled).toMatchObject({ platformId: CHEATER.platformId, reasonCategory: "cheating", status: "active", vouchCount: 1 })
    cheaterPoolId.set(pooled!.id)
    // The note is this community's: never in the page's pool.
    expect(await poolTable(admin).textContent()).not.toContain("seen on video")
    await suite.checkAtBothWidths(admin, "submitted", ready((p) => poolRow(p, CHEATER.platformId).getByText("active", { exact: true }).waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("an appeal recorded and approved with a note: the ban shows overturned, and this community drops to weight 0, held", async () => {
    const page = admin.page
    const record = page.getByRole("form", { name: "Record an appeal" })
    await record.getByRole("combobox", { name: "Pool ban" }).selectOption(cheaterPoolId.get())
    await record.getByLabel("The player's statement").fill(STATEMENT)
    await record.getByRole("button", { name: "Record appeal" }).click()
    await toast(admin, "Appeal recorded")
    const appeal = appealsTable(admin).getByRole("row").filter({ hasText: STATEMENT })
    await appeal.getByText("open", { exact: true }).waitFor({ timeout: 15_000 })
    await appeal.getByText(CHEATER.platformId, { exact: true }).waitFor()

    await appeal.getByRole("button", { name: `Decide the appeal of ${CHEATER.platformId}` }).click()
    const decide = page.getByRole("form", { name: `Decide the appeal of ${CHEATER.platformId}` })
    await decide.getByText(STATEMENT).waitFor()
    await decide.getByRole("radio", { name: /^Approve/ }).check()
    await decide.getByLabel("Note", { exact: true }).fill("The logs show the player offline")
    await decide.getByRole("button", { name: "Record decision" }).click()
    await toast(admin, "Appeal approved: the ban is overturned")
    await decide.waitFor({ state: "detached" })

    await appeal.getByText("approved", { exact: true }).waitFor({ timeout: 15_000 })
    await appeal.getByText("The logs show the player offline").waitFor()
    await poolRow(admin, CHEATER.platformId).getByText("overturned", { exact: true }).waitFor({ timeout: 15_000 })
    // Overturned every time (1 of 1): held at 0 until reviewed.
    const community = communityRow(admin, COMMUNITY)
    await community.getByText("held", { exact: true }).waitFor({ timeout: 15_000 })
    await community.getByRole("cell", { name: "0.00", exact: true }).waitFor()
    await community.getByRole("cell", { name: "100 %", exact: true }).waitFor()
    expect((await pool()).find((b) => b.id === cheaterPoolId.get())).toMatchObject({ status: "overturned" })
    expect((await communities()).find((c) => c.kind === "local")).toMatchObject({ name: COMMUNITY, weight: 0, held: true })
    await suite.checkAtBothWidths(admin, "appealed", ready((p) => communityRow(p, COMMUNITY).getByText("held", { exact: true }).waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a review sets the community's weight to 1 and lifts the hold", async () => {
    const page = admin.page
    await communityRow(admin, COMMUNITY).getByRole("button", { name: `Review ${COMMUNITY}` }).click()
    const form = page.getByRole("form", { name: `Review ${COMMUNITY}` })
    await form.getByRole("spinbutton", { name: "Weight" }).fill("1")
    await form.getByRole("button", { name: "Set weight" }).click()
    await toast(admin, "Community reviewed")
    await form.waitFor({ state: "detached" })
    const community = communityRow(admin, COMMUNITY)
    await community.getByText("counts", { exact: true }).waitFor({ timeout: 15_000 })
    await community.getByRole("cell", { name: "1.00", exact: true }).waitFor()
    await community.getByText("by admin").waitFor()
    expect((await communities()).find((c) => c.kind === "local")).toMatchObject({ weight: 1, held: false, reviewedBy: ADMIN.username })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a partner key issued with a tier is shown once (gtp_) and reads the export; revoked after a confirmation, it is refused", async () => {
    const page = admin.page
    await page.getByText("No partner keys yet.").waitFor()
    const key = await issueKey(PARTNER, "partner")
    expect(key).toMatch(/^gtp_/)
    const [listed] = await partnerKeys()
    expect(listed).toMatchObject({ name: PARTNER, tier: "partner", revokedAt: null })
    const row = keysTable(admin).getByRole("row").filter({ hasText: PARTNER })
    await row.getByText(listed!.hint, { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByText("partner tier", { exact: true }).waitFor()
    await row.getByText("active", { exact: true }).waitFor()
    expect(await exportWith(key)).toBe(200)
    await suite.checkAtBothWidths(admin, "key-issued", ready((p) => keysTable(p).getByRole("row").filter({ hasText: PARTNER }).waitFor({ timeout: 15_000 })))

    // Shown once: gone when dismissed, and never in the page again.
    const panel = page.getByRole("region", { name: `Partner key for ${PARTNER}, shown once` })
    await panel.getByRole("button", { name: "Done, I have copied it" }).click()
    await panel.waitFor({ state: "detached" })
    expect(await page.content()).not.toContain(key)

    await row.getByRole("button", { name: `Revoke the key of ${PARTNER}` }).click()
    const dialog = page.getByRole("dialog", { name: `Revoke the key of ${PARTNER}?` })
    await dialog.getByRole("button", { name: "Revoke" }).click()
    await toast(admin, "Partner key revoked")
    await row.getByText("revoked", { exact: true }).waitFor({ timeout: 15_000 })
    expect(await row.getByRole("button", { name: /^Revoke/ }).count()).toBe(0)
    expect((await partnerKeys())[0]!.revokedAt).not.toBeNull()
    expect(await exportWith(key)).toBe(401)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a subscription to the controller's own export, with a fresh key: Pull now shows the report, and the feed's ban is made", async () => {
    const page = admin.page
    // An active pool ban whose local ban was lifted here since: the feed (cheating only) bans the player again, as trust:self.
    const submitted = await api("POST", "/api/trust/submissions", { banId: returnerBanId, reasonCategory: "cheating" })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
    expect(submitted.body).toMatchObject({ status: "active" })
    expect((await api("DELETE", `/api/bans/${returnerBanId}`)).status).toBeLessThan(300)

    const key = await issueKey("Ourselves", "community")
    await page.getByRole("region", { name: "Partner key for Ourselves, shown once" }).getByRole("button", { name: "Done, I have copied it" }).click()

    await page.getByText("This instance follows no partner.").waitFor()
    await page.getByRole("button", { name: "Follow a partner" }).click()
    const form = page.getByRole("form", { name: "Follow a partner" })
    await form.getByLabel("Name", { exact: true }).fill("self")
    await form.getByLabel("The partner's Garrison").fill(baseUrl)
    await form.getByLabel(/^Partner key/).fill(key)
    await form.getByRole("checkbox", { name: "cheating" }).check()
    await form.getByRole("button", { name: "Add subscription" }).click()
    await toast(admin, "Subscription added")
    await form.waitFor({ state: "detached" })
    const row = subscriptionsTable(admin).getByRole("row").filter({ hasText: "self" })
    await row.getByText("not yet").waitFor({ timeout: 15_000 })
    await row.getByText("1 vouch at least; cheating; no exemptions").waitFor()
    expect(JSON.stringify(await subscriptions())).not.toContain(key)

    await row.getByRole("button", { name: "Pull now from self" }).click()
    const report = page.getByRole("region", { name: "Pull report of self" })
    // The overturned ban is a tombstone the feed never banned (skipped); the active one becomes the feed's ban.
    // A pull is a controller-to-controller HTTP round trip: on a machine busy with other tests it can take tens of seconds.
    await report.getByText("Read 2 changes: 1 banned, 0 lifted, 1 skipped.").waitFor({ timeout: 45_000 })
    expect(await report.getByRole("alert").count()).toBe(0)
    await row.getByText("2 changes read").waitFor({ timeout: 15_000 })
    await row.getByRole("cell", { name: "1", exact: true }).waitFor()
    const [followed] = await subscriptions()
    expect(followed).toMatchObject({ name: "self", lastError: null, lastChanges: 2, bansHeld: 1, categories: ["cheating"] })
    expect((await localBans()).find((b) => b.platformId === RETURNER.platformId)).toMatchObject({ source: "trust:self" })
    // The feed is a partner community here now.
    await communityRow(admin, "self").getByText("partner feed").waitFor({ timeout: 15_000 })
    await suite.checkAtBothWidths(admin, "subscribed", ready((p) => subscriptionsTable(p).getByRole("row").filter({ hasText: "self" }).waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the subscription's policy is edited: off, two vouches", async () => {
    const page = admin.page
    await page.getByRole("region", { name: "Pull report of self" }).getByRole("button", { name: "Dismiss" }).click()
    const row = subscriptionsTable(admin).getByRole("row").filter({ hasText: "self" })
    await row.getByRole("button", { name: "Edit self" }).click()
    const form = page.getByRole("form", { name: "Change self" })
    expect(await form.getByRole("checkbox", { name: "cheating" }).isChecked()).toBe(true)
    await form.getByRole("spinbutton", { name: "Vouches needed (communities)" }).fill("2")
    await form.getByRole("checkbox", { name: /^Enabled/ }).uncheck()
    await form.getByRole("button", { name: "Save changes" }).click()
    await toast(admin, "Subscription saved")
    await form.waitFor({ state: "detached" })
    await row.getByText("off", { exact: true }).waitFor({ timeout: 15_000 })
    await row.getByText("2 vouches at least; cheating; no exemptions").waitFor()
    expect((await subscriptions())[0]).toMatchObject({ enabled: false, minVouches: 2, categories: ["cheating"] })
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the lookup shows the player's score and band, as the public API answers them", async () => {
    const page = admin.page
    const answer = await requestJson(baseUrl, "GET", `/api/v1/trust/${RETURNER.platformId}`)
    expect(answer.status).toBe(200)
    const expected = answer.body as { score: number; band: string; reasons: ReadonlyArray<string> }
    const lookup = page.getByRole("search", { name: "Player lookup" })
    await lookup.getByLabel(/^Player/).fill(RETURNER.platformId)
    await lookup.getByRole("button", { name: "Look up" }).click()
    const card = page.getByRole("region", { name: `Trust score of ${RETURNER.platformId}` })
    await card.getByText(expected.band, { exact: true }).waitFor({ timeout: 15_000 })
    await card.getByText(String(expected.score), { exact: true }).waitFor()
    for (const reason of expected.reasons) await card.getByRole("list", { name: "Reasons" }).getByText(reason).waitFor()
    await card.getByText(/^yes: an RS256 proof/).waitFor()
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the subscription is removed, lifting the ban its feed made", async () => {
    const page = admin.page
    await subscriptionsTable(admin).getByRole("row").filter({ hasText: "self" }).getByRole("button", { name: "Remove self" }).click()
    const form = page.getByRole("form", { name: "Stop following self?" })
    await form.getByRole("checkbox", { name: "Also lift the 1 ban this feed made" }).check()
    await form.getByRole("button", { name: "Remove subscription" }).click()
    await toast(admin, "Subscription removed")
    await page.getByText("This instance follows no partner.").waitFor({ timeout: 15_000 })
    expect(await subscriptions()).toEqual([])
    expect((await localBans()).some((b) => b.platformId === RETURNER.platformId)).toBe(false)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a user holding only trust.manage sees the pool, appeals, communities and lookup, but no partner keys or subscriptions", async () => {
    const manager = await browser.open(`${baseUrl}/trust`, { viewport: "desktop", signIn: MANAGER })
    try {
      const page = manager.page
      await waitForHeading(manager, "Trust network")
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trust network" }).waitFor()
      await poolRow(manager, CHEATER.platformId).getByText("overturned", { exact: true }).waitFor({ timeout: 15_000 })
      await waitForHeading(manager, "Appeals", 2)
      await communityRow(manager, COMMUNITY).waitFor({ timeout: 15_000 })
      await waitForHeading(manager, "Player lookup", 2)
      await waitForFirstLoad(manager)
      expect(await page.getByRole("heading", { name: "Partner keys" }).count()).toBe(0)
      expect(await page.getByRole("heading", { name: "Subscriptions" }).count()).toBe(0)
      // Without bans.manage the ban list is not theirs to read: the form takes a ban's id.
      const form = page.getByRole("form", { name: "Submit a ban" })
      await form.getByRole("textbox", { name: "Ban id (from the ban list)" }).waitFor()
      expect(await form.getByRole("searchbox").count()).toBe(0)
      // Nothing they may not read was asked for.
      expect(manager.responses().filter((r) => r.url.includes("/api/bans") || r.url.includes("/partner-keys") || r.url.includes("/subscriptions"))).toEqual([])
      expect(manager.responses().filter((r) => r.status >= 400)).toEqual([])
      await suite.checkAtBothWidths(manager, "manager", ready((p) => poolRow(p, CHEATER.platformId).waitFor({ timeout: 15_000 })))
      expect(manager.problems()).toEqual(noProblems)
    } finally {
      await manager.close()
    }
  })

  it("a moderator has no Trust network entry, and gets the not-found page at /trust", async () => {
    const moderator = await browser.open(`${baseUrl}/servers`, { viewport: "desktop", signIn: MODERATOR })
    try {
      await waitForHeading(moderator, "Servers")
      const nav = moderator.page.getByRole("navigation", { name: "Main" })
      await nav.getByRole("link", { name: "Servers" }).waitFor()
      expect(await nav.getByRole("link", { name: "Trust network" }).count()).toBe(0)
      await moderator.page.goto(`${baseUrl}/trust`)
      await waitForHeading(moderator, "Not found")
      const refused = (await moderator.page.evaluate("fetch('/api/trust/pool').then((r) => r.status)")) as number
      expect(refused).toBe(403)
      moderator.clearProblems()
    } finally {
      await moderator.close()
    }
  })
})
