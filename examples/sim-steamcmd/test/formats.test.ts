/** The pure parts: the command line, KeyValues (.acf), the output lines, a workshop item's files. */
import { describe, expect, it } from "vitest"
import { parseAppUpdateArgs, parseCommandLine, parseWorkshopArgs } from "../src/args.js"
import { defaultCatalogue } from "../src/catalogue.js"
import { CRASH_MARKER, itemFiles, itemManifestId, totalBytes } from "../src/itemFiles.js"
import { kvBlock, kvString, parseKeyValues, writeKeyValues } from "../src/keyValues.js"
import { appManifestText } from "../src/manifests.js"
import { banner, lines, percent } from "../src/output.js"

describe("command line", () => {
  it("groups +commands with their arguments, in order; words before the first + are ignored", () => {
    expect(
      parseCommandLine(["-debug", "+force_install_dir", "/srv/my server", "+login", "user", "p+ss", "+app_update", "223350", "validate", "+quit"])
    ).toEqual([
      { name: "force_install_dir", args: ["/srv/my server"] },
      { name: "login", args: ["user", "p+ss"] },
      { name: "app_update", args: ["223350", "validate"] },
      { name: "quit", args: [] }
    ])
    expect(parseCommandLine(["+@ShutdownOnFailedCommand", "1", "+@sSteamCmdForcePlatformType", "windows"])).toEqual([
      { name: "@ShutdownOnFailedCommand", args: ["1"] },
      { name: "@sSteamCmdForcePlatformType", args: ["windows"] }
    ])
  })

  it("app_update takes -beta (ignored), -betapassword and validate in any order", () => {
    expect(parseAppUpdateArgs(["223350", "-beta", "experimental", "validate"])).toEqual({ appId: "223350", beta: "experimental", validate: true })
    expect(parseAppUpdateArgs(["223350"])).toEqual({ appId: "223350", beta: undefined, validate: false })
    expect(parseAppUpdateArgs(["-beta", "x", "-betapassword", "pw", "1042420"])).toMatchObject({ appId: "1042420", validate: false })
  })

  it("workshop_download_item takes an app id, an item id and validate", () => {
    expect(parseWorkshopArgs(["221100", "1559212036", "validate"])).toEqual({ appId: "221100", itemId: "1559212036", validate: true })
    expect(parseWorkshopArgs(["221100"])).toEqual({ appId: "221100", itemId: undefined, validate: false })
  })
})

describe("KeyValues", () => {
  it("writes Steam's layout: quoted keys, two tabs, tab-indented blocks", () => {
    expect(writeKeyValues("Root", [["a", "1"], ["block", [["b", 'say "hi" \\o/']]]])).toBe(
      '"Root"\n{\n\t"a"\t\t"1"\n\t"block"\n\t{\n\t\t"b"\t\t"say \\"hi\\" \\\\o/"\n\t}\n}\n'
    )
  })

  it("reads back what it writes, and Valve's comments and bare words", () => {
    const text = writeKeyValues("AppState", [["appid", "223350"], ["UserConfig", [["language", "english"], ["quote", 'a"b']]]])
    const [root, block] = parseKeyValues(text)
    expect(root).toBe("AppState")
    expect(kvString(block, "APPID")).toBe("223350")
    expect(kvString(kvBlock(block, "UserConfig")!, "quote")).toBe('a"b')
    expect(parseKeyValues('// comment\nRoot { key value "x" { } }')).toEqual(["Root", [["key", "value"], ["x", []]]])
    expect(() => parseKeyValues('"Root"\n{\n\t"a"\t\t"1"\n')).toThrow(/the end/)
  })

  it("an app manifest has appid, name, buildid, installdir, LastUpdated and SizeOnDisk", () => {
    expect(appManifestText({ appId: "223350", name: "DayZ Server", buildId: 1000, installDir: "dayz", lastUpdated: 1700000000, sizeOnDisk: 2000000 })).toBe(
      '"AppState"\n{\n\t"appid"\t\t"223350"\n\t"name"\t\t"DayZ Server"\n\t"buildid"\t\t"1000"\n\t"installdir"\t\t"dayz"\n' +
        '\t"LastUpdated"\t\t"1700000000"\n\t"SizeOnDisk"\t\t"2000000"\n\t"StateFlags"\t\t"4"\n}\n'
    )
  })
})

