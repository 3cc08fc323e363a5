/**
 * A long `bans` answer end to end on Garrison's side: a server splits it into
 * parts at its byte limit (mid-line, so a line's ending lands in the next
 * part), the parts arrive out of order, the BattlEye client reassembles them
 * and `parseBans` reads every ban. The fixture (207 GUID bans, 33 IP bans,
 * numbers running on from the GUID section into the IP one) is written in
 * the format a server prints, not copied from one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { parseBans } from "../../src/game/index.js"
import { BattlEyeClient, BattlEyePacket } from "../../src/rcon/index.js"
import { defaultOnCommand, makePeer } from "./peer.js"

const REPLY = Fs.readFileSync(NodePath.join(import.meta.dirname, "fixtures", "bans-reply-207-guid-33-ip.txt"), "utf8")

describe("a `bans` answer over many parts", () => {
  it.scoped("reassembled from shuffled parts split at the byte limit, it parses to all 207 GUID and 33 IP bans", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      let partCount = 0
      peer.onCommand = (seq, command, reply) => {
        if (command !== "bans") return defaultOnCommand(seq, command, reply)
        const parts = [...BattlEyePacket.commandReplyPackets(seq, REPLY, 1024)]
        partCount = parts.length
        reply([...parts.slice(1).reverse(), parts[0]!])
      }
      const client = yield* BattlEyeClient.connect({ host: "127.0.0.1", port: peer.port, password: "secret" })
      const text = yield* client.command("bans")
      expect(partCount).toBeGreaterThan(10)
      expect(text).toBe(REPLY)

      const bans = parseBans(text)
      expect(bans.guidBans).toHaveLength(207)
      expect(bans.ipBans).toHaveLength(33)
      expect(bans.guidBans.map((b) => b.index)).toEqual([...Array(207).keys()])
      expect(bans.ipBans.map((b) => b.index)).toEqual([...Array(33).keys()].map((i) => 207 + i))
      expect(bans.guidBans.every((b) => /^[0-9a-f]{32}$/.test(b.id))).toBe(true)
      expect(bans.ipBans.every((b) => /^\d{1,3}(\.\d{1,3}){3}$/.test(b.id))).toBe(true)
      expect(bans.ipBans[0]).toMatchObject({ index: 207, id: "85.29.10.246", minutesLeft: null, reason: "Admin Ban (cheating)" })
      expect(bans.ipBans[1]).toMatchObject({ index: 208, minutesLeft: "perm", reason: "Global ban #11490" })
      expect(bans.guidBans[206]).toMatchObject({ index: 206, id: "5d41f6111f33a18971c165c7b3e400f0", minutesLeft: "perm", reason: "Global ban #12420" })
      // Every kind of "minutes left" is there, and reasons may be empty.
      expect(bans.guidBans.some((b) => typeof b.minutesLeft === "number")).toBe(true)
      expect(bans.guidBans.some((b) => b.minutesLeft === null)).toBe(true)
      expect(bans.guidBans.some((b) => b.reason === "")).toBe(true)
    })
  )
})

describe("parseBans on a number glued to its id", () => {
  // What the simulator printed for bans numbered 100 and up before issue 36: the number column
  // was padded to 3 characters with no separator after it. The parser reads such lines too.
  it("a GUID is 32 hex characters, so the number before it is whatever precedes them", () => {
    const bans = parseBans(
      ["GUID Bans:", "[#] [GUID] [Minutes left] [Reason]", "---", "99 2d3fe9abaa51e04aa876a7bcfe84e0d6 perm a", "1002d3fe9abaa51e04aa876a7bcfe84e0d7 perm b"].join("\n")
    )
    expect(bans.guidBans.map((b) => [b.index, b.id, b.reason])).toEqual([
      [99, "2d3fe9abaa51e04aa876a7bcfe84e0d6", "a"],
      [100, "2d3fe9abaa51e04aa876a7bcfe84e0d7", "b"]
    ])
  })

  it("an IP address's split is the one that gives the next number in order", () => {
    const bans = parseBans(
      [
        "GUID Bans:",
        "---",
        "217 2d3fe9abaa51e04aa876a7bcfe84e0d6 perm x",
        "",
        "IP Bans:",
        "[#] [IP Address] [Minutes left] [Reason]",
        "---",
        "218108.231.105.146 perm VPN abuse",
        "21981.2.3.4    12 Toxic"
      ].join("\n")
    )
    expect(bans.ipBans.map((b) => [b.index, b.id, b.minutesLeft, b.reason])).toEqual([
      [218, "108.231.105.146", "perm", "VPN abuse"],
      [219, "81.2.3.4", 12, "Toxic"]
    ])
  })
})
