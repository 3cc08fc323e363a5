/**
 * The game-data pages end to end: a real controller (serving the built
 * dashboard; `GAMELOG_POLL_INTERVAL=500 millis`, a fake tile source on
 * loopback) whose two simulated servers' profiles folders hold admin logs
 * (`.ADM`) this file writes, driven through a real Chromium.
 *
 * Server one runs Chernarus: three players connect, a player list shows
 * where they are, Bob kills Carl with a headshot (its fatal hit first) and
 * Alice from afar, Alice kills Bob, and an infected kills Carl. Server two
 * runs a mission Garrison does not know: Frank kills Gina there.
 *
 * The kill feed shows every death, newest first (the headshot marked); a
 * kill appended to server one's log afterwards comes to the top live (the
 * stream), marked new, without a reload. The leaderboard ranks by kills and
 * by longest kill; an admin starts a new season on server one (after a
 * confirmation): its current season is empty, and the past one is picked
 * in the season picker. Player history finds Bob by part of his name and
 * Alice by her Steam64, and Alice's page shows her kills, deaths, names,
 * servers and last deaths. The watchlist adds Carl by Steam64 with a note
 * (his name read from the logs) and removes him after a confirmation. The
 * live map of server one draws one labelled marker per player, over tiles
 * from the tile route, placed as their positions say; a player list
 * appended to the log adds a fourth marker through the stream, without a
 * reload. Server two's map is a plain grid with a message, its marker
 * drawn all the same. A user holding `server.view` and
 * `leaderboard.manage` on server one only sees that server's kills (not
 * Frank's), no player history (names are not links, nothing of it asked
 * for), and the New season button on server one. axe finds no serious
 * violation on the pages, each left as a screenshot at desktop and phone
 * widths (test-artifacts/screenshots/gamedata-*).
 *
 * One test per step, in order, on one controller, one browser page.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import * as NodePath from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { PlayerIds } from "@garrison/runtime"
import { noProblems, type TestBrowser, waitForFirstLoad, waitForHeading, type WatchedPage } from "../support/browser.js"
import { freePort, HOST } from "../support/controller.js"
import { installSim, type SimInstall } from "../support/sim.js"
import { ADMIN, type AdminApi, browserSuite, signInAdminApi } from "./support.js"

interface Player {
  readonly name: string
  readonly steam64: string
  readonly id: string
}

const player = (name: string, steam64: string): Player => {
  if (!PlayerIds.isSteam64(steam64)) throw new Error(`not a Steam64: ${steam64}`)
  return { name, steam64, id: PlayerIds.toDayzId(steam64) }
}

const ALICE = player("Alice Ambush", "76561198000000101")
const BOB = player("Bob Bullseye", "76561198000000102")
const CARL = player("Carl Camper", "76561198000000103")
const DANA = player("Dana Dunes", "76561198000000104")
const FRANK = player("Frank Fjord", "76561198000000105")
const GINA = player("Gina Glacier", "76561198000000106")
const KEEPER = { username: "season-keeper", password: "a long season keeper passphrase" }
const WATCH_NOTE = "camps the airfield with a ghillie"

/** A 1x1 lossless WebP: what the fake tile source answers for every tile. */
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64")

const suite = browserSuite("gamedata")
let baseUrl: string
let api: AdminApi
let browser: TestBrowser
let admin: WatchedPage
let one: { readonly id: string; readonly install: SimInstall }
let two: { readonly id: string; readonly install: SimInstall }
const tileRequests: Array<string> = []

/** The logs' clock: lines are timed from 20 minutes ago on, in local time (the controller's zone, the same as this process's). */
const START = Date.now() - 20 * 60_000
const pad = (n: number) => String(n).padStart(2, "0")
const stamp = (ms: number) => {
  const d = new Date(ms)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}
const line = (ms: number, text: string) => `${stamp(ms)} | ${text}\n`
const header = (ms: number) => {
  const d = new Date(ms)
  return `AdminLog started on ${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} at ${stamp(ms)}\n`
}
const at = (seconds: number) => START + seconds * 1000
const ref = (p: Player, pos: string, dead = false) => `Player "${p.name}"${dead ? " (DEAD)" : ""} (id=${p.id} pos=<${pos}>)`
const connected = (ms: number, p: Player) => line(ms, `Player "${p.name}" is connected (id=${p.id})`)
const playerList = (ms: number, sightings: ReadonlyArray<readonly [Player, string]>) =>
  line(ms, `##### PlayerList log: ${sightings.length} players`) + sightings.map(([p, pos]) => line(ms, ref(p, pos))).join("") + line(ms, "#####")

