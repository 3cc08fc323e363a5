import { describe, expect, it } from "@effect/vitest"
import { BattlEyePacket } from "../../src/rcon/index.js"

const hex = BattlEyePacket.toHex

describe("BattlEyePacket", () => {
  it("encodes the reference keep-alive (seq 0) byte for byte", () => {
    expect(hex(BattlEyePacket.keepAlive(0))).toBe("42 45 be dc c2 58 ff 01 00")
    expect(hex(BattlEyePacket.command(0, ""))).toBe("42 45 be dc c2 58 ff 01 00")
  })

  it("frames login, command and ack with magic, little-endian CRC-32 and 0xFF", () => {
    const login = BattlEyePacket.login("secret")
    expect([...login.subarray(0, 2)]).toEqual([0x42, 0x45])
    expect(login[6]).toBe(0xff)
    expect(login[7]).toBe(0x00)
    expect(login.subarray(8).toString("latin1")).toBe("secret")
    expect(BattlEyePacket.packetType(login)).toBe(BattlEyePacket.TYPE_LOGIN)

    const cmd = BattlEyePacket.command(300, "players")
    expect(cmd[7]).toBe(0x01)
    expect(cmd[8]).toBe(300 & 0xff)
    expect(cmd.subarray(9).toString()).toBe("players")

    const ack = BattlEyePacket.ack(7)
    expect([...ack.subarray(6)]).toEqual([0xff, 0x02, 0x07])
  })

  it("round-trips client packets", () => {
    expect(BattlEyePacket.decodeClientPacket(BattlEyePacket.login("pw"))).toEqual({ _tag: "Login", password: "pw" })
    expect(BattlEyePacket.decodeClientPacket(BattlEyePacket.command(9, "say -1 héllo"))).toEqual({
      _tag: "Command",
      seq: 9,
      text: "say -1 héllo"
    })
    expect(BattlEyePacket.decodeClientPacket(BattlEyePacket.ack(255))).toEqual({ _tag: "Ack", seq: 255 })
  })

  it("round-trips server packets", () => {
    expect(BattlEyePacket.decodeServerPacket(BattlEyePacket.loginReply(true))).toEqual({ _tag: "LoginReply", accepted: true })
    expect(BattlEyePacket.decodeServerPacket(BattlEyePacket.loginReply(false))).toEqual({ _tag: "LoginReply", accepted: false })
    const reply = BattlEyePacket.decodeServerPacket(BattlEyePacket.commandReply(4, "ok"))
    expect(reply?._tag).toBe("CommandReply")
    expect(reply?._tag === "CommandReply" && [reply.seq, reply.data.toString()]).toEqual([4, "ok"])
    const empty = BattlEyePacket.decodeServerPacket(BattlEyePacket.commandReply(5, ""))
    expect(empty?._tag === "CommandReply" && empty.data.length).toBe(0)
    const message = BattlEyePacket.decodeServerPacket(BattlEyePacket.serverMessage(2, "Player #0 A disconnected"))
    expect(message?._tag === "ServerMessage" && [message.seq, message.data.toString()]).toEqual([2, "Player #0 A disconnected"])
  })

  it("splits long replies into numbered parts that concatenate to the text", () => {
    const text = "x".repeat(2500) + "é".repeat(100)
    const packets = BattlEyePacket.commandReplyPackets(3, text, 1000)
    expect(packets.length).toBe(Math.ceil(Buffer.byteLength(text) / 1000))
    const parts = packets.map((p) => BattlEyePacket.decodeServerPacket(p))
    const data: Array<Buffer> = []
    parts.forEach((part, i) => {
      expect(part?._tag).toBe("CommandPart")
      if (part?._tag !== "CommandPart") return
      expect([part.seq, part.count, part.index]).toEqual([3, packets.length, i])
      data.push(part.data)
    })
    expect(Buffer.concat(data).toString("utf8")).toBe(text)
    // Short replies stay one packet.
    expect(BattlEyePacket.commandReplyPackets(3, "short", 1000)).toHaveLength(1)
    // Never more than 255 parts.
    expect(BattlEyePacket.commandReplyPackets(1, "y".repeat(300_000), 100).length).toBeLessThanOrEqual(255)
  })

  it("rejects malformed datagrams", () => {
    const good = BattlEyePacket.command(1, "players")
    const badCrc = Buffer.from(good)
    badCrc[3] = badCrc[3]! ^ 0xff
    const badMagic = Buffer.from(good)
    badMagic[0] = 0x41
    const badBody = Buffer.from(good)
    badBody[10] = 0x41
    for (const packet of [badCrc, badMagic, badBody, good.subarray(0, 5), Buffer.alloc(0)]) {
      expect(BattlEyePacket.packetType(packet)).toBe(-1)
      expect(BattlEyePacket.decodeServerPacket(packet)).toBeUndefined()
      expect(BattlEyePacket.decodeClientPacket(packet)).toBeUndefined()
    }
    // A part header with an index beyond its count is not a packet.
    expect(BattlEyePacket.decodeServerPacket(BattlEyePacket.commandPart(1, 2, 2, Buffer.from("x")))).toBeUndefined()
  })
})
