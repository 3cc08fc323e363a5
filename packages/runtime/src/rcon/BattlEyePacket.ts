/**
 * BattlEye RCon framing (BERConProtocol v2), as pure functions over buffers.
 *
 * Every packet: `'B' 'E'`, CRC-32 (IEEE, little-endian) of everything from
 * the `0xFF` on, `0xFF`, a type byte, then the payload:
 *
 * | type | client -> server          | server -> client                                   |
 * |------|---------------------------|----------------------------------------------------|
 * | 0x00 | password                  | `0x01` accepted / `0x00` refused                   |
 * | 0x01 | seq + command text        | seq + text, or seq `0x00` count index + part text  |
 * | 0x02 | seq (acknowledgement)     | seq + server message text                          |
 *
 * Both directions live here so the client, test peers and benchmarks share
 * one tested codec. Decoders return `undefined` for anything malformed
 * (wrong magic, bad CRC, truncated): UDP peers drop such datagrams.
 */
import { crc32 } from "node:zlib"

/** 'B' 'E', CRC-32, 0xFF and the type byte: the payload starts at this offset. */
export const HEADER_LENGTH = 8
export const TYPE_LOGIN = 0x00
export const TYPE_COMMAND = 0x01
export const TYPE_MESSAGE = 0x02

/** The largest datagram a peer should expect (the protocol sets no limit; read with 64 KiB). */
export const MAX_DATAGRAM = 65_536

/** Frames a payload with the magic, CRC, `0xFF` and type byte. */
export const frame = (type: number, payload: Uint8Array): Buffer => {
  const packet = Buffer.allocUnsafe(HEADER_LENGTH + payload.length)
  packet[0] = 0x42
  packet[1] = 0x45
  packet[6] = 0xff
  packet[7] = type
  packet.set(payload, HEADER_LENGTH)
  packet.writeUInt32LE(crc32(packet.subarray(6)) >>> 0, 2)
  return packet
}

/** Frames a packet whose body is one sequence byte followed by UTF-8 text (no intermediate copies). */
const frameSeqText = (type: number, seq: number, text: string): Buffer => {
  const textLength = Buffer.byteLength(text, "utf8")
  const packet = Buffer.allocUnsafe(HEADER_LENGTH + 1 + textLength)
  packet[0] = 0x42
  packet[1] = 0x45
  packet[6] = 0xff
  packet[7] = type
  packet[8] = seq & 0xff
  if (textLength > 0) packet.write(text, 9, "utf8")
  packet.writeUInt32LE(crc32(packet.subarray(6)) >>> 0, 2)
  return packet
}

// ---------------------------------------------------------------------------
// Client -> server
// ---------------------------------------------------------------------------

/** Login: `0x00` + password (ASCII, no NUL). */
export const login = (password: string): Buffer => frame(TYPE_LOGIN, Buffer.from(password, "latin1"))

/** Command: `0x01` + seq + text (empty text is the keep-alive). */
export const command = (seq: number, text: string): Buffer => frameSeqText(TYPE_COMMAND, seq, text)

/** Keep-alive: an empty command. Seq 0 is `42 45 be dc c2 58 ff 01 00`. */
export const keepAlive = (seq: number): Buffer => frameSeqText(TYPE_COMMAND, seq, "")

/** Acknowledges a server message: `0x02` + seq. */
export const ack = (seq: number): Buffer => frameSeqText(TYPE_MESSAGE, seq, "")

// ---------------------------------------------------------------------------
// Server -> client
// ---------------------------------------------------------------------------

export const loginReply = (accepted: boolean): Buffer => frame(TYPE_LOGIN, Uint8Array.of(accepted ? 1 : 0))

export const commandReply = (seq: number, text: string): Buffer => frameSeqText(TYPE_COMMAND, seq, text)

export const serverMessage = (seq: number, text: string): Buffer => frameSeqText(TYPE_MESSAGE, seq, text)

/** One part of a multi-part reply: seq, `0x00`, count, 0-based index, then the part's bytes. */
export const commandPart = (seq: number, count: number, index: number, data: Uint8Array): Buffer => {
  const body = Buffer.allocUnsafe(4 + data.length)
  body[0] = seq & 0xff
  body[1] = 0x00
  body[2] = count
  body[3] = index
  body.set(data, 4)
  return frame(TYPE_COMMAND, body)
}

