/**
 * Issue 6's priority "Done when", over real processes: a priority entry
 * added through the API appears in the simulated server's `priority.txt`,
 * the file is rewritten before the start, and the full server (max 1
 * player) still lets the priority player in while refusing another. A
 * delete empties the file.
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
const VIP = "76561198012345678"
const FILLER = "76561198000000002"
const OTHER = "76561198000000003"

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

describe("priority queue over a real server", () => {
  it("an entry lands in priority.txt and lets its player into a full server", { timeout: 90_000 }, async () => {
    const install: SimInstall = await installSim({ maxPlayers: 1 })
    cleanups.push(() => install.remove())
    const dataDir = makeTempDir()
    cleanups.push(() => removeDir(dataDir))
    const controller = await startController({ dataDir, plugins: [testPlugins.auth], env: ENV, logLevel: "Warning" })
    cleanups.push(() => stopProcess(controller))
    const api = (method: string, path: string, body?: unknown) =>
      requestJson(controller.baseUrl, method, path, { headers: AUTH, timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })
    const priorityTxt = () => readFileSync(NodePath.join(install.dir, "priority.txt"), "utf8")
    const rpt = (text: string) => until(() => readRpt(install), (t) => t.includes(text), 10_000, `"${text}" in the RPT`)

    const created = await api("POST", "/api/servers", {
      name: "Sim P",
      installDir: install.dir,
      gamePort: install.gamePort,
      extraArgs: simArgs,
      stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body as { id: string }).id

    // Added in Steam2 form; the file holds Steam64.
    const added = await api("POST", "/api/priority-queue", { platformId: "STEAM_0:0:26039975", name: "Bravo17", role: "VIP", expiresAt: null })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const entryId = (added.body as { id: string }).id
    expect(priorityTxt()).toBe(VIP)

    // The start rewrites it first, whatever was there.
    const started = await api("POST", `/api/servers/${id}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    expect(priorityTxt()).toBe(VIP)
    await until(
      async () => ((await api("GET", `/api/servers/${id}/status`)).body as { rconStatus: string | null }).rconStatus,
      (s) => s === "connected",
      15_000,
      "the RCON session"
    )

    // Full at one player: the priority player still gets in, another does not.
    const count = () => api("GET", `/api/servers/${id}/players`).then((r) => (r.body as { count: number }).count)
    simControl(install, `join ${FILLER} Filler`)
    await until(count, (n) => n === 1, 15_000, "the first player")
    simControl(install, `join ${VIP} Bravo17`)
    await until(count, (n) => n === 2, 15_000, "the priority player in a full server")
    simControl(install, `join ${OTHER} Charlie`)
    await rpt(`Player "Charlie"(steamID=${OTHER}) kicked from server: Server is full`)

    // Delete: every server's file is cleaned.
    expect((await api("DELETE", `/api/priority-queue/${entryId}`)).status).toBe(204)
    expect(priorityTxt()).toBe("")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
