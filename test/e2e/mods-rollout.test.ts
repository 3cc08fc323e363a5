/**
 * Mods, SteamCMD and safe rollouts over real processes: the built
 * controller, the SteamCMD stand-in (`examples/sim-steamcmd`, installed by
 * its own installer) with its Steam Web API, and the simulated DayZ server
 * the stand-in downloads. One story, in order: the Steam account is
 * checked, a server is deployed, two mods are installed and loaded, a new
 * version is rolled out (lock, kick, stop, update, start, check), a broken
 * version is rolled back, an update is cancelled halfway, and bad input is
 * refused with the server's files as they were.
 *
 * The rollout's warnings wait minutes: the unit tests drive them with the
 * TestClock; here the rollouts run with `now`.
 *
 * Needs the build (`npm run build`).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  publishAppBuild,
  publishItemVersion,
  readCatalogue,
  setBehaviour,
  startWebApi,
  type WebApi,
  writeCatalogue
} from "../../examples/sim-steamcmd/src/index.js"
import { makeTempDir, removeDir, repoRoot } from "../support/controller.js"
import { fleetSimArgs, handoff, isAlive, makeFleet, rptContains, until } from "../support/fleet.js"
import { freeRconPort, freeUdpPort, readRpt, type SimInstall } from "../support/sim.js"

const CF = "1559212036"
const COT = "1564026768"
const VPP = "1828439124"
const LOADER = "2545327648"

const steamDir = makeTempDir("garrison-e2e-steam-")
const deployDir = makeTempDir("garrison-e2e-deploy-")
let webApi: WebApi | undefined
let steamcmdPath = ""

const installer = spawnSync(process.execPath, [NodePath.join(repoRoot, "examples/sim-steamcmd/dist/install.js"), steamDir], { encoding: "utf8" })
steamcmdPath = installer.stdout.trim().split("\n").at(-1) ?? ""

const fleet = makeFleet({ env: { STEAMCMD_PATH: steamcmdPath, DEPLOY_DIR: deployDir, STEAM_WEB_API_URL: "http://127.0.0.1:9" } })

beforeAll(async () => {
  expect(installer.status, installer.stderr).toBe(0)
  expect(existsSync(steamcmdPath)).toBe(true)
  webApi = await startWebApi({ dir: steamDir })
  await fleet.startController()
  // Where the Web API is, set at run time as an operator would.
  const set = await fleet.api("PATCH", "/api/platform/settings", { webApiUrl: webApi.url })
  expect(set.status).toBe(200)
})

afterAll(async () => {
  await fleet.close()
  await webApi?.close()
  removeDir(steamDir)
  removeDir(deployDir)
})

interface Job {
  readonly id: string
  readonly state: string
  readonly error: string | null
  readonly mod: { readonly name: string } | null
}
interface Rollout {
  readonly state: string
  readonly phase: string
  readonly error: string | null
  readonly log: ReadonlyArray<string>
}

const jobEnd = (id: string) =>
  until(
    async () => ((await fleet.api("GET", "/api/mods/install-status")).body as { items: ReadonlyArray<Job> }).items.find((j) => j.id === id),
    (job) => job !== undefined && (job.state === "done" || job.state === "failed"),
    30_000,
    `mod job ${id} to end`
  ) as Promise<Job>

const install = async (serverId: string, body: Record<string, unknown>) => {
  const started = await fleet.api("POST", `/api/servers/${serverId}/mods/install`, body)
  expect(started.status, JSON.stringify(started.body)).toBe(202)
  return jobEnd((started.body as Job).id)
}

const rolloutEnd = (serverId: string) =>
  until(
    async () => (await fleet.api("GET", `/api/servers/${serverId}/rollout/status`)).body as Rollout,
    (status) => status.state !== "running",
    90_000,
    "the rollout to end"
  )

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")

const deployed = handoff<{ id: string; dir: string; install: SimInstall }>("deploy")

describe.sequential("mods, SteamCMD and rollouts with the stand-ins", () => {
  it("checks the Steam account through SteamCMD: a wrong password is 400, Steam Guard is 409 until its code", { timeout: 60_000 }, async () => {
    const wrong = await fleet.api("POST", "/api/platform/credentials", { username: "garrison_bot", password: "wrong-password" })
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(wrong.body)).not.toContain("wrong-password")
    const guard = await fleet.api("POST", "/api/platform/credentials", { username: "guarded_admin", password: "battery-staple" })
    expect(guard.status).toBe(409)
    expect((guard.body as { details: unknown }).details).toEqual({ needs: "guardCode" })
    const coded = await fleet.api("POST", "/api/platform/credentials", { username: "guarded_admin", password: "battery-staple", guardCode: "F4K3C" })
    expect(coded.status).toBe(200)
    const ok = await fleet.api("POST", "/api/platform/credentials", { username: "garrison_bot", password: "correct-horse" })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ username: "garrison_bot", validated: true })
    expect((await fleet.api("GET", "/api/platform/status")).body).toMatchObject({ steamcmd: { available: true }, credentials: { configured: true } })
  })

  it("deploys a server: a new folder, an entry, the game downloaded through SteamCMD with progress", { timeout: 90_000 }, async () => {
    const gamePort = await freeUdpPort()
    const started = await fleet.api("POST", "/api/deploy", { name: "Deployed", installDir: "chernarus", gamePort })
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const { serverId } = started.body as { serverId: string }
    const done = await until(
      async () => (await fleet.api("GET", `/api/servers/${serverId}/update/status`)).body as { state: string; buildId: string | null; appId: string | null },
      (s) => s.state !== "running",
      60_000,
      "the deploy's download"
    )
    expect(done).toMatchObject({ state: "done", appId: "223350", buildId: "1000" })
    const dir = NodePath.join(deployDir, "chernarus")
    expect(existsSync(NodePath.join(dir, "DayZServer"))).toBe(true)
    // Ports of its own (the download brings DayZ's defaults), and the quiet simulator settings.
    const rconPort = await freeRconPort()
    const beConfig = NodePath.join(dir, "battleye", "beserver_x64.cfg")
    writeFileSync(beConfig, readFileSync(beConfig, "utf8").replace(/RConPort \d+/, `RConPort ${rconPort}`))
    const password = /RConPassword (\S+)/.exec(readFileSync(beConfig, "utf8"))![1]!
    const patched = await fleet.api("PATCH", `/api/servers/${serverId}`, {
      rcon: { protocol: "battleye", host: "127.0.0.1", port: rconPort, password },
      extraArgs: fleetSimArgs,
      stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    deployed.set({ id: serverId, dir, install: { dir, profiles: NodePath.join(dir, "profiles"), rconPort, rconPassword: password, gamePort, executable: NodePath.join(dir, "DayZServer"), report: "", remove: () => undefined } })
  })

  it("installs a client and a server mod: @name folders, keys, and -mod= / -serverMod= in the started process", { timeout: 90_000 }, async () => {
    const { id, dir, install: sim } = deployed.get()
    expect((await install(id, { workshopId: CF })).mod?.name).toBe("@cf")
    expect((await install(id, { workshopId: LOADER, type: "server" })).mod?.name).toBe("@dayz-editor-loader")
    expect(existsSync(NodePath.join(dir, "@cf", "meta.cpp"))).toBe(true)
    // Beside the game's own key.
    expect(readdirSync(NodePath.join(dir, "keys"))).toEqual(expect.arrayContaining(["CF.bikey", "InclementDab.bikey"]))

    expect((await fleet.api("POST", `/api/servers/${id}/start`)).status).toBe(200)
    const running = await fleet.rconConnected(id, 30_000)
    fleet.trackGameProcess(running.pid!)
    const args = commandLine(running.pid!)
    expect(args).toContain("-mod=@cf")
    expect(args).toContain("-serverMod=@dayz-editor-loader")
    await rptContains(sim, "Loading mod '@cf'", 10_000)
    expect(await readRpt(sim)).not.toContain("not found")
  })

  it("rolls a new version out to the running server: lock, kick, stop, update, start, check", { timeout: 120_000 }, async () => {
    const { id, dir, install: sim } = deployed.get()
    publishItemVersion(steamDir, CF)
    const check = await fleet.api("POST", `/api/servers/${id}/mods/check-updates`)
    expect((check.body as { pending: ReadonlyArray<{ workshopId: string }> }).pending.map((m) => m.workshopId)).toEqual([CF])
    const policy = await fleet.api("PUT", `/api/servers/${id}/rollout/policy`, {
      warnings: [1],
      warningMessage: "Restart for updates in {minutes} minute(s)",
      kickMessage: "Updating mods, back soon",
      lock: true,
      checkWindowSeconds: 10
    })
    expect(policy.status).toBe(200)
    const before = (await fleet.status(id)).pid!
    const meta = readFileSync(NodePath.join(dir, "@cf", "meta.cpp"), "utf8")

    const started = await fleet.api("POST", `/api/servers/${id}/rollout`, { now: true })
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const ended = await rolloutEnd(id)
    expect(ended.state, JSON.stringify(ended.log)).toBe("done")
    const log = ended.log.join("\n")
    expect(log).toContain("locked the server")
    expect(log).toContain("kicked")
    expect(log).toContain("put on @cf")
    const after = await fleet.rconConnected(id, 30_000)
    fleet.trackGameProcess(after.pid!)
    expect(after.pid).not.toBe(before)
    expect(isAlive(before)).toBe(false)
    expect(readFileSync(NodePath.join(dir, "@cf", "meta.cpp"), "utf8")).not.toBe(meta)
    await rptContains(sim, "Loading mod '@cf'", 10_000)
    // The backups plugin's hook made a pre-update backup before the new version went on.
    const backups = await fleet.api("GET", `/api/servers/${id}/backups?type=pre-update`)
    expect((backups.body as { total: number }).total).toBe(1)
    // The rows written on the server actor's operation, after the request, name who started the rollout by id and
    // name (the fleet's caller "e2e", whose id is its name): the rollout's, the pre-update backup's, the mod's.
    type Row = { readonly actor: string | null; readonly actorName: string | null; readonly details: Record<string, unknown> | null }
    const rows = async (action: string) => ((await fleet.api("GET", `/api/audit?action=${action}`)).body as { items: ReadonlyArray<Row> }).items
    const done = await until(() => rows("rollout.done"), (found) => found.length === 1, 10_000, "the rollout's audit row")
    expect(done[0]).toMatchObject({ actor: "e2e", actorName: "e2e" })
    const preUpdate = (await rows("backup.created")).filter((row) => row.details?.["type"] === "pre-update")
    expect(preUpdate.map((row) => [row.actor, row.actorName])).toEqual([["e2e", "e2e"]])
    const modUpdates = (await rows("mods.update")).filter((row) => row.details?.["rollout"] === true)
    expect(modUpdates.map((row) => [row.actor, row.actorName])).toEqual([["e2e", "e2e"]])
  })

  it("rolls a broken version back: the server crashes on it, gets the previous version and runs again", { timeout: 120_000 }, async () => {
    const { id, dir } = deployed.get()
    publishItemVersion(steamDir, CF, { crashOnLoad: true })
    await fleet.api("POST", `/api/servers/${id}/mods/check-updates`)
    const started = await fleet.api("POST", `/api/servers/${id}/rollout`, { now: true })
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const ended = await rolloutEnd(id)
    expect(ended.state, JSON.stringify(ended.log)).toBe("rolled-back")
    expect(ended.error).toMatch(/crashed|failed to load/)
    expect(ended.log.at(-1)).toContain("runs the previous versions again")
    const pbos = readdirSync(NodePath.join(dir, "@cf", "addons")).filter((f) => f.endsWith(".pbo"))
    for (const pbo of pbos) expect(readFileSync(NodePath.join(dir, "@cf", "addons", pbo), "latin1")).not.toContain("GARRISON-SIM-CRASH-ON-LOAD")
    const running = await fleet.rconConnected(id, 30_000)
    fleet.trackGameProcess(running.pid!)
    const mods = (await fleet.api("GET", `/api/servers/${id}/mods`)).body as { items: ReadonlyArray<{ workshopId: string; heldUpdate: string | null }> }
    expect(mods.items.find((m) => m.workshopId === CF)?.heldUpdate).not.toBeNull()
  })

  it("cancels a game update halfway: SteamCMD ends, the server is left stopped", { timeout: 90_000 }, async () => {
    const { id } = deployed.get()
    expect((await fleet.api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
    publishAppBuild(steamDir, "223350")
    setBehaviour(steamDir, { bytesPerSecond: 100_000 })
    expect((await fleet.api("POST", `/api/servers/${id}/update`)).status).toBe(202)
    await until(
      async () => (await fleet.api("GET", `/api/servers/${id}/update/status`)).body as { percent: number },
      (s) => s.percent > 0,
      20_000,
      "download progress"
    )
    expect((await fleet.status(id)).status).toBe("updating")
    const cancelled = await fleet.api("POST", `/api/servers/${id}/update/cancel`)
    expect(cancelled.body).toMatchObject({ state: "cancelled" })
    expect((await fleet.status(id)).status).toBe("stopped")
    const steamProcesses = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(steamDir)
      } catch {
        return false
      }
    })
    expect(steamProcesses).toEqual([])
    setBehaviour(steamDir, { bytesPerSecond: 20_000_000 })
    expect((await fleet.api("GET", `/api/servers/${id}/update/status`)).body).toMatchObject({ buildId: "1000" })
  })

  it("refuses bad input and leaves the server's files as they were", { timeout: 90_000 }, async () => {
    const { id, dir } = deployed.get()
    const unknown = await fleet.api("POST", `/api/servers/${id}/mods/install`, { workshopId: "999999" })
    expect(unknown.status).toBe(400)
    const before = readdirSync(dir).sort()
    setBehaviour(steamDir, { diskFreeBytes: 1_000 })
    const full = await install(id, { workshopId: COT })
    expect(full.state).toBe("failed")
    expect(full.error).toContain("disk space")
    expect(readdirSync(dir).sort()).toEqual(before)
    setBehaviour(steamDir, { diskFreeBytes: null })

    const catalogue = readCatalogue(steamDir)
    writeCatalogue(steamDir, { ...catalogue, items: { ...catalogue.items, [VPP]: { ...catalogue.items[VPP]!, name: "../../x" } } })
    expect((await install(id, { workshopId: VPP })).mod?.name).toBe("@x")
    expect(existsSync(NodePath.join(dir, "@x", "meta.cpp"))).toBe(true)
    expect(existsSync(NodePath.join(dir, "..", "x"))).toBe(false)
    expect(existsSync(NodePath.join(deployDir, "x"))).toBe(false)
  })
})
