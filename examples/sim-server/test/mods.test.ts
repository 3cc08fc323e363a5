/** Mod loading in process: meta.cpp, finding folders, the crash marker, signatures, the crash delay option (the process itself: mods.e2e.test.ts). */
import { tempDir } from "@garrison/testkit"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import { CRASH_MARKER, inspectMods, installedKeys, type LoadedMod, loadingLine, parseMetaCpp, SCAN_BYTES, unsignedAddons } from "../src/mods.js"
import { parseArguments, UsageError } from "../src/options.js"

const write = (path: string, content: string | Buffer) => {
  Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
  Fs.writeFileSync(path, content)
}

const loaded = (entry: ReturnType<typeof inspectMods>[number] | undefined): LoadedMod => {
  if (entry === undefined || !entry.found) throw new Error(`expected a loaded mod, got ${JSON.stringify(entry)}`)
  return entry
}

describe("meta.cpp", () => {
  it("reads name, publishedid and timestamp, quoted or bare, keeping a FILETIME exact", () => {
    const meta = parseMetaCpp('protocol = 1;\npublishedid = 1559212036;\nname = "Community Framework";\ntimestamp = 133764012340000001;\n')
    expect(meta).toEqual({ name: "Community Framework", publishedId: "1559212036", timestamp: "133764012340000001" })
    expect(parseMetaCpp('\uFEFFname = CF;\r\npublishedId = "42";\r\nTIMESTAMP=7\r\n')).toEqual({ name: "CF", publishedId: "42", timestamp: "7" })
  })

  it("keeps hostile names verbatim and leaves out what is missing or empty", () => {
    expect(parseMetaCpp('name = "Say ""hi""; ../../x";').name).toBe('Say "hi"; ../../x')
    expect(parseMetaCpp('name = "";\nprotocol = 1;\n')).toEqual({ name: undefined, publishedId: undefined, timestamp: undefined })
    expect(parseMetaCpp("")).toEqual({ name: undefined, publishedId: undefined, timestamp: undefined })
  })
})

describe("mod folders", () => {
  it("finds folders relative to the install or absolute, reads meta.cpp, warns about missing ones", () => {
    const root = tempDir("garrison-sim-mods-")
    write(NodePath.join(root, "@cf", "meta.cpp"), 'protocol = 1;\npublishedid = 1559212036;\nname = "CF";\ntimestamp = 5;\n')
    write(NodePath.join(root, "@cf", "addons", "cf.pbo"), "pbo")
    Fs.mkdirSync(NodePath.join(root, "@bare"))
    const elsewhere = NodePath.join(tempDir("garrison-sim-mods-abs-"), "@abs")
    write(NodePath.join(elsewhere, "meta.cpp"), "name = Abs;")
    write(NodePath.join(root, "@file"), "not a folder")

    const entries = inspectMods(root, [
      { folder: "@cf", serverMod: false },
      { folder: "@missing", serverMod: false },
      { folder: "@bare", serverMod: false },
      { folder: elsewhere, serverMod: true },
      { folder: "@file", serverMod: false }
    ])
    expect(entries.map((e) => [e.folder, e.found])).toEqual([
      ["@cf", true],
      ["@missing", false],
      ["@bare", true],
      [elsewhere, true],
      ["@file", false]
    ])
    expect(loadingLine(loaded(entries[0]))).toBe("Loading mod '@cf' (name: CF, publishedid: 1559212036, timestamp: 5)")
    expect(loadingLine(loaded(entries[2]))).toBe("Loading mod '@bare' (name: ?, publishedid: ?, timestamp: ?)")
    expect(loadingLine(loaded(entries[3]))).toBe(`Loading mod '${elsewhere}' (name: Abs, publishedid: ?, timestamp: ?)`)
    expect(loaded(entries[0]).pbos).toEqual(["cf.pbo"])
  })

  it("compares folder names case-sensitively on Linux", () => {
    const root = tempDir("garrison-sim-mods-case-")
    Fs.mkdirSync(NodePath.join(root, "@cf"))
    expect(inspectMods(root, [{ folder: "@CF", serverMod: false }], "linux")[0]?.found).toBe(false)
    expect(inspectMods(root, [{ folder: "@cf", serverMod: false }], "linux")[0]?.found).toBe(true)
  })
})

