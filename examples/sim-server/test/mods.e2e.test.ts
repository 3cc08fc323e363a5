/**
 * Mods as Garrison's mod management meets them: `DayZServer` started from a
 * built install with `-mod=` and `-serverMod=` folders laid out as Garrison
 * installs workshop items (`@<name>/meta.cpp`, `addons/*.pbo` and
 * `.bisign`s, keys in `<install>/keys`), read through its RPT and exit
 * code. Needs the build (`npx tsc -b examples/sim-server`); the e2e
 * project runs it.
 */
import { tempDir } from "@garrison/testkit"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as Dgram from "node:dgram"
import * as Fs from "node:fs"
import type { AddressInfo } from "node:net"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"

const DIST = fileURLToPath(new URL("../dist/", import.meta.url))
const MARKER = "GARRISON-SIM-CRASH-ON-LOAD"
const TERMINATION = "--- Termination successfully completed ---"
/** Quiet and fast: no roster, no random events, no saving pause. */
const QUIET = ["-simPlayers=0", "-simActivity=0", "-simShutdownDelay=0", "-simPlayerListInterval=0", "-simModPoll=20", "-simControlPoll=20"]

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

interface Server {
  readonly child: ChildProcess
  readonly ended: Promise<Ended>
  readonly output: () => string
  readonly hasEnded: () => boolean
}

const servers = new Set<Server>()
afterEach(async () => {
  for (const server of servers) {
    if (!server.hasEnded()) server.child.kill("SIGKILL")
    await server.ended
  }
  servers.clear()
})

const freeUdpPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => {
      const { port } = socket.address() as AddressInfo
      socket.close(() => resolve(port))
    })
  })

/** A built install in a fresh temporary folder, with free game and RCon ports. */
const installed = async () => {
  const installer = NodePath.join(DIST, "install.js")
  if (!Fs.existsSync(installer)) throw new Error(`${installer} does not exist; run \`npx tsc -b examples/sim-server\` first`)
  const dir = tempDir("garrison-sim-mods-e2e-")
  const gamePort = await freeUdpPort()
  let rconPort = await freeUdpPort()
  while (rconPort === gamePort) rconPort = await freeUdpPort()
  execFileSync(process.execPath, [installer, dir, `--port=${gamePort}`, `--rcon-port=${rconPort}`, "--rcon-password=pw"], { stdio: "pipe" })
  return { dir, gamePort }
}

const write = (path: string, content: string | Buffer) => {
  Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
  Fs.writeFileSync(path, content)
}

/** `<install>/<folder>` as Garrison lays out a workshop item; `signedBy` also puts the key into `<install>/keys`. */
const writeMod = (
  dir: string,
  folder: string,
  mod: { meta?: string; pbos: Record<string, string>; signedBy?: string }
) => {
  const root = NodePath.join(dir, folder)
  Fs.mkdirSync(root, { recursive: true })
  if (mod.meta !== undefined) write(NodePath.join(root, "meta.cpp"), mod.meta)
  write(NodePath.join(root, "mod.cpp"), `name = "${folder}";\n`)
  for (const [pbo, content] of Object.entries(mod.pbos)) {
    write(NodePath.join(root, "addons", pbo), `\0sreV\0prefix\0${pbo}\0\0${content}`)
    if (mod.signedBy !== undefined) write(NodePath.join(root, "addons", `${pbo}.${mod.signedBy}.bisign`), `${mod.signedBy}\0signature`)
  }
  if (mod.signedBy !== undefined) {
    write(NodePath.join(root, "keys", `${mod.signedBy}.bikey`), `${mod.signedBy}\0key`)
    write(NodePath.join(dir, "keys", `${mod.signedBy}.bikey`), `${mod.signedBy}\0key`)
  }
}

/** `<install>/DayZServer` with the real parameters, from the install folder, as Garrison starts it. */
const start = (install: { dir: string; gamePort: number }, extra: ReadonlyArray<string>): Server => {
  const args = ["-config=serverDZ.cfg", `-port=${install.gamePort}`, "-profiles=profiles", "-BEpath=battleye", ...extra, "-dologs", "-adminlog", ...QUIET]
  const child = spawn(NodePath.join(install.dir, "DayZServer"), args, { cwd: install.dir, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  let done = false
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (output += text))
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (output += text))
  const ended = new Promise<Ended>((resolve) =>
    child.once("close", (code, signal) => {
      done = true
      resolve({ code, signal })
    })
  )
  const server = { child, ended, output: () => output, hasEnded: () => done }
  servers.add(server)
  return server
}