// Chernarus: Alice in the west, Bob in the middle, Carl in the east (x east, y north, metres).
const POS = { alice: "2500.5, 9800.2, 310.4", bob: "7600, 7600, 250", carl: "12400.8, 5200.1, 12.3", dana: "9100, 13000, 180" }

const SERVER_ONE_LOG =
  header(at(0)) +
  connected(at(10), ALICE) +
  connected(at(12), BOB) +
  connected(at(14), CARL) +
  playerList(at(60), [
    [ALICE, POS.alice],
    [BOB, POS.bob],
    [CARL, POS.carl]
  ]) +
  line(at(120), `${ref(CARL, POS.carl)}[HP: 0] hit by ${ref(BOB, POS.bob)} into Head(0) for 100 damage (Bullet_556x45) with M4-A1 from 24.38 meters `) +
  line(at(120), `${ref(CARL, POS.carl, true)} killed by ${ref(BOB, POS.bob)} with M4-A1 from 24.38 meters `) +
  line(at(180), `${ref(ALICE, POS.alice, true)} killed by ${ref(BOB, POS.bob)} with Mosin9130 from 312.5 meters `) +
  line(at(240), `${ref(BOB, POS.bob, true)} killed by ${ref(ALICE, POS.alice)} with CR-75 from 5.2 meters `) +
  line(at(300), `${ref(CARL, POS.carl, true)} killed by ZmbM_HermitSkinny_Beige`)

const SERVER_TWO_LOG =
  header(at(0)) +
  connected(at(20), FRANK) +
  connected(at(21), GINA) +
  line(at(200), `${ref(GINA, "17500, 3000, 5", true)} killed by ${ref(FRANK, "17900.5, 2800, 6")} with SVD from 440.1 meters `)

const admFile = (install: SimInstall) => NodePath.join(install.profiles, "DayZServer_x64_gamedata.ADM")

const addServer = async (name: string, log: string) => {
  const install = await installSim()
  suite.onCleanup(() => install.remove())
  const server = await api("POST", "/api/servers", { name, installDir: install.dir, gamePort: install.gamePort })
  expect(server.status, JSON.stringify(server.body)).toBe(201)
  writeFileSync(admFile(install), log)
  return { id: (server.body as { id: string }).id, install }
}

/** Polls `read` until `done` holds (20 s), failing with the last value. */
const eventually = async <A>(read: () => Promise<A>, done: (value: A) => boolean, what: string): Promise<A> => {
  const until = Date.now() + 20_000
  let last: A = await read()
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
    last = await read()
  }
  return last
}

interface KillRow {
  readonly name: string | null
  readonly victimName: string
  readonly headshot: boolean
  readonly serverId: string
}
const kills = async () => ((await api("GET", "/api/killfeed?limit=100")).body as { items: ReadonlyArray<KillRow> }).items

const startTileSource = async (): Promise<string> => {
  const port = await freePort()
  const server: Server = createServer((request, response) => {
    tileRequests.push(request.url ?? "")
    response.writeHead(200, { "content-type": "image/webp", "content-length": WEBP.length })
    response.end(WEBP)
  })
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve))
  suite.onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://${HOST}:${port}/tiles/{map}/{style}/{z}/{x}/{y}.webp`
}

