/**
 * Issue 32's federation over two real controllers on loopback: Alpha
 * exports its pool to a partner key; Bravo subscribes with a policy
 * (cheating only, one player exempt). A pull makes Alpha's active bans that
 * pass the policy local bans on Bravo (source `trust:alpha`, in its
 * server's ban.txt); Alpha's overturn is a tombstone that lifts Bravo's ban
 * at the next pull; a ban Bravo made by hand is neither taken over nor
 * lifted by the feed.
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFleet, until } from "../support/fleet.js"
import type { SimInstall } from "../support/sim.js"

const CHEATER = "76561198030000001"
const GRIEFER = "76561198030000002"
const EXEMPT = "76561198030000003"
const BOTH = "76561198030000004"

// Alpha activates a ban on its own vouch (a threshold of 1), so a test needs no third community.
const alpha = makeFleet({ env: { TRUST_THRESHOLD: "1", TRUST_COMMUNITY_NAME: "Alpha" } })
const bravo = makeFleet({ env: { TRUST_COMMUNITY_NAME: "Bravo" } })
afterAll(async () => {
  await bravo.close()
  await alpha.close()
})

let install: SimInstall
let subscriptionId: string
const poolIds = new Map<string, string>()

const banTxt = () => {
  try {
    return readFileSync(NodePath.join(install.dir, "ban.txt"), "utf8")
  } catch {
    return ""
  }
}

/** A ban on Alpha, submitted to its pool (active at once there); the pool ban's id. */
const alphaBan = async (platformId: string, reasonCategory: string) => {
  const ban = await alpha.api("POST", "/api/bans", { platformId, playerName: `P${platformId.slice(-2)}`, reason: "seen on video" })
  expect(ban.status, JSON.stringify(ban.body)).toBe(201)
  const submitted = await alpha.api("POST", "/api/trust/submissions", { banId: (ban.body as { id: string }).id, reasonCategory, note: "private to Alpha" })
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
  expect(submitted.body).toMatchObject({ status: "active" })
  poolIds.set(platformId, (submitted.body as { id: string }).id)
}

const bravoBans = async () => ((await bravo.api("GET", "/api/bans?limit=100")).body as { items: Array<{ platformId: string; source: string; id: string }> }).items
const pull = async () => {
  const report = await bravo.api("POST", `/api/trust/subscriptions/${subscriptionId}/pull`)
  expect(report.status, JSON.stringify(report.body)).toBe(200)
  return report.body as { read: number; banned: number; lifted: number; skipped: number; subscription: { lastError: string | null } }
}

beforeAll(async () => {
  await alpha.startController()
  await bravo.startController()
  install = await bravo.installSim()
  expect((await bravo.createServer(install, "Bravo One")).status).toBe(201)
}, 90_000)

describe.sequential("two Garrison instances: Bravo follows Alpha's export", { timeout: 60_000 }, () => {
  it("a pull turns Alpha's active bans that pass Bravo's policy into local bans, in ban.txt", async () => {
    await alphaBan(CHEATER, "cheating")
    await alphaBan(GRIEFER, "griefing")
    await alphaBan(EXEMPT, "cheating")
    // Bravo banned BOTH by hand before Alpha did.
    expect((await bravo.api("POST", "/api/bans", { platformId: BOTH, playerName: "Both", reason: "our own ban" })).status).toBe(201)
    await alphaBan(BOTH, "cheating")

    const key = await alpha.api("POST", "/api/trust/partner-keys", { name: "Bravo", tier: "partner" })
    expect(key.status).toBe(201)
    const created = await bravo.api("POST", "/api/trust/subscriptions", {
      name: "alpha",
      baseUrl: alpha.baseUrl(),
      partnerKey: (key.body as { key: string }).key,
      categories: ["cheating"],
      exemptions: [EXEMPT]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(JSON.stringify(created.body)).not.toContain((key.body as { key: string }).key)
    subscriptionId = (created.body as { id: string }).id

    const report = await pull()
    expect(report).toMatchObject({ read: 4, banned: 1, lifted: 0, skipped: 3, subscription: { lastError: null } })
    const bans = await bravoBans()
    expect(bans.find((b) => b.platformId === CHEATER)).toMatchObject({ source: "trust:alpha" })
    expect(bans.some((b) => b.platformId === GRIEFER || b.platformId === EXEMPT)).toBe(false)
    expect(bans.find((b) => b.platformId === BOTH)).toMatchObject({ source: "manual" })
    await until(banTxt, (text) => text.includes(CHEATER), 10_000, "ban.txt to hold the feed's ban")
    // A second pull reads nothing new.
    expect(await pull()).toMatchObject({ read: 0, banned: 0 })
  })

  it("Alpha's overturn is a tombstone: the next pull lifts Bravo's ban; Bravo's own ban stays", async () => {
    for (const player of [CHEATER, BOTH]) {
      const overturned = await alpha.api("POST", `/api/trust/pool/${poolIds.get(player)}/overturn`, { note: "appeal approved" })
      expect(overturned.status, JSON.stringify(overturned.body)).toBe(200)
    }
    expect(await pull()).toMatchObject({ read: 2, lifted: 1, banned: 0 })
    const bans = await bravoBans()
    expect(bans.some((b) => b.platformId === CHEATER)).toBe(false)
    expect(bans.find((b) => b.platformId === BOTH)).toMatchObject({ source: "manual" })
    await until(banTxt, (text) => !text.includes(CHEATER) && text.includes(BOTH), 10_000, "ban.txt to drop the lifted ban")
  })

  it("a wrong partner key is recorded as the pull's error; Alpha's lookup answers for Bravo's players too", async () => {
    expect((await bravo.api("PATCH", `/api/trust/subscriptions/${subscriptionId}`, { partnerKey: "gtp_wrong-key-0123456789" })).status).toBe(200)
    const report = await pull()
    expect(report.subscription.lastError).toContain("401")
    // The partner "moved" somewhere nothing listens: the pull says so; back at its address, the right key reads on.
    expect((await bravo.api("PATCH", `/api/trust/subscriptions/${subscriptionId}`, { baseUrl: "http://127.0.0.1:9" })).status).toBe(200)
    expect((await pull()).subscription.lastError).toContain("cannot read the partner's export")
    expect((await bravo.api("PATCH", `/api/trust/subscriptions/${subscriptionId}`, { baseUrl: "ftp://x" })).status).toBe(400)
    const lookup = await alpha.api("GET", `/api/v1/trust/${GRIEFER}`)
    expect(lookup.body).toMatchObject({ band: "banned", signals: { bans_active: 1 } })
    expect(JSON.stringify(lookup.body)).not.toContain("private to Alpha")
  })
})
