/** The simulator's own parsers and tables (its process behaviour is covered end to end in test/e2e/sim-*.test.ts). */
import { afterAll, describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { actionNames } from "../src/actions.js"
import { ConfigError, idListHas, parseCfg, parseIdList, parsePriority } from "../src/configFiles.js"
import { dayzId } from "../src/ids.js"
import { beServerCfg, serverDZCfg, TYPES, typesXml } from "../src/layout.js"
import { install, installReport, rconPortFor } from "../src/install.js"
import { parseArguments } from "../src/options.js"
import { parseScript } from "../src/script.js"

const settings = {
  hostname: "Test",
  maxPlayers: 42,
  instanceId: 3,
  template: "dayzOffline.enoch",
  rconPassword: "pw",
  rconPort: 2306,
  rconIp: "127.0.0.1"
}

describe("serverDZ.cfg", () => {
  it("parses the installed config: keys, comments, the Missions class", () => {
    const cfg = parseCfg(serverDZCfg(settings))
    expect(cfg.values.get("hostname")).toBe("Test")
    expect(cfg.values.get("maxPlayers")).toBe(42)
    expect(cfg.values.get("instanceId")).toBe(3)
    expect(cfg.classes.get("Missions")?.classes.get("DayZ")?.values.get("template")).toBe("dayzOffline.enoch")
  })

  it("reads arrays, quoted quotes and block comments", () => {
    const cfg = parseCfg(`/* a */ motd[] = {"Hello ""you""", "Bye"}; motdInterval = 1; // tail\n`)
    expect(cfg.values.get("motd[]")).toEqual(['Hello "you"', "Bye"])
    expect(cfg.values.get("motdInterval")).toBe(1)
  })

  it("a missing ';' is an error naming the line", () => {
    expect(() => parseCfg('hostname = "x";\nmaxPlayers = 60\npassword = "";\n')).toThrow(ConfigError)
    expect(() => parseCfg('hostname = "x";\nmaxPlayers = 60\npassword = "";\n')).toThrow(/line 2: expected ';'/)
    expect(() => parseCfg("class Missions { class DayZ { template = \"x\"; }; ")).toThrow(/missing '}'/)
  })
})

describe("id lists", () => {
  it("ban.txt holds Steam64 or DayZ ID lines with // comments", () => {
    const list = parseIdList(`// header\n76561198000000001 // cheater\n${dayzId("76561198000000002")}\n  \n// 76561198000000003\n`)
    expect(idListHas(list, "76561198000000001")).toBe(true)
    expect(idListHas(list, "76561198000000002")).toBe(true)
    expect(idListHas(list, "76561198000000003")).toBe(false)
  })

  it("priority.txt is Steam64 ids separated by ';'", () => {
    expect([...parsePriority("76561198000000001;76561198000000002;\n")]).toEqual(["76561198000000001", "76561198000000002"])
  })
})

describe("install layout", () => {
  it("types.xml has at least 50 types in the real shape", () => {
    expect(TYPES.length).toBeGreaterThanOrEqual(50)
    const xml = typesXml()
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n<types>')).toBe(true)
    expect(xml).toContain('<type name="ACOGOptic">')
    expect(xml).toMatch(/<usage name="Military"\/>\n {8}<usage name="Police"\/>/)
  })

  it("the BattlEye config has Key value lines", () => {
    expect(beServerCfg(settings)).toBe("RConPassword pw\nRConPort 2306\nRConIP 127.0.0.1\nRestrictRCon 0\n")
  })
})

describe("launch parameters", () => {
  it("reads the real parameters and -sim settings, the environment as fallback", () => {
    const { launch, sim } = parseArguments(
      ["-config=serverDZ.cfg", "-port=2402", "-profiles=prof", "-BEpath=battleye", "-mod=@CF;@VPP", "-serverMod=@Garrison", "-dologs", "-adminlog", "-simPlayers=7", "-simHang=freeze"],
      { SIM_SEED: "9", SIM_PLAYERS: "1", SIM_MOD_POLL: "5" },
      "/srv/dayz"
    )
    expect(launch).toMatchObject({ config: "/srv/dayz/serverDZ.cfg", port: 2402, profiles: "/srv/dayz/prof", bePath: "/srv/dayz/battleye", doLogs: true, adminLog: true })
    expect(launch.mods).toEqual(["@CF", "@VPP"])
    expect(launch.serverMods).toEqual(["@Garrison"])
    expect(sim).toMatchObject({ seed: 9, players: 7, hang: "freeze", modPoll: 5, rcon: "battleye", modBatch: 10 })
    expect(sim.persistInterval).toBe(2000)
    expect(parseArguments(["-simPersistInterval=500"], { SIM_PERSIST_INTERVAL: "0" }, "/srv/dayz").sim.persistInterval).toBe(500)
    expect(parseArguments([], { SIM_PERSIST_INTERVAL: "0" }, "/srv/dayz").sim.persistInterval).toBe(0)
  })
})

describe("scripts", () => {
  it("parses times, verbs and quoted arguments", () => {
    const lines = parseScript(`# comment\nat 1.5 join 76561198012345678 "Bravo 17"\n2 chat "Bravo 17" Global hi there\nlock\n`)
    expect(lines.map((l) => [l.atSeconds, l.verb, l.args])).toEqual([
      [1.5, "join", ["76561198012345678", "Bravo 17"]],
      [2, "chat", ["Bravo 17", "Global", "hi", "there"]],
      [0, "lock", []]
    ])
  })
})

describe("companion mod actions", () => {
  it("are the agent catalogue's action names, exactly (test/catalogue.test.ts checks each)", () => {
    expect(actionNames()).toContain("player.heal")
    expect(actionNames()).toContain("vehicle.kill-engine")
    expect(actionNames()).toContain("priority-queue.add")
    expect(actionNames()).not.toContain("ping")
    expect(actionNames().length).toBeGreaterThan(100)
  })
})

describe("installer ports", () => {
  const folders: Array<string> = []
  afterAll(() => {
    for (const folder of folders) Fs.rmSync(folder, { recursive: true, force: true })
  })
  const fresh = () => {
    const dir = Fs.mkdtempSync(NodePath.join(tmpdir(), "garrison-sim-install-"))
    folders.push(dir)
    return dir
  }
  const rconPortIn = (dir: string) => Fs.readFileSync(NodePath.join(dir, "battleye/beserver_x64.cfg"), "utf8").match(/^RConPort (\d+)$/m)?.[1]

  it("derives the RCon port from the game port (+4, DayZ's layout) unless --rcon-port is given", () => {
    expect(rconPortFor(2302)).toBe(2306)
    const plain = install(fresh())
    expect([plain.gamePort, plain.rconPort]).toEqual([2302, 2306])
    const second = install(fresh(), { port: 2402 })
    expect([second.gamePort, second.rconPort, rconPortIn(second.dir)]).toEqual([2402, 2406, "2406"])
    const explicit = install(fresh(), { port: 2402, rconPort: 2410 })
    expect([explicit.rconPort, rconPortIn(explicit.dir)]).toEqual([2410, "2410"])
    expect(() => install(fresh(), { port: 65533 })).toThrow(/give --rcon-port/)
    expect(() => install(fresh(), { port: 2402, rconPort: 2402 })).toThrow(/must differ/)
  })

  it("prints both ports, the start line with -port and the entry to create", () => {
    const result = install(fresh(), { port: 2402 })
    const report = installReport(result, { port: 2402 })
    expect(report).toContain("Game port: udp 2402; RCon: udp 127.0.0.1:2406 (game port + 4)")
    expect(report).toContain(`Start: cd ${result.dir} && ./DayZServer -config=serverDZ.cfg -port=2402 -profiles=profiles`)
    expect(report).toContain(`POST /api/servers {"name":"${NodePath.basename(result.dir)}","installDir":"${result.dir}","gamePort":2402}`)
    // An existing BattlEye config is kept without --force, and the report says so.
    const again = install(result.dir, { port: 2502 })
    expect(installReport(again, { port: 2502 })).toContain(
      "RCon: udp 127.0.0.1:2406 (kept from the existing battleye/beserver_x64.cfg; --force rewrites it as 2506)"
    )
  })
})
