/** catalogue.json: the default one, reading and writing it, and the publish helpers tests use. */
import { tempDir } from "@garrison/testkit"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import {
  CatalogueError,
  defaultCatalogue,
  install,
  publishAppBuild,
  publishItemVersion,
  readCatalogue,
  writeCatalogue
} from "../src/index.js"

describe("catalogue", () => {
  it("the default one has both server apps, six items (one server-side), three accounts and quiet behaviour", () => {
    const catalogue = defaultCatalogue()
    expect(catalogue.apps["223350"]).toEqual({ name: "DayZ Server", buildId: 1000, sizeBytes: 2000000 })
    expect(catalogue.apps["1042420"]?.name).toBe("DayZ Server Experimental")
    expect(Object.keys(catalogue.items).sort()).toEqual(["1559212036", "1564026768", "1590841260", "1828439124", "2116157322", "2545327648"])
    expect(catalogue.items["1559212036"]).toMatchObject({ title: "Community Framework", name: "CF", keys: ["CF.bikey"], pbos: ["cf.pbo"] })
    expect(Object.values(catalogue.items).filter((i) => i.type === "server").map((i) => i.name)).toEqual(["DayZ-Editor-Loader"])
    expect(catalogue.accounts["guarded_admin"]?.guardCode).toBe("F4K3C")
    expect(catalogue.behaviour).toEqual({ bytesPerSecond: 20000000, progressIntervalMs: 50, timeoutItems: [], appFailure: null, diskFreeBytes: null, webApiKey: null })
  })

  it("reads what it writes; no file reads as the default; missing behaviour fields take defaults", () => {
    const dir = tempDir("garrison-steamcmd-cat-")
    expect(readCatalogue(dir)).toEqual(defaultCatalogue())
    writeCatalogue(dir, { ...defaultCatalogue(), accounts: {} })
    expect(readCatalogue(dir).accounts).toEqual({})
    // Written whole: no temporary file is left beside it.
    expect(Fs.readdirSync(dir)).toEqual(["catalogue.json"])
    Fs.writeFileSync(NodePath.join(dir, "catalogue.json"), JSON.stringify({ apps: {}, items: {}, accounts: {}, behaviour: { diskFreeBytes: 5 } }))
    expect(readCatalogue(dir).behaviour).toMatchObject({ diskFreeBytes: 5, bytesPerSecond: 20000000, timeoutItems: [] })
  })

  it("a typo fails loudly, naming the field", () => {
    const dir = tempDir("garrison-steamcmd-cat-")
    const bad = (value: unknown) => Fs.writeFileSync(NodePath.join(dir, "catalogue.json"), JSON.stringify(value))
    bad({ ...defaultCatalogue(), behaviour: { appFailure: "explode" } })
    expect(() => readCatalogue(dir)).toThrow(CatalogueError)
    bad({ items: { "1": { ...defaultCatalogue().items["1559212036"], sizeBytes: "big" } } })
    expect(() => readCatalogue(dir)).toThrow(/items\.1\.sizeBytes must be a number/)
    Fs.writeFileSync(NodePath.join(dir, "catalogue.json"), "{ nope")
    expect(() => readCatalogue(dir)).toThrow(/not JSON/)
  })

  it("publishItemVersion bumps the version and the update time, applying changes; publishAppBuild bumps the build", () => {
    const dir = tempDir("garrison-steamcmd-cat-")
    writeCatalogue(dir, defaultCatalogue())
    const before = Math.floor(Date.now() / 1000)
    const v2 = publishItemVersion(dir, "1559212036", { crashOnLoad: true })
    expect(v2.version).toBe(2)
    expect(v2.timeUpdated).toBeGreaterThanOrEqual(before)
    expect(readCatalogue(dir).items["1559212036"]).toMatchObject({ version: 2, crashOnLoad: true, name: "CF" })
    expect(publishItemVersion(dir, "1559212036", { timeUpdated: 1800000000 })).toMatchObject({ version: 3, timeUpdated: 1800000000, crashOnLoad: true })
    expect(publishAppBuild(dir, 223350)).toBe(1001)
    expect(readCatalogue(dir).apps["223350"]?.buildId).toBe(1001)
    expect(() => publishItemVersion(dir, "42")).toThrow(/no workshop item 42/)
  })
})

describe("installer", () => {
  it("writes an executable steamcmd.sh quoting odd paths, and keeps an existing catalogue unless forced", () => {
    const dir = NodePath.join(tempDir("garrison-steamcmd-inst-"), "it's a \"dir\" $HOME")
    const { steamcmdPath, cataloguePath } = install(dir)
    expect(steamcmdPath).toBe(NodePath.join(dir, "steamcmd.sh"))
    expect(Fs.statSync(steamcmdPath).mode & 0o777).toBe(0o755)
    const script = Fs.readFileSync(steamcmdPath, "utf8")
    expect(script.startsWith("#!/bin/sh\n")).toBe(true)
    expect(script).toContain(`exec '${process.execPath}' '`)
    expect(script).toMatch(/main\.js' "\$@"\n$/)
    writeCatalogue(dir, { ...defaultCatalogue(), accounts: {} })
    install(dir)
    expect(readCatalogue(dir).accounts).toEqual({})
    install(dir, { force: true })
    expect(JSON.parse(Fs.readFileSync(cataloguePath, "utf8"))).toEqual(defaultCatalogue())
  })
})
