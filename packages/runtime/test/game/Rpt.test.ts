import { describe, expect, it } from "vitest"
import { parseRptFacts } from "../../src/game/Rpt.js"

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
