/**
 * How the simulated DayZ server ends, for the process watchdog and the
 * stop escalation: SIGTERM is a clean stop, crash mode dies non-zero
 * without the termination line, hang mode ignores `#shutdown` and SIGTERM
 * until SIGKILL. Also: the install's layout, and a broken config refusing
 * to start.
 *
 * Needs the build (`npx tsc -b`).
 */
import { BattlEyeClient } from "@garrison/runtime"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { HOST } from "../support/controller.js"
import {
  installSim,
  killAllSims,
  launchSim,
  readAdm,
  readRpt,
  type SimInstall,
  stopSim,
  waitFor,
  waitForSimExit
} from "../support/sim.js"

const TERMINATION = "--- Termination successfully completed ---"
const installs: Array<SimInstall> = []
afterAll(() => {
  killAllSims()
  for (const install of installs) install.remove()
})

const fresh = async (maxPlayers?: number) => {
  const install = await installSim(maxPlayers === undefined ? {} : { maxPlayers })
  installs.push(install)
  return install
}

const rcon = (install: SimInstall, command: string) =>
  Effect.runPromise(
    Effect.scoped(
      BattlEyeClient.connect({ host: HOST, port: install.rconPort, password: install.rconPassword }).pipe(
        Effect.flatMap((client) => client.command(command))
      )
    )
  )

describe("simulated DayZ server: install and process lifecycle", () => {
  it("lays out a realistic server install", async () => {
    const install = await fresh()
    const file = (p: string) => NodePath.join(install.dir, p)
    expect(statSync(install.executable).mode & 0o777).toBe(0o755)
    expect(readFileSync(install.executable, "utf8").startsWith("#!/bin/sh\n")).toBe(true)
    const cfg = readFileSync(file("serverDZ.cfg"), "utf8")
    expect(cfg).toMatch(/^hostname = "[^"]+";/m)
    expect(cfg).toMatch(/^maxPlayers = 60;/m)
    expect(cfg).toMatch(/class Missions\s*\{\s*class DayZ\s*\{\s*template = "dayzOffline\.chernarusplus";/)
    const be = readFileSync(file("battleye/beserver_x64.cfg"), "utf8")
    expect(be).toContain(`RConPassword ${install.rconPassword}\n`)
    expect(be).toContain(`RConPort ${install.rconPort}\n`)
    expect(be).toContain("RConIP 127.0.0.1\n")
    const types = readFileSync(file("mpmissions/dayzOffline.chernarusplus/db/types.xml"), "utf8")
    expect((types.match(/<type name="/g) ?? []).length).toBeGreaterThanOrEqual(50)
    expect(types).toContain('<flags count_in_cargo="0" count_in_hoarder="0" count_in_map="1" count_in_player="0" crafted="0" deloot="0"/>')
    expect(readFileSync(file("mpmissions/dayzOffline.chernarusplus/cfgeconomycore.xml"), "utf8")).toContain(
      '<ce folder="custom">\n        <file name="types_custom.xml" type="types" />'
    )
    for (const dir of ["mpmissions/dayzOffline.chernarusplus/storage_1", "keys", "profiles"]) {
      expect(statSync(file(dir)).isDirectory()).toBe(true)
    }
    for (const name of ["ban.txt", "priority.txt", "keys/dayz.bikey"]) expect(existsSync(file(name))).toBe(true)
  })

  it("SIGTERM stops it cleanly: termination line, exit 0; the RPT reports version and map", async () => {
    const install = await fresh()
    const sim = await launchSim(install, { settings: { players: 2, joinInterval: 0 } })
    await waitFor(() => readAdm(install).split("is connected").length - 1 === 2, 10_000)
    const ended = await stopSim(sim)
    expect(ended).toEqual({ code: 0, signal: null })
    const rpt = readRpt(install)
    expect(rpt).toMatch(/^Version 1\.\d+\.\d+$/m)
    expect(rpt).toMatch(/Mission: dayzOffline\.chernarusplus$/m)
    expect(rpt).toMatch(/World: chernarusplus$/m)
    expect(rpt.trimEnd().endsWith(TERMINATION)).toBe(true)
    // The active BattlEye config exists only while running.
    expect(readdirSync(NodePath.join(install.dir, "battleye")).filter((f) => f.includes("_active_"))).toEqual([])
  })

  it("crash mode exits non-zero after N seconds, without the termination line", async () => {
    const install = await fresh()
    const sim = await launchSim(install, { settings: { crashAfter: 0.3, crashCode: 3 } })
    const ended = await waitForSimExit(sim, 10_000)
    expect(ended).toEqual({ code: 3, signal: null })
    expect(readRpt(install)).not.toContain(TERMINATION)
    expect(readRpt(install)).toContain("ErrorMessage: Simulated crash")
    expect(readdirSync(install.profiles).some((f) => f.startsWith("crash_") && f.endsWith(".log"))).toBe(true)
  })

  it("hang mode ignores #shutdown and SIGTERM; only SIGKILL ends it", async () => {
    const install = await fresh()
    const sim = await launchSim(install, { settings: { hang: 1 } })
    expect(await rcon(install, "#shutdown")).toBe("")
    sim.child.kill("SIGTERM")
    // It handled the signal (and said it ignores it)...
    await waitFor(() => readRpt(install).includes("Received SIGTERM; ignored (hang mode)"), 10_000, () => "the SIGTERM line in the RPT")
    // ...and still serves after both: a fresh RCon login and command are answered (a stopping server closes RCon first).
    expect(await rcon(install, "players")).toContain("(0 players in total)")
    expect(sim.hasExited()).toBe(false)
    expect(readRpt(install)).toContain("ignored (hang mode)")
    expect(readRpt(install)).toContain("Received SIGTERM; ignored (hang mode)")
    sim.child.kill("SIGKILL")
    expect(await waitForSimExit(sim, 5_000)).toEqual({ code: null, signal: "SIGKILL" })
    expect(readRpt(install)).not.toContain(TERMINATION)
  })

  it("a serverDZ.cfg with a missing ';' stops the start-up with an error naming the line", async () => {
    const install = await fresh()
    const cfg = NodePath.join(install.dir, "serverDZ.cfg")
    writeFileSync(cfg, readFileSync(cfg, "utf8").replace("maxPlayers = 60;", "maxPlayers = 60"))
    const sim = await launchSim(install, { waitReady: false })
    const ended = await waitForSimExit(sim, 10_000)
    expect(ended?.code).toBe(1)
    expect(sim.output()).toMatch(/serverDZ\.cfg: line \d+: expected ';'/)
  })

  it("the same seed gives the same players", async () => {
    const names = async () => {
      const install = await fresh()
      const sim = await launchSim(install, { settings: { players: 6, joinInterval: 0, seed: 42 } })
      await waitFor(() => readAdm(install).split("is connected").length - 1 === 6, 10_000)
      const reply = await rcon(install, "players")
      await stopSim(sim)
      // Identity only: ping, GUID verification and the lobby flag depend on timing.
      return reply
        .split("\n")
        .map((l) => /^(\d+)\s+(\S+)\s+-?\d+\s+([0-9a-f]{32})\((?:OK|\?)\)\s+(.*?)(?: \(Lobby\))?$/.exec(l.trim()))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => `${m[1]} ${m[2]} ${m[3]} ${m[4]}`)
    }
    const first = await names()
    expect(first).toHaveLength(6)
    expect(await names()).toEqual(first)
  })
})
