/**
 * An engine log in the form real servers write it (fixtures/README.md):
 * CRLF, leading spaces and times, engine noise, and connect lines with the
 * ids after "is connected". The head's facts and every player's Steam64 are
 * read from it; no other line passes for a player.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import { parsePlayerLogLine } from "../../src/game/PlayerLog.js"
import { parseRptFacts } from "../../src/game/Rpt.js"

const text = Fs.readFileSync(NodePath.join(import.meta.dirname, "fixtures", "engine-real-order.RPT"), "utf8")
const lines = text.split("\n")

describe("an engine log in the real servers' form", () => {
  it("is the form it claims: CRLF line endings, times after leading spaces", () => {
    expect(lines.length).toBeGreaterThan(15)
    expect(lines.slice(0, -1).every((line) => line.endsWith("\r"))).toBe(true)
    expect(lines.filter((line) => / is connected \(steamID=/.test(line)).every((line) => /^ +\d{1,2}:\d{2}:\d{2}\.\d{3} Player "/.test(line))).toBe(true)
  })

  it("gives the version and the map from its head", () => {
    expect(parseRptFacts(text)).toEqual({ version: "1.26.159040", map: "chernarusplus" })
  })

  it("reads each connecting player's name and Steam64, a clan tag's parentheses and an imitated line included, and nothing else", () => {
    const players = lines.map(parsePlayerLogLine).filter((player) => player !== undefined)
    expect(players).toEqual([
      { name: "Survivor", steam64: "76561198000000016" },
      { name: "[CLAN] Bravo (17)", steam64: "76561198000000017" },
      // The name imitates a connect line; the ids the server wrote after it are the ones read.
      { name: "Impostor(steamID=76561198000000099) is connected", steam64: "76561198000000020" }
    ])
  })
})
