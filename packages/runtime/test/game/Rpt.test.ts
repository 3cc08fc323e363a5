import { afterAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { parseRptFacts, readRptFacts } from "../../src/game/Rpt.js"

describe("parseRptFacts", () => {
  it("reads the version and the map from the engine log's head", () => {
    const rpt = [
      "=====================================================================",
      "== DayZServer_x64 -config=serverDZ.cfg -port=2302",
      "Version 1.26.159040",
      "12:00:01.123 Mission: dayzOffline.chernarusplus",
      "12:00:01.200 World: chernarusplus"
    ].join("\n")
    expect(parseRptFacts(rpt)).toEqual({ version: "1.26.159040", map: "chernarusplus" })
  })

  it("falls back to the mission's terrain and tolerates other wordings", () => {
    expect(parseRptFacts("Exe version: 1.25.158593\nMission: dayzOffline.enoch")).toEqual({ version: "1.25.158593", map: "enoch" })
    expect(parseRptFacts("nothing useful")).toEqual({ version: undefined, map: undefined })
  })
})

describe("readRptFacts", () => {
  const folders: Array<string> = []
  afterAll(() => {
    for (const folder of folders.splice(0)) Fs.rmSync(folder, { recursive: true, force: true })
  })
  const install = () => {
    const folder = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-rpt-"))
    folders.push(folder)
    Fs.mkdirSync(NodePath.join(folder, "profiles"))
    return folder
  }
  const write = (folder: string, name: string, text: string, modified: number) => {
    Fs.writeFileSync(NodePath.join(folder, "profiles", name), text)
    Fs.utimesSync(NodePath.join(folder, "profiles", name), modified / 1000, modified / 1000)
  }

  it("reads the newest RPT of the run through the install folder's files, never a symlink", async () => {
    const folder = install()
    const started = Date.now()
    write(folder, "old.RPT", "Version 1.0.1\nWorld: enoch", started - 60_000)
    write(folder, "run.RPT", "Version 1.26.2\nWorld: chernarusplus", started + 1_000)
    Fs.symlinkSync(NodePath.join(folder, "profiles", "old.RPT"), NodePath.join(folder, "profiles", "newer.RPT"))
    const logs = { files: ServerFiles.local(folder), folder: "profiles" }
    expect(await Effect.runPromise(readRptFacts(logs, started))).toEqual({ version: "1.26.2", map: "chernarusplus" })
    expect(await Effect.runPromise(readRptFacts(logs, started + 60_000))).toBeUndefined()
    const missing = { files: ServerFiles.local(folder), folder: "nope" }
    expect((await Effect.runPromise(Effect.flip(readRptFacts(missing, started)))).problem).toBe("not-found")
  })
})