describe("the crash marker", () => {
  it("is found in any pbo (any case of .pbo) within the first MiB, and nowhere else", () => {
    const root = tempDir("garrison-sim-mods-marker-")
    write(NodePath.join(root, "@ok", "addons", "ok.pbo"), "a healthy pbo")
    write(NodePath.join(root, "@ok", "addons", "notes.txt"), CRASH_MARKER)
    write(NodePath.join(root, "@broken", "addons", "a.pbo"), "fine")
    write(NodePath.join(root, "@broken", "addons", "B.PBO"), Buffer.concat([Buffer.alloc(1000, 1), Buffer.from(`${CRASH_MARKER}\n`)]))
    write(NodePath.join(root, "@late", "addons", "late.pbo"), Buffer.concat([Buffer.alloc(SCAN_BYTES, 0), Buffer.from(CRASH_MARKER)]))
    write(NodePath.join(root, "@Edge", "Addons", "edge.pbo"), Buffer.concat([Buffer.alloc(SCAN_BYTES - CRASH_MARKER.length, 0), Buffer.from(CRASH_MARKER)]))
    const [ok, broken, late, edge] = inspectMods(
      root,
      ["@ok", "@broken", "@late", "@Edge"].map((folder) => ({ folder, serverMod: false }))
    ).map(loaded)
    expect(ok!.corrupted).toBeUndefined()
    expect(broken!.pbos).toEqual(["B.PBO", "a.pbo"])
    expect(broken!.corrupted).toBe("B.PBO")
    expect(late!.corrupted).toBeUndefined()
    expect(edge!.corrupted).toBe("edge.pbo")
  })
})

describe("signatures", () => {
  it("a pbo needs a <pbo>.<key>.bisign whose key is in the install's keys/", () => {
    const root = tempDir("garrison-sim-mods-keys-")
    write(NodePath.join(root, "keys", "dayz.bikey"), "k")
    write(NodePath.join(root, "keys", "CF.bikey"), "k")
    write(NodePath.join(root, "keys", "readme.txt"), "k")
    const addons = NodePath.join(root, "@cf", "addons")
    write(NodePath.join(addons, "signed.pbo"), "p")
    write(NodePath.join(addons, "signed.pbo.CF.bisign"), "s")
    write(NodePath.join(addons, "otherkey.pbo"), "p")
    write(NodePath.join(addons, "otherkey.pbo.Unknown.bisign"), "s")
    write(NodePath.join(addons, "bare.pbo"), "p")
    const mod = loaded(inspectMods(root, [{ folder: "@cf", serverMod: false }])[0])
    const keys = installedKeys(NodePath.join(root, "keys"))
    expect([...keys].sort()).toEqual(["CF", "dayz"])
    expect(unsignedAddons(mod, keys, "linux")).toEqual(["bare.pbo", "otherkey.pbo"])
    expect(unsignedAddons(mod, ["cf"], "linux")).toEqual(["bare.pbo", "otherkey.pbo", "signed.pbo"])
    expect(unsignedAddons(mod, ["cf"], "win32")).toEqual(["bare.pbo", "otherkey.pbo"])
    expect(installedKeys(NodePath.join(root, "no-keys"))).toEqual([])
  })
})

describe("the crash delay", () => {
  it("defaults to 1500 ms; -simModCrashDelay, SIM_MOD_CRASH_DELAY or --mod-crash-delay-ms set it", () => {
    const delay = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => parseArguments(args, env, "/srv/dayz").sim.modCrashDelay
    expect(delay([])).toBe(1500)
    expect(delay(["-simModCrashDelay=200"])).toBe(200)
    expect(delay([], { SIM_MOD_CRASH_DELAY: "300" })).toBe(300)
    expect(delay(["--mod-crash-delay-ms=250"], { SIM_MOD_CRASH_DELAY: "300" })).toBe(250)
    expect(() => delay(["--mod-crash-delay-ms"])).toThrow(UsageError)
    expect(() => delay(["-simModCrashDelay=soon"])).toThrow(/expected a number/)
  })
})