describe("output lines", () => {
  it("the banner names the stand-in's folder and always has the quit hint", () => {
    expect(banner("/opt/steam")).toEqual([
      "Redirecting stderr to '/opt/steam/Steam/logs/stderr.txt'",
      "[  0%] Checking for available updates...",
      "[----] Verifying installation...",
      "Steam Console Client (c) Valve Corporation - version 1718904809",
      "-- type 'quit' to exit --",
      "Loading Steam API...OK"
    ])
  })

  it("progress has a leading space, two decimals and the byte counts", () => {
    expect(lines.appDownloading(902400, 2000000)).toBe(" Update state (0x61) downloading, progress: 45.12 (902400 / 2000000)")
    expect(lines.appVerifying(2000000)).toBe(" Update state (0x81) verifying update, progress: 100.00 (2000000 / 2000000)")
    expect(percent(0, 0)).toBe("100.00")
  })

  it("workshop results, with SteamCMD's trailing space after a success", () => {
    expect(lines.itemDownloaded("1", "/x/1", 10)).toBe('Success. Downloaded item 1 to "/x/1" (10 bytes) ')
    expect(lines.itemFailed("1", "File Not Found")).toBe("ERROR! Download item 1 failed (File Not Found).")
    expect(lines.appState("223350", "0x202")).toBe("Error! App '223350' state is 0x202 after update job.")
  })
})

describe("a workshop item's files", () => {
  const cf = defaultCatalogue().items["1559212036"]!

  it("total exactly sizeBytes: meta.cpp, mod.cpp, keys, pbos and their signatures", () => {
    const files = itemFiles("1559212036", cf)
    expect(files.map((f) => f.path)).toEqual(["meta.cpp", "mod.cpp", "keys/CF.bikey", "addons/cf.pbo", "addons/cf.pbo.CF.bisign"])
    expect(totalBytes(files)).toBe(cf.sizeBytes)
    const meta = files[0]!.content.toString()
    expect(meta).toMatch(/^protocol = 1;\npublishedid = 1559212036;\nname = "CF";\ntimestamp = \d+;\n$/)
    expect(files[1]!.content.toString()).toContain('name = "Community Framework";')
    expect(files[3]!.content.toString("latin1")).toContain("publishedid=1559212036 version=1")
    expect(files[2]!.content.subarray(0, 3).toString()).toBe("CF\0")
  })

  it("a new version changes the files and the manifest; a broken one carries the crash marker in every pbo", () => {
    const v2 = { ...cf, version: 2, crashOnLoad: true }
    const [meta1, meta2] = [itemFiles("1", cf)[0]!, itemFiles("1", v2)[0]!].map((f) => f.content.toString())
    expect(meta1).not.toBe(meta2)
    expect(itemManifestId("1", 1)).not.toBe(itemManifestId("1", 2))
    expect(itemManifestId("1", 1)).toMatch(/^\d+$/)
    const cot = { ...defaultCatalogue().items["1564026768"]!, crashOnLoad: true }
    const pbos = itemFiles("1564026768", cot).filter((f) => f.path.endsWith(".pbo"))
    expect(pbos).toHaveLength(2)
    for (const pbo of pbos) expect(pbo.content.toString("latin1")).toContain(CRASH_MARKER)
    expect(itemFiles("1", cf).some((f) => f.content.toString("latin1").includes(CRASH_MARKER))).toBe(false)
  })

  it("writes a hostile name verbatim (sanitising is the product's job)", () => {
    const meta = itemFiles("7", { ...cf, name: "../../x" })[0]!.content.toString()
    expect(meta).toContain('name = "../../x";')
  })
})
