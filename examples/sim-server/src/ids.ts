/**
 * Player ids as the game derives them from Steam64 (see the reference):
 * BattlEye GUID = md5("BE" + steam64 as 8 bytes little-endian), DayZ ID =
 * base64(sha256(steam64 as ASCII decimal)) made URL-safe, padding kept.
 * The simulator has its own copy on purpose: it plays the real server, so
 * Garrison's conversions are checked against an independent implementation.
 */
import { createHash } from "node:crypto"

const BASE = 76561197960265728n

export const battlEyeGuid = (steam64: string): string => {
  const bytes = Buffer.alloc(10)
  bytes.write("BE", 0, "latin1")
  bytes.writeBigUInt64LE(BigInt(steam64), 2)
  return createHash("md5").update(bytes).digest("hex")
}

export const dayzId = (steam64: string): string =>
  createHash("sha256").update(steam64, "latin1").digest("base64").replace(/\+/g, "-").replace(/\//g, "_")

export const isSteam64 = (s: string): boolean => /^\d{17}$/.test(s) && BigInt(s) > BASE && BigInt(s) - BASE < 0x1_0000_0000n

/** Steam64, Steam2 (`STEAM_0:` or `STEAM_1:`) or Steam3 (`[U:1:n]`) to Steam64; undefined otherwise. */
export const toSteam64 = (input: string): string | undefined => {
  const s = input.trim()
  if (isSteam64(s)) return s
  const steam2 = /^STEAM_[01]:([01]):(\d+)$/i.exec(s)
  if (steam2 !== null) return (BASE + BigInt(steam2[2]!) * 2n + BigInt(steam2[1]!)).toString()
  const steam3 = /^\[?U:1:(\d+)\]?$/i.exec(s)
  if (steam3 !== null) return (BASE + BigInt(steam3[1]!)).toString()
  return undefined
}