beforeAll(async () => {
  const tiles = await startTileSource()
  baseUrl = (await suite.startControllerWithAdmin({ GAMELOG_POLL_INTERVAL: "500 millis", MAP_TILE_SOURCE_URL: tiles })).baseUrl
  api = await signInAdminApi(baseUrl)
  one = await addServer("Chernarus One", SERVER_ONE_LOG)
  two = await addServer("Mystery Isle", SERVER_TWO_LOG)
  // Server two's mission names a map Garrison does not know.
  const config = NodePath.join(two.install.dir, "serverDZ.cfg")
  writeFileSync(config, readFileSync(config, "utf8").replace('template = "dayzOffline.chernarusplus"', 'template = "dayzOffline.mysteryisle"'))
  const role = await api("POST", "/api/roles", {
    name: "season-keeper",
    description: "Server one's seasons",
    permissions: [
      { permission: "server.view", servers: [one.id] },
      { permission: "leaderboard.manage", servers: [one.id] }
    ]
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  const keeper = await api("POST", "/api/users", { ...KEEPER, role: "season-keeper", mustChangePassword: false })
  expect(keeper.status, JSON.stringify(keeper.body)).toBe(201)
  // Both logs read: five deaths.
  await eventually(kills, (items) => items.length === 5, "the deaths read from the admin logs")
  browser = await suite.launchBrowser()
}, 120_000)

const killTable = (page: WatchedPage) => page.page.getByRole("table", { name: "Kills, newest first" })
const bodyRows = (page: WatchedPage, table: string) => page.page.getByRole("table", { name: table }).locator("tbody tr")
const toast = (page: WatchedPage, text: string) => page.page.getByRole("status").getByText(text).waitFor({ timeout: 15_000 })
const ready = (wait: (page: WatchedPage) => Promise<unknown>) => async (page: WatchedPage) => {
  await wait(page)
  await waitForFirstLoad(page)
}
const markers = (page: WatchedPage) => page.page.locator(".live-map path.map-player")
const label = (page: WatchedPage, name: string) => page.page.locator(".live-map .map-label").filter({ hasText: name })

describe.sequential("the game-data pages over a real controller", { timeout: 90_000 }, () => {
  it("the kill feed shows every death read from the admin logs, newest first, the headshot marked", async () => {
    admin = await browser.open(`${baseUrl}/killfeed`, { viewport: "desktop", signIn: ADMIN })
    const page = admin.page
    await waitForHeading(admin, "Kill feed")
    const nav = page.getByRole("navigation", { name: "Main" })
    for (const entry of ["Kill feed", "Leaderboard", "Live map", "Player history", "Watchlist"]) await nav.getByRole("link", { name: entry }).waitFor()
    await killTable(admin).waitFor({ timeout: 15_000 })
    const rows = bodyRows(admin, "Kills, newest first")
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(5)
    const texts = await rows.allTextContents()
    // Newest first: the infected's kill on server one (at 300 s), then Frank's (200 s), Alice's (240 s) before it.
    expect(texts[0]).toContain("ZmbM_HermitSkinny_Beige")
    expect(texts.findIndex((t) => t.includes(FRANK.name))).toBeGreaterThan(texts.findIndex((t) => t.includes("CR-75")))
    const headshot = rows.filter({ hasText: "M4-A1" })
    await headshot.getByText("headshot", { exact: true }).waitFor()
    expect(await headshot.textContent()).toContain(CARL.name)
    expect(await headshot.textContent()).toContain("24.4 m")
    await rows.filter({ hasText: "Mosin9130" }).getByText("312.5 m").waitFor()
    await rows.filter({ hasText: FRANK.name }).getByText("Mystery Isle").waitFor()
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor({ timeout: 15_000 })
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "killfeed", ready((p) => killTable(p).waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a kill appended to the admin log afterwards comes to the top of the feed live, without a reload", async () => {
    const page = admin.page
    await page.evaluate("window.__stayed = true")
    appendFileSync(admFile(one.install), line(Date.now() - 60_000, `${ref(BOB, POS.bob, true)} killed by ${ref(CARL, POS.carl)} with SVD from 401.7 meters `))
    const first = bodyRows(admin, "Kills, newest first").first()
    await first.filter({ hasText: "SVD" }).waitFor({ timeout: 15_000 })
    expect(await first.textContent()).toContain(CARL.name)
    expect(await first.textContent()).toContain(BOB.name)
    await first.getByText("new", { exact: true }).waitFor()
    await expect.poll(() => bodyRows(admin, "Kills, newest first").count()).toBe(6)
    expect(await page.evaluate("window.__stayed === true")).toBe(true)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the leaderboard ranks by kills and by longest kill; an admin starts a new season on server one, and the past one is picked", async () => {
    const page = admin.page
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leaderboard" }).click()
    await waitForHeading(admin, "Leaderboard")
    const rows = bodyRows(admin, "Leaderboard")
    await rows.first().waitFor({ timeout: 15_000 })
    // All servers' current seasons: Bob first with 2 kills (1 headshot), then the players with one kill each.
    const top = rows.first()
    expect(await top.locator("td").first().textContent()).toBe("1")
    expect(await top.textContent()).toContain(BOB.name)
    expect(await top.locator("td").nth(2).textContent()).toBe("2")
    expect(await rows.count()).toBe(5)
    await page.getByText("Choose a server to start a new season on it.").waitFor()

    // By longest kill: Frank's 440.1 m on server two, then Carl's 401.7 m.
    await page.getByRole("combobox", { name: "Rank by" }).selectOption("longestKill")
    await rows.first().filter({ hasText: FRANK.name }).waitFor({ timeout: 15_000 })
    expect(await rows.first().textContent()).toContain("440.1 m")
    expect(await rows.nth(1).textContent()).toContain("401.7 m")
    expect(await page.getByRole("columnheader", { name: "Longest kill" }).getAttribute("aria-sort")).toBe("descending")
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "leaderboard", ready((p) => bodyRows(p, "Leaderboard").first().waitFor({ timeout: 15_000 })))

    await page.getByRole("combobox", { name: "Server" }).selectOption(one.id)
    await page.getByRole("status").getByText(/^Season 1 \(current\)/).waitFor({ timeout: 15_000 })
    // Server one alone: Carl's kill is its longest.
    await rows.first().filter({ hasText: CARL.name }).waitFor({ timeout: 15_000 })
    expect(await rows.first().textContent()).toContain("401.7 m")
    expect(await rows.filter({ hasText: FRANK.name }).count()).toBe(0)
    await page.getByRole("button", { name: "New season…" }).click()
    const form = page.getByRole("form", { name: "New season on Chernarus One" })
    await form.getByLabel(/^Reason/).fill("monthly reset")
    await form.getByRole("button", { name: "Start new season" }).click()
    await page.getByRole("dialog", { name: "Start a new season on Chernarus One?" }).getByRole("button", { name: "Start new season" }).click()
    await toast(admin, "Season 2 started")
    await page.getByRole("status").getByText(/^Season 2 \(current\).*monthly reset$/).waitFor({ timeout: 15_000 })
    await page.getByText("No kills in this season yet.").waitFor({ timeout: 15_000 })

    const season = page.getByRole("combobox", { name: "Season" })
    await season.locator("option", { hasText: "Season 1:" }).waitFor({ state: "attached", timeout: 15_000 })
    await season.selectOption({ label: (await season.locator("option", { hasText: "Season 1:" }).textContent())! })
    await rows.first().filter({ hasText: CARL.name }).waitFor({ timeout: 15_000 })
    expect(await rows.count()).toBe(3)
    const seasons = (await api("GET", `/api/leaderboard/seasons?serverId=${one.id}`)).body as { items: ReadonlyArray<{ number: number; reason: string; endedAt: string | null }> }
    expect(seasons.items.map((s) => [s.number, s.reason, s.endedAt === null])).toEqual([
      [2, "monthly reset", true],
      [1, "first", false]
    ])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("player history finds Bob by part of his name and Alice by her Steam64; Alice's page shows her history", async () => {
    const page = admin.page
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Player history" }).click()
    await waitForHeading(admin, "Player history")
    const rows = bodyRows(admin, "Players seen, last seen first")
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(5)
    const search = page.getByRole("search", { name: "Search players" })
    await search.getByRole("searchbox").fill("bULLs")
    await search.getByRole("button", { name: "Search" }).click()
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1)
    expect(await rows.first().textContent()).toContain(BOB.name)

    await search.getByRole("searchbox").fill(ALICE.steam64)
    await search.getByRole("button", { name: "Search" }).click()
    await rows.first().filter({ hasText: ALICE.name }).waitFor({ timeout: 15_000 })
    expect(await rows.count()).toBe(1)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "players", ready((p) => bodyRows(p, "Players seen, last seen first").first().waitFor({ timeout: 15_000 })))

    await rows.first().getByRole("link", { name: ALICE.name }).click()
    await waitForHeading(admin, ALICE.name)
    const facts = page.locator("dl.kv")
    await facts.getByText(ALICE.id).waitFor()
    const fact = async (term: string) => (await facts.locator(`dt:text-is("${term}") + dd`).textContent())?.trim()
    expect(await fact("Kills")).toBe("1")
    expect(await fact("Deaths")).toBe("1")
    await page.getByRole("list", { name: "Names used" }).getByText(ALICE.name).waitFor()
    await page.getByRole("table", { name: "Servers played" }).getByText("Chernarus One").waitFor()
    const last = bodyRows(admin, "Last kills and deaths of the player")
    await expect.poll(() => last.count(), { timeout: 15_000 }).toBe(2)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "player", ready((p) => bodyRows(p, "Last kills and deaths of the player").first().waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the watchlist adds Carl by Steam64 with a note, named from the logs, and removes him after a confirmation", async () => {
    const page = admin.page
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Watchlist" }).click()
    await waitForHeading(admin, "Watchlist")
    await page.getByText("Nobody is watched.").waitFor({ timeout: 15_000 })
    const form = page.getByRole("form", { name: "Watch a player" })
    await form.getByLabel(/^Player/).fill(CARL.steam64)
    await form.getByLabel("Note").fill(WATCH_NOTE)
    await form.getByRole("button", { name: "Add to the watchlist" }).click()
    await toast(admin, "Player added to the watchlist")
    const row = bodyRows(admin, "Watched players").filter({ hasText: WATCH_NOTE })
    await row.getByText(CARL.name).waitFor({ timeout: 15_000 })
    await row.getByText(CARL.steam64).waitFor()
    const listed = (await api("GET", "/api/watchlist")).body as { items: ReadonlyArray<{ playerId: string; note: string; name: string | null }> }
    expect(listed.items).toEqual([expect.objectContaining({ playerId: CARL.id, note: WATCH_NOTE, name: CARL.name })])
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "watchlist", ready((p) => bodyRows(p, "Watched players").first().waitFor({ timeout: 15_000 })))

    await row.getByRole("button", { name: `Remove ${CARL.name} from the watchlist` }).click()
    await page.getByRole("dialog", { name: `Stop watching ${CARL.name}?` }).getByRole("button", { name: "Remove" }).click()
    await toast(admin, "Removed from the watchlist")
    await page.getByText("Nobody is watched.").waitFor({ timeout: 15_000 })
    expect(((await api("GET", "/api/watchlist")).body as { items: ReadonlyArray<unknown> }).items).toEqual([])
    expect(admin.problems()).toEqual(noProblems)
  })

  it("the live map draws one labelled marker per player over the tiles; a player list appended to the log adds one through the stream", async () => {
    const page = admin.page
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Live map" }).click()
    await waitForHeading(admin, "Live map")
    // `/map` opens the first server's map.
    await page.waitForURL(`${baseUrl}/map/${one.id}`, { timeout: 15_000 })
    await page.getByRole("region", { name: "Map of Chernarus One (Chernarus)" }).waitFor({ timeout: 15_000 })
    await expect.poll(() => markers(admin).count(), { timeout: 15_000 }).toBe(3)
    for (const p of [ALICE, BOB, CARL]) await label(admin, p.name).filter({ hasText: / · \d+ (s|min) ago$/ }).waitFor({ timeout: 15_000 })
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor({ timeout: 15_000 })
    // Placed as the positions say: Alice west and north of Bob, Carl east and south of him.
    const box = async (p: Player) => (await page.locator(`.live-map path.map-player[data-player="${p.id}"]`).boundingBox())!
    const [alice, bob, carl] = [await box(ALICE), await box(BOB), await box(CARL)]
    expect(alice.x).toBeLessThan(bob.x)
    expect(bob.x).toBeLessThan(carl.x)
    expect(alice.y).toBeLessThan(bob.y)
    expect(bob.y).toBeLessThan(carl.y)
    // Linear, one scale on both axes (pixels per metre east and north alike).
    const east = (alice.x - bob.x) / (2500.5 - 7600)
    const north = (bob.y - alice.y) / (9800.2 - 7600)
    expect((carl.x - bob.x) / (12400.8 - 7600)).toBeCloseTo(east, 2)
    expect(Math.abs(east - north) / east).toBeLessThan(0.05)
    // Tiles come through the tile route from the (fake) source; none failed.
    await expect.poll(() => tileRequests.some((url) => url.startsWith("/tiles/chernarusplus/topographic/")), { timeout: 15_000 }).toBe(true)
    expect(await page.getByText("Some map tiles could not be loaded").count()).toBe(0)
    await expect.poll(() => bodyRows(admin, "Players on the map").count()).toBe(3)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "map", ready((p) => p.page.locator(".live-map path.map-player").nth(2).waitFor({ timeout: 15_000 })))

    await page.evaluate("window.__stayed = true")
    const now = Date.now() - 30_000
    appendFileSync(admFile(one.install), connected(now, DANA) + playerList(now, [[DANA, POS.dana]]))
    await expect.poll(() => markers(admin).count(), { timeout: 15_000 }).toBe(4)
    await label(admin, DANA.name).waitFor({ timeout: 15_000 })
    expect((await box(DANA)).y).toBeLessThan(alice.y)
    expect(await page.evaluate("window.__stayed === true")).toBe(true)
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a server whose map is unknown: its positions on a plain grid, with a message", async () => {
    const page = admin.page
    const tilesBefore = tileRequests.length
    await page.getByRole("combobox", { name: "Server" }).selectOption(two.id)
    await page.waitForURL(`${baseUrl}/map/${two.id}`, { timeout: 15_000 })
    await page.getByRole("note").getByText(/does not know this server's map \(mission dayzOffline\.mysteryisle\): positions are drawn on a plain 18\.4 km square grid/).waitFor({
      timeout: 15_000
    })
    await page.getByRole("region", { name: "Map of Mystery Isle" }).waitFor()
    expect(await page.locator(".live-map path.map-grid").count()).toBeGreaterThan(10)
    await expect.poll(() => markers(admin).count(), { timeout: 15_000 }).toBe(2)
    await label(admin, FRANK.name).waitFor()
    expect(await page.locator(".live-map img.leaflet-tile").count()).toBe(0)
    expect(tileRequests.length).toBe(tilesBefore)
    await waitForFirstLoad(admin)
    await suite.checkAtBothWidths(admin, "map-unknown", ready((p) => p.page.getByRole("note").waitFor({ timeout: 15_000 })))
    expect(admin.problems()).toEqual(noProblems)
  })

  it("a user scoped to server one sees its kills only, no player history, and New season on that server", async () => {
    const keeper = await browser.open(`${baseUrl}/killfeed`, { viewport: "desktop", signIn: KEEPER })
    try {
      const page = keeper.page
      await waitForHeading(keeper, "Kill feed")
      const nav = page.getByRole("navigation", { name: "Main" })
      await nav.getByRole("link", { name: "Leaderboard" }).waitFor()
      expect(await nav.getByRole("link", { name: "Player history" }).count()).toBe(0)
      const rows = bodyRows(keeper, "Kills, newest first")
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(5)
      expect(await killTable(keeper).textContent()).not.toContain(FRANK.name)
      // Names are not links without players.view.
      expect(await killTable(keeper).getByRole("link").count()).toBe(0)

      await nav.getByRole("link", { name: "Leaderboard" }).click()
      await waitForHeading(keeper, "Leaderboard")
      const server = page.getByRole("combobox", { name: "Server" })
      expect(await server.locator("option").allTextContents()).toEqual(["All servers (current seasons)", "Chernarus One"])
      await server.selectOption(one.id)
      await page.getByRole("button", { name: "New season…" }).waitFor({ timeout: 15_000 })
      // Server one's season 2 (the admin's) has no kill yet.
      await page.getByText("No kills in this season yet.").waitFor({ timeout: 15_000 })
      await waitForFirstLoad(keeper)
      expect(keeper.responses().filter((r) => r.url.includes("/api/player-history"))).toEqual([])
      expect(keeper.responses().filter((r) => r.status >= 400)).toEqual([])
      expect(keeper.problems()).toEqual(noProblems)
    } finally {
      await keeper.close()
    }
  })
})
