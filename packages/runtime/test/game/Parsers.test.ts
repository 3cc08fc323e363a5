import { describe, expect, it } from "@effect/vitest"
import {
  parseBans,
  parsePlayers,
  parsePlayerTotal,
  parseServerMessage,
  RconAdminLoggedIn,
  RconAdminSaid,
  RconChat,
  RconOtherMessage,
  RconPlayerConnected,
  RconPlayerDisconnected,
  RconPlayerGuid,
  RconPlayerGuidVerified,
  RconPlayerKicked
} from "../../src/game/index.js"

describe("parsePlayers", () => {
  it("reads the reference's players reply", () => {
    const reply = [
      "Players on server:",
      "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
      "--------------------------------------------------",
      "0   76.108.91.78:2304     63   80a5885ebe2420bab5e158a310fcbc7d(OK) Bravo17",
      "(1 players in total)"
    ].join("\n")
    const players = parsePlayers(reply)
    expect(players).toHaveLength(1)
    expect({ ...players[0]! }).toEqual({
      slot: 0,
      ip: "76.108.91.78",
      port: 2304,
      ping: 63,
      guid: "80a5885ebe2420bab5e158a310fcbc7d",
      verified: true,
      name: "Bravo17",
      inLobby: false
    })
    expect(parsePlayerTotal(reply)).toBe(1)
  })

  it("handles unverified GUIDs, lobby names, ping -1, names with spaces and CRLF", () => {
    const reply = [
      "Players on server:",
      "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
      "--------------------------------------------------",
      "3   10.0.0.5:2304     -1   2d3fe9abaa51e04aa876a7bcfe84e0d6(?) The Survivor (Lobby)",
      "12  192.168.1.20:51234 120  80a5885ebe2420bab5e158a310fcbc7d(OK) [TAG] Name With Spaces",
      "(2 players in total)"
    ].join("\r\n")
    const [a, b] = parsePlayers(reply)
    expect(a).toMatchObject({ slot: 3, ping: -1, verified: false, name: "The Survivor", inLobby: true })
    expect(b).toMatchObject({ slot: 12, port: 51234, ping: 120, verified: true, name: "[TAG] Name With Spaces" })
    expect(parsePlayerTotal(reply)).toBe(2)
  })

  it("an empty server has no players", () => {
    expect(parsePlayers("Players on server:\n[#] [IP Address]:[Port] [Ping] [GUID] [Name]\n---\n(0 players in total)")).toEqual([])
  })
})

describe("parseBans", () => {
  it("reads both sections with perm, numbers and '-'", () => {
    const reply = [
      "GUID Bans:",
      "[#] [GUID] [Minutes left] [Reason]",
      "----------------------------------------",
      "0  2d3fe9abaa51e04aa876a7bcfe84e0d6 perm Cheating",
      "1  80a5885ebe2420bab5e158a310fcbc7d 120 Toxic in chat",
      "",
      "IP Bans:",
      "[#] [IP Address] [Minutes left] [Reason]",
      "----------------------------------------------",
      "2  1.2.3.4         -    ",
      "3  5.6.7.8         perm VPN abuse"
    ].join("\n")
    const bans = parseBans(reply)
    expect(bans.guidBans.map((b) => [b.index, b.id, b.minutesLeft, b.reason])).toEqual([
      [0, "2d3fe9abaa51e04aa876a7bcfe84e0d6", "perm", "Cheating"],
      [1, "80a5885ebe2420bab5e158a310fcbc7d", 120, "Toxic in chat"]
    ])
    expect(bans.ipBans.map((b) => [b.index, b.kind, b.id, b.minutesLeft, b.reason])).toEqual([
      [2, "ip", "1.2.3.4", null, ""],
      [3, "ip", "5.6.7.8", "perm", "VPN abuse"]
    ])
  })

  it("no bans", () => {
    expect(parseBans("GUID Bans:\n[#] [GUID] [Minutes left] [Reason]\n---\n\nIP Bans:\n[#] [IP Address] [Minutes left] [Reason]\n---\n")).toEqual({
      guidBans: [],
      ipBans: []
    })
  })
})

describe("parseServerMessage", () => {
  const guid = "2d3fe9abaa51e04aa876a7bcfe84e0d6"
  it.each([
    ["RCon admin #0 (1.2.3.4:5678) logged in", new RconAdminLoggedIn({ admin: 0, ip: "1.2.3.4", port: 5678 })],
    ["Player #0 Name (1.2.3.4:2304) connected", new RconPlayerConnected({ slot: 0, name: "Name", ip: "1.2.3.4", port: 2304 })],
    [
      "Player #7 Name (With Parens) (10.0.0.1:2304) connected",
      new RconPlayerConnected({ slot: 7, name: "Name (With Parens)", ip: "10.0.0.1", port: 2304 })
    ],
    [`Player #0 Name - GUID: ${guid} (unverified)`, new RconPlayerGuid({ slot: 0, name: "Name", guid })],
    [`Player #0 Name - BE GUID: ${guid.toUpperCase()} (unverified)`, new RconPlayerGuid({ slot: 0, name: "Name", guid })],
    [`Verified GUID (${guid}) of player #0 Name`, new RconPlayerGuidVerified({ slot: 0, name: "Name", guid })],
    ["Player #4 Name disconnected", new RconPlayerDisconnected({ slot: 4, name: "Name" })],
    [
      `Player #2 Name (${guid}) has been kicked by BattlEye: Admin Kick (AFK)`,
      new RconPlayerKicked({ slot: 2, name: "Name", guid, reason: "Admin Kick (AFK)" })
    ],
    ["(Global) Name: hello: there", new RconChat({ channel: "Global", name: "Name", text: "hello: there" })],
    ["(Direct) Bravo 17: hi", new RconChat({ channel: "Direct", name: "Bravo 17", text: "hi" })],
    ["(Side) A: x", new RconChat({ channel: "Side", name: "A", text: "x" })],
    ["(Vehicle) A: x", new RconChat({ channel: "Vehicle", name: "A", text: "x" })],
    ["(Group) A: x", new RconChat({ channel: "Group", name: "A", text: "x" })],
    ["(Command) A: x", new RconChat({ channel: "Command", name: "A", text: "x" })],
    ["(Lobby) A: x", new RconChat({ channel: "Lobby", name: "A", text: "x" })],
    ["RCon admin #1: (Global) Restart in 5 minutes", new RconAdminSaid({ admin: 1, channel: "Global", text: "Restart in 5 minutes" })],
    ["Something new from BattlEye", new RconOtherMessage({ text: "Something new from BattlEye" })]
  ])("%s", (line, expected) => {
    expect(parseServerMessage(line)).toEqual(expected)
  })
})