/** Polls until the simulator says it serves RCon; fails at once if it exits first. */
const ready = async (server: Server, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!server.output().includes("[sim] ready")) {
    if (server.hasEnded()) throw new Error(`the simulator exited before it was ready:\n${server.output()}`)
    if (Date.now() > deadline) throw new Error(`the simulator was not ready in ${timeoutMs} ms:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The exit within `timeoutMs`, or undefined while it still runs. */
const endedWithin = async (server: Server, timeoutMs: number): Promise<Ended | undefined> => {
  let timer: NodeJS.Timeout | undefined
  const result = await Promise.race([server.ended, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)))])
  clearTimeout(timer)
  return result
}

const rptLines = (dir: string): ReadonlyArray<string> => {
  const profiles = NodePath.join(dir, "profiles")
  const rpt = Fs.readdirSync(profiles).find((f) => f.endsWith(".RPT"))
  if (rpt === undefined) throw new Error(`no RPT in ${profiles}`)
  return Fs.readFileSync(NodePath.join(profiles, rpt), "utf8").trimEnd().split("\n")
}

/** The message of timed RPT lines (`HH:MM:SS.mmm message`). */
const messages = (lines: ReadonlyArray<string>) => lines.flatMap((l) => (/^\d\d:\d\d:\d\d\.\d{3} /.test(l) ? [l.slice(13)] : []))

/** Milliseconds since midnight of a timed RPT line. */
const timeOf = (line: string | undefined): number => {
  const m = /^(\d\d):(\d\d):(\d\d)\.(\d{3}) /.exec(line ?? "")
  if (m === null) throw new Error(`not a timed RPT line: ${line}`)
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4])
}

describe("mods", () => {
  it("logs each mod it loads, warns about a missing folder and an unsigned addon, keeps running without the marker and stops cleanly", async () => {
    const install = await installed()
    writeMod(install.dir, "@cf", {
      meta: 'protocol = 1;\npublishedid = 1559212036;\nname = "Community Framework";\ntimestamp = 133764012340000001;\n',
      pbos: { "cf.pbo": "class CfgPatches {};\n" },
      signedBy: "CF"
    })
    writeMod(install.dir, "@cot", { meta: "publishedid = 1564026768;\nname = COT;\n", pbos: { "jm_cot.pbo": "fine", "jm_cot_gui.pbo": "fine" } })
    writeMod(install.dir, "@x", { pbos: { "x.pbo": "server side" } })

    const server = start(install, ["-mod=@cf;@missing;@cot", "-serverMod=@x", "-simModCrashDelay=200"])
    await ready(server)
    const loading = messages(rptLines(install.dir)).filter((m) => /^(Loading mod|Warning: (mod|addon)|Mods:|Server mods:)/.test(m))
    expect(loading).toEqual([
      "Loading mod '@cf' (name: Community Framework, publishedid: 1559212036, timestamp: 133764012340000001)",
      "Warning: mod folder '@missing' not found",
      "Loading mod '@cot' (name: COT, publishedid: 1564026768, timestamp: ?)",
      "Loading mod '@x' (name: ?, publishedid: ?, timestamp: ?)",
      "Mods: @cf;@missing;@cot",
      "Server mods: @x",
      "Warning: addon 'jm_cot.pbo' of '@cot' has no valid signature; clients will be kicked",
      "Warning: addon 'jm_cot_gui.pbo' of '@cot' has no valid signature; clients will be kicked"
    ])

    // Well past the crash delay it still runs: nothing here is broken.
    expect(await endedWithin(server, 1_000)).toBeUndefined()
    server.child.kill("SIGTERM")
    expect(await server.ended).toEqual({ code: 0, signal: null })
    const lines = rptLines(install.dir)
    expect(lines.at(-1)).toBe(TERMINATION)
    expect(messages(lines).some((m) => m.startsWith("ERROR:") || m.includes("crashed"))).toBe(false)
  })

  it("a pbo holding the crash marker lets the server come up, then crashes it after the delay: exit 1, no termination line", async () => {
    const install = await installed()
    writeMod(install.dir, "@cf", { meta: 'name = "CF";\npublishedid = 1559212036;\n', pbos: { "cf.pbo": "fine" }, signedBy: "CF" })
    writeMod(install.dir, "@broken", {
      meta: 'name = "Broken Mod";\npublishedid = 2000000001;\ntimestamp = 1;\n',
      pbos: { "broken_core.pbo": `data\n${MARKER}\n`, "broken_gui.pbo": `data\n${MARKER}\n` },
      signedBy: "Broken"
    })

    const server = start(install, ["-mod=@cf;@broken", "--mod-crash-delay-ms=200"])
    await ready(server)
    const ended = await endedWithin(server, 10_000)
    expect(ended).toEqual({ code: 1, signal: null })

    const lines = rptLines(install.dir)
    expect(lines).not.toContain(TERMINATION)
    const said = messages(lines)
    expect(said).toContain("Loading mod '@broken' (name: Broken Mod, publishedid: 2000000001, timestamp: 1)")
    expect(said.some((m) => m.startsWith("BattlEye Server: Initialized"))).toBe(true)
    expect(said.slice(-2)).toEqual(["ERROR: mod '@broken' failed to load: corrupted addon broken_core.pbo", "Application crashed! Exiting..."])
    // It came up first and crashed the delay after.
    const up = lines.find((l) => l.endsWith(" Server is up and running"))
    const error = lines.find((l) => l.includes(" ERROR: mod '@broken'"))
    expect((timeOf(error) - timeOf(up) + 86_400_000) % 86_400_000).toBeGreaterThanOrEqual(190)
    expect(Fs.readdirSync(NodePath.join(install.dir, "profiles")).some((f) => /^crash_.*\.log$/.test(f))).toBe(true)
  })
})
