/**
 * Issue 6's bans "Done when", over real processes: ban a player who is
 * online (kicked), restart the server (the player cannot rejoin: ban.txt
 * holds them), delete the ban (the player can rejoin).
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { delay, makeTempDir, removeDir, requestJson, startController, stopProcess, testAuth, testPlugins } from "../support/controller.js"
import { installSim, readRpt, type SimInstall, simControl, testSimSettings } from "../support/sim.js"

const AUTH = testAuth(["admin"], "e2e")
const ENV = {
  WATCHDOG_BASE_DELAY: "300 millis",
  SERVER_STATUS_INTERVAL: "300 millis",
  RCON_RETRY_DELAY: "200 millis",
  SERVER_RESTART_BACKOFF: "200 millis",
  DB_BACKUP_INTERVAL: "365 days"
}
const STEAM64 = "76561198012345678"

const simArgs = Object.entries(testSimSettings).map(
  ([key, value]) => `-sim${key[0]!.toUpperCase()}${key.slice(1)}=${value === true ? 1 : value === false ? 0 : value}`
)

const until = async <A>(probe: () => Promise<A> | A, done: (a: A) => boolean, timeoutMs: number, what: string): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last: A | undefined
  while (Date.now() < deadline) {
    last = await probe()
    if (done(last)) return last
    await delay(100)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`)
}

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

describe("global bans over a real server", () => {
  it("ban kicks an online player, keeps them out after a restart, and lifting it lets them back", { timeout: 120_000 }, async () => {
    const install: SimInstall = await installSim()
    cleanups.push(() => install.remove())
    const dataDir = makeTempDir()
    cleanups.push(() => removeDir(dataDir))
    const controller = await startController({ dataDir, plugins: [testPlugins.auth], env: ENV, logLevel: "Warning" })
    cleanups.push(() => stopProcess(controller))
    const api = (method: string, path: string, body?: unknown) =>
      requestJson(controller.baseUrl, method, path, { headers: AUTH, timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })
    const banTxt = () => {
      try {
        return readFileSync(NodePath.join(install.dir, "ban.txt"), "utf8")
      } catch {
        return ""
      }
    }
    const rpt = (text: string) => until(() => readRpt(install), (t) => t.includes(text), 15_000, `"${text}" in the RPT`)

    const created = await api("POST", "/api/servers", {
      name: "Sim B",
      installDir: install.dir,
      gamePort: install.gamePort,
      extraArgs: simArgs,
      stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body as { id: string }).id
    const connected = () =>
      until(
        async () => ((await api("GET", `/api/servers/${id}/status`)).body as { rconStatus: string | null }).rconStatus,
        (s) => s === "connected",
        20_000,
        "the RCON session"
      )
    const players = () => api("GET", `/api/servers/${id}/players`).then((r) => r.body as { count: number; players: Array<{ slot: number; name: string }> })

    expect((await api("POST", `/api/servers/${id}/start`)).status).toBe(200)
    await connected()
    simControl(install, `join ${STEAM64} Bravo17`)
    const online = await until(players, (p) => p.count === 1, 15_000, "the player to join")
    const slot = online.players[0]!.slot

    // Banned while online: kicked at once, and ban.txt holds them.
    const banned = await api("POST", `/api/servers/${id}/players/${slot}/ban`, { reason: "cheating", expiration: "perm", platformId: STEAM64 })
    expect(banned.status, JSON.stringify(banned.body)).toBe(201)
    expect((banned.body as { kicked: Array<unknown> }).kicked).toHaveLength(1)
    const banId = (banned.body as { ban: { id: string } }).ban.id
    await until(players, (p) => p.count === 0, 15_000, "the kick")
    await until(banTxt, (t) => t.includes(STEAM64), 5_000, "ban.txt to hold the ban")

    // Restart: the hook rewrites ban.txt first; the player is refused.
    expect((await api("POST", `/api/servers/${id}/restart`)).status).toBe(200)
    await connected()
    expect(banTxt()).toContain(STEAM64)
    simControl(install, `join ${STEAM64} Bravo17`)
    await rpt(`Player "Bravo17"(steamID=${STEAM64}) kicked from server: You are banned (ban.txt)`)
    await until(players, (p) => p.count === 0, 15_000, "the refused player to stay out")

    // Lifted: the file is cleaned and the player gets in.
    expect((await api("DELETE", `/api/bans/${banId}`)).status).toBeLessThan(300)
    await until(banTxt, (t) => !t.includes(STEAM64), 5_000, "ban.txt to drop the ban")
    simControl(install, `join ${STEAM64} Bravo17`)
    await until(players, (p) => p.count === 1, 15_000, "the player to rejoin")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
