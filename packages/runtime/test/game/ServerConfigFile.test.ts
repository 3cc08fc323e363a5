/**
 * `serverDZ.cfg` in place: a file nobody changed prints back byte for byte,
 * an edit changes the value's characters and nothing else, added keys go
 * before the class blocks, and what DayZ would refuse is reported with its
 * line.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { editServerConfig, findSetting, parseServerConfig, writeConfigValue } from "../../src/game/ServerConfigFile.js"

const SAMPLE = [
  'hostname = "EXAMPLE NAME";  // Server name',
  'password = "";              // Password to connect to the server',
  'passwordAdmin = "s3cret";   // Password to become a server admin',
  "",
  "/* whitelist and",
  "   the lists */",
  "enableWhitelist = 0;",
  "maxPlayers=60;",
  "verifySignatures = 2;      // 2 only",
  "forceSameBuild = 1;",
  'motd[] = {"Welcome", "Be nice; no KOS"};',
  "motdInterval = 1.5;",
  'customKey = "kept as it is";',
  "",
  "class Missions",
  "{",
  "    class DayZ",
  "    {",
  '        template = "dayzOffline.chernarusplus"; // the map',
  "    };",
  "};",
  ""
]

describe("serverDZ.cfg", () => {
  it("reads settings, arrays and the mission template; prints an untouched file back byte for byte", () => {
    for (const eol of ["\n", "\r\n"]) {
      const text = SAMPLE.join(eol)
      const config = parseServerConfig(text)
      expect(config.problems).toEqual([])
      expect(editServerConfig(config, [])).toBe(text)
      expect(findSetting(config, "hostname")?.value).toBe("EXAMPLE NAME")
      expect(findSetting(config, "maxplayers")?.value).toBe(60)
      expect(findSetting(config, "motd")).toMatchObject({ array: true, value: ["Welcome", "Be nice; no KOS"] })
      expect(findSetting(config, "motdInterval")?.value).toBe(1.5)
      expect(findSetting(config, "template", ["Missions", "DayZ"])).toMatchObject({ value: "dayzOffline.chernarusplus", line: 19 })
      expect(findSetting(config, "template")).toBeUndefined()
    }
  })

  it("an edit rewrites the value's characters only; added keys go before the first class", () => {
    const text = SAMPLE.join("\r\n")
    const edited = editServerConfig(parseServerConfig(text), [
      { key: "hostname", value: 'My "Best" Server' },
      { key: "maxPlayers", value: 80 },
      { key: "template", value: "dayzOffline.enoch", path: ["Missions", "DayZ"] },
      { key: "instanceId", value: 3 }
    ])
    const before = text.split("\r\n")
    const after = edited.split("\r\n")
    expect(after[0]).toBe('hostname = "My ""Best"" Server";  // Server name')
    expect(after[7]).toBe("maxPlayers=80;")
    expect(after[13]).toBe("")
    expect(after[14]).toBe("instanceId = 3;")
    expect(after[15]).toBe("class Missions")
    expect(after[19]).toBe('        template = "dayzOffline.enoch"; // the map')
    // Every other line is as it was.
    const untouched = after.filter((_, i) => ![0, 7, 14, 19].includes(i))
    expect(untouched).toEqual(before.filter((_, i) => ![0, 7, 18].includes(i)))
    const reread = parseServerConfig(edited)
    expect(findSetting(reread, "hostname")?.value).toBe('My "Best" Server')
    expect(findSetting(reread, "instanceId")?.value).toBe(3)
    expect(() => editServerConfig(parseServerConfig("a = 1;\n"), [{ key: "template", value: "x.y", path: ["Missions", "DayZ"] }])).toThrow()
  })

  it("reports what DayZ would refuse, with the line", () => {
    const missing = parseServerConfig('hostname = "A";\nmaxPlayers = 60\nenableWhitelist = 0;\n')
    expect(missing.problems).toEqual([{ line: 2, message: 'maxPlayers: the line has no ";" at its end' }])
    expect(findSetting(missing, "enableWhitelist")?.value).toBe(0)
    expect(parseServerConfig('hostname = "A;\n').problems[0]?.message).toContain("never closed")
    expect(parseServerConfig("class Missions {\n").problems[0]?.message).toContain("never closed")
    expect(parseServerConfig("/* open").problems[0]?.message).toContain("never closed")
  })

  it("any single-line value written is read back, and every other setting keeps its text", () => {
    const text = SAMPLE.join("\n")
    const config = parseServerConfig(text)
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }).filter((s) => !/[\r\n]/.test(s)), fc.integer({ min: 0, max: 999 }), (hostname, players) => {
        const edited = parseServerConfig(editServerConfig(config, [{ key: "hostname", value: hostname }, { key: "maxPlayers", value: players }]))
        expect(edited.problems).toEqual([])
        expect(findSetting(edited, "hostname")?.value).toBe(hostname)
        expect(findSetting(edited, "maxPlayers")?.value).toBe(players)
        for (const setting of config.settings.filter((s) => s.key !== "hostname" && s.key !== "maxPlayers")) {
          expect(findSetting(edited, setting.key, setting.path)?.raw).toBe(setting.raw)
        }
      }),
      { numRuns: 200 }
    )
    expect(writeConfigValue(["a", 1])).toBe('{"a", 1}')
  })
})
