/**
 * Player identifiers and their conversions. Steam64 is the canonical form
 * Garrison stores; the others are derived from it:
 *
 * - Steam2 `STEAM_X:Y:Z` with `v = steam64 - 76561197960265728`, `Y = v & 1`,
 *   `Z = v >> 1` (X is 0 or 1; both accepted, 0 written).
 * - Steam3 `[U:1:v]`.
 * - BattlEye GUID: lowercase hex of `md5("BE" + steam64 as 8 bytes little-endian)`.
 * - DayZ ID (the `id=` in admin logs): `base64(sha256(steam64 as ASCII decimal))`
 *   with `+` to `-` and `/` to `_`, padding kept.
 *
 * Worked example: `76561198012345678` is `STEAM_0:0:26039975`,
 * `[U:1:52079950]`, GUID `2d3fe9abaa51e04aa876a7bcfe84e0d6`, DayZ ID
 * `yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=`.
 */
import { createHash } from "node:crypto"
import type * as Brand from "effect/Brand"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/** Steam64 of account number 0 (individual account, public universe). */
export const STEAM64_BASE = 76561197960265728n
const ACCOUNT_LIMIT = 0x1_0000_0000n

/** A Steam64 id of an individual account: 17 decimal digits, `76561197960265728 + n` with `0 < n < 2^32`. */
export type Steam64 = string & Brand.Brand<"Steam64">

export const isSteam64 = (input: string): input is Steam64 => {
  if (!/^\d{17}$/.test(input)) return false
  const account = BigInt(input) - STEAM64_BASE
  return account > 0n && account < ACCOUNT_LIMIT
}

export const Steam64: Schema.Schema<Steam64, string> = Schema.String.pipe(
  Schema.filter((s) => isSteam64(s), { message: () => "a Steam64 id (17 digits, 7656119...)" }),
  Schema.brand("Steam64")
)

export class InvalidPlayerId extends Schema.TaggedError<InvalidPlayerId>()("InvalidPlayerId", {
  input: Schema.String,
  message: Schema.String
}) {}

const accountOf = (steam64: string): bigint => BigInt(steam64) - STEAM64_BASE

const fromAccount = (account: bigint): Steam64 => (STEAM64_BASE + account).toString() as Steam64

/** `STEAM_0:Y:Z`; `universe` 1 writes `STEAM_1:` (what some games show). */
export const toSteam2 = (steam64: Steam64, universe: 0 | 1 = 0): string => {
  const account = accountOf(steam64)
  return `STEAM_${universe}:${account & 1n}:${account >> 1n}`
}

/** `[U:1:v]`. */
export const toSteam3 = (steam64: Steam64): string => `[U:1:${accountOf(steam64)}]`

/** The BattlEye GUID the server shows in `players` and its messages. */
export const toBattlEyeGuid = (steam64: Steam64): string => {
  const bytes = Buffer.alloc(10)
  bytes.write("BE", 0, "latin1")
  bytes.writeBigUInt64LE(BigInt(steam64), 2)
  return createHash("md5").update(bytes).digest("hex")
}

/** The DayZ ID written as `id=` in admin logs (44 characters, URL-safe base64 with padding). */
export const toDayzId = (steam64: Steam64): string =>
  createHash("sha256").update(steam64, "latin1").digest("base64").replace(/\+/g, "-").replace(/\//g, "_")

/** True for a well-formed BattlEye GUID (32 hex digits). */
export const isBattlEyeGuid = (input: string): boolean => /^[0-9a-f]{32}$/i.test(input)

/** True for a well-formed DayZ ID (44 characters of URL-safe base64 ending in `=`). */
export const isDayzId = (input: string): boolean => /^[A-Za-z0-9_-]{43}=$/.test(input)

const STEAM2 = /^STEAM_([01]):([01]):(\d{1,10})$/i
const STEAM3 = /^\[?U:1:(\d{1,10})\]?$/i

const accountToSteam64 = (input: string, account: bigint): Either.Either<Steam64, InvalidPlayerId> =>
  account > 0n && account < ACCOUNT_LIMIT
    ? Either.right(fromAccount(account))
    : Either.left(new InvalidPlayerId({ input, message: "the account number is out of range" }))

/** Steam2 (`STEAM_0:` or `STEAM_1:`) to Steam64. */
export const fromSteam2 = (input: string): Either.Either<Steam64, InvalidPlayerId> => {
  const match = STEAM2.exec(input.trim())
  if (match === null) return Either.left(new InvalidPlayerId({ input, message: "not a Steam2 id (STEAM_X:Y:Z)" }))
  return accountToSteam64(input, BigInt(match[3]!) * 2n + BigInt(match[2]!))
}

/** Steam3 (`[U:1:v]`, brackets optional) to Steam64. */
export const fromSteam3 = (input: string): Either.Either<Steam64, InvalidPlayerId> => {
  const match = STEAM3.exec(input.trim())
  if (match === null) return Either.left(new InvalidPlayerId({ input, message: "not a Steam3 id ([U:1:n])" }))
  return accountToSteam64(input, BigInt(match[1]!))
}

/**
 * Any of Steam64, Steam2 or Steam3 to Steam64: how a `platformId` from a
 * request is normalised before it is stored or compared.
 */
export const parsePlatformId = (input: string): Either.Either<Steam64, InvalidPlayerId> => {
  const trimmed = input.trim()
  if (/^\d+$/.test(trimmed)) {
    return isSteam64(trimmed)
      ? Either.right(trimmed)
      : Either.left(new InvalidPlayerId({ input, message: "not a Steam64 id (17 digits, 7656119...)" }))
  }
  if (STEAM2.test(trimmed)) return fromSteam2(trimmed)
  if (STEAM3.test(trimmed)) return fromSteam3(trimmed)
  return Either.left(new InvalidPlayerId({ input, message: "expected a Steam64, Steam2 (STEAM_0:Y:Z) or Steam3 ([U:1:n]) id" }))
}

/**
 * Decodes any of Steam64, Steam2 or Steam3 into Steam64 (and encodes as
 * Steam64): the `Schema` for a `platformId` field.
 */
export const PlatformId: Schema.Schema<Steam64, string> = Schema.transformOrFail(Schema.String, Schema.typeSchema(Steam64), {
  strict: true,
  decode: (input, _, ast) =>
    Either.match(parsePlatformId(input), {
      onLeft: (error) => ParseResult.fail(new ParseResult.Type(ast, input, error.message)),
      onRight: (steam64) => ParseResult.succeed(steam64)
    }),
  encode: (steam64: Steam64) => ParseResult.succeed(steam64 as string)
})
