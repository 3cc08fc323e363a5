/**
 * A player's details as the Players tab shows them: dates and durations in
 * words whatever time unit the mod used, the mod's extra fields under their
 * own names, and never a JSON dump or an epoch number.
 */
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { dateOf, PlayerDetails } from "../../plugins/src/players/ui/PlayerDetails.js"

const FIRST_SEEN_MS = Date.UTC(2026, 10, 1, 18, 30)

const textOf = (answer: unknown) =>
  renderToStaticMarkup(createElement(PlayerDetails, { answer }))
    .replace(/<\/(dt|dd)>/g, "|")
    .replace(/<[^>]+>/g, "")

describe("player details", () => {
  it("reads epoch milliseconds, epoch seconds and ISO text as the same date; anything else is not a date", () => {
    const local = new Date(FIRST_SEEN_MS).toLocaleString()
    expect(dateOf(FIRST_SEEN_MS)).toBe(local)
    expect(dateOf(FIRST_SEEN_MS / 1000)).toBe(local)
    expect(dateOf(new Date(FIRST_SEEN_MS).toISOString())).toBe(local)
    expect(dateOf("yesterday-ish")).toBeUndefined()
    expect(dateOf(0)).toBeUndefined()
    expect(dateOf(null)).toBeUndefined()
  })

  it("shows the mod's answer as labelled facts in plain words, the known ones first", () => {
    const text = textOf({
      action: "player.details",
      provider: "agent",
      data: {
        platformId: "76561198000000011",
        name: "Alpha",
        names: ["Alpha", "Alpha2"],
        online: true,
        firstSeen: FIRST_SEEN_MS,
        lastSeen: null,
        playtimeSeconds: 3 * 3600 + 120,
        kills: 12,
        longestKill: 412.5,
        favouriteWeapon: "M4A1",
        lastDeathAt: FIRST_SEEN_MS / 1000
      }
    })
    expect(text).toContain("Name|Alpha|")
    expect(text).toContain("Names used|Alpha, Alpha2|")
    expect(text).toContain("Online now|yes|")
    expect(text).toContain(`First seen|${new Date(FIRST_SEEN_MS).toLocaleString()}|`)
    expect(text).toContain("Last seen|—|")
    expect(text).toContain("Time played|3h 2m|")
    expect(text).toContain("Longest kill|412.5 m|")
    // The mod's own fields: labelled from their names, a time-like one read as a date.
    expect(text).toContain("Favourite weapon|M4A1|")
    expect(text).toContain(`Last death at|${new Date(FIRST_SEEN_MS).toLocaleString()}|`)
    expect(text).not.toContain(String(FIRST_SEEN_MS))
    expect(text).not.toContain("{")
    expect(text.indexOf("Name|")).toBeLessThan(text.indexOf("Favourite weapon|"))
  })

  it("says so when the mod answered nothing to show", () => {
    expect(textOf(null)).toBe("The mod answered no details.")
  })
})