/**
 * A reply as a server sends it: one packet when the text fits in
 * `maxPartBytes`, else parts of at most `maxPartBytes` each (larger parts
 * when the text would otherwise need more than 255).
 */
export const commandReplyPackets = (seq: number, text: string, maxPartBytes: number): ReadonlyArray<Buffer> => {
  const bytes = Buffer.from(text, "utf8")
  if (bytes.length <= maxPartBytes) return [commandReply(seq, text)]
  const size = Math.max(1, maxPartBytes, Math.ceil(bytes.length / 255))
  const count = Math.ceil(bytes.length / size)
  const parts: Array<Buffer> = []
  for (let index = 0; index < count; index++) {
    parts.push(commandPart(seq, count, index, bytes.subarray(index * size, (index + 1) * size)))
  }
  return parts
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/** Checks magic, `0xFF` and CRC; returns the type byte, or -1 when the datagram is not a valid packet. */
export const packetType = (packet: Uint8Array): number => {
  if (packet.length < HEADER_LENGTH) return -1
  if (packet[0] !== 0x42 || packet[1] !== 0x45 || packet[6] !== 0xff) return -1
  const stored = (packet[2]! | (packet[3]! << 8) | (packet[4]! << 16) | (packet[5]! << 24)) >>> 0
  if ((crc32(packet.subarray(6)) >>> 0) !== stored) return -1
  return packet[7]!
}

export type ServerPacket =
  | { readonly _tag: "LoginReply"; readonly accepted: boolean }
  | { readonly _tag: "CommandReply"; readonly seq: number; readonly data: Buffer }
  | {
      readonly _tag: "CommandPart"
      readonly seq: number
      readonly count: number
      readonly index: number
      readonly data: Buffer
    }
  | { readonly _tag: "ServerMessage"; readonly seq: number; readonly data: Buffer }

/** Decodes a datagram from the server; `undefined` when malformed. */
export const decodeServerPacket = (packet: Buffer): ServerPacket | undefined => {
  const type = packetType(packet)
  switch (type) {
    case TYPE_LOGIN:
      return packet.length >= 9 ? { _tag: "LoginReply", accepted: packet[8] === 0x01 } : undefined
    case TYPE_COMMAND: {
      if (packet.length < 9) return undefined
      const seq = packet[8]!
      if (packet.length >= 12 && packet[9] === 0x00) {
        const count = packet[10]!
        const index = packet[11]!
        if (count === 0 || index >= count) return undefined
        return { _tag: "CommandPart", seq, count, index, data: packet.subarray(12) }
      }
      return { _tag: "CommandReply", seq, data: packet.subarray(9) }
    }
    case TYPE_MESSAGE:
      return packet.length >= 9 ? { _tag: "ServerMessage", seq: packet[8]!, data: packet.subarray(9) } : undefined
    default:
      return undefined
  }
}

export type ClientPacket =
  | { readonly _tag: "Login"; readonly password: string }
  | { readonly _tag: "Command"; readonly seq: number; readonly text: string }
  | { readonly _tag: "Ack"; readonly seq: number }

/** Decodes a datagram from a client (for test peers and servers); `undefined` when malformed. */
export const decodeClientPacket = (packet: Buffer): ClientPacket | undefined => {
  const type = packetType(packet)
  switch (type) {
    case TYPE_LOGIN:
      return { _tag: "Login", password: packet.toString("latin1", 8) }
    case TYPE_COMMAND:
      return packet.length >= 9 ? { _tag: "Command", seq: packet[8]!, text: packet.toString("utf8", 9) } : undefined
    case TYPE_MESSAGE:
      return packet.length >= 9 ? { _tag: "Ack", seq: packet[8]! } : undefined
    default:
      return undefined
  }
}

/** Hex with spaces, for test messages and logs: `42 45 be dc ...`. */
export const toHex = (packet: Uint8Array): string => Buffer.from(packet).toString("hex").replace(/(..)(?!$)/g, "$1 ")
