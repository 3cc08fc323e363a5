/**
 * A chat-bot call's credentials, as the conventions describe them:
 *
 * - `Authorization: Bearer <bot key>`, compared in constant time;
 * - `X-Chat-Ts: <unix seconds>` and `X-Chat-Sig: <hex HMAC-SHA256>`, keyed
 *   with the bot key, over `${ts}.${action}.${chatUserId}`; the timestamp
 *   within ±300 s of now (a signature from the future is as suspect as an
 *   old one);
 * - a signature already seen inside the window is a replay (the database
 *   remembers them, `SeenSignatures`).
 *
 * The signature is lower-case hex, 64 characters, and nothing else: the same
 * bytes in upper case would be a second spelling of one signature, and a
 * replay spelled differently must not pass as new. No signature headers at
 * all: the call is the bot's, unverified (the caller decides whether that is
 * allowed, `CHAT_REQUIRE_SIGNATURE`).
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/** The accepted distance between the call's timestamp and now, either way. */
export const SIGNATURE_WINDOW_SECONDS = 300

export const TIMESTAMP_HEADER = "x-chat-ts"
export const SIGNATURE_HEADER = "x-chat-sig"

/** What the bot signs: `HMAC-SHA256(botKey, "<ts>.<action>.<chatUserId>")` in lower-case hex. */
export const chatSignature = (botKey: string, ts: number | string, action: string, chatUserId: string): string =>
  createHmac("sha256", botKey).update(`${ts}.${action}.${chatUserId}`, "utf8").digest("hex")

export interface ChatCall {
  /** The `Authorization` header as sent. */
  readonly authorization: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly action: string
  readonly chatUserId: string
}

/** Why a call is refused. `audit`: it is a `chat.sig-rejected` (a bad key is refused without one: nobody to attribute it to). */
export interface CallRefusal {
  readonly reason: string
  readonly audit: boolean
}

export type CallCheck =
  | { readonly _tag: "Verified"; readonly signature: string; readonly timestamp: number }
  | { readonly _tag: "Unsigned" }
  | { readonly _tag: "Refused"; readonly refusal: CallRefusal }

const HEX_SHA256 = /^[0-9a-f]{64}$/
const UNIX_SECONDS = /^[0-9]{1,12}$/

const refused = (reason: string, audit = true): CallCheck => ({ _tag: "Refused", refusal: { reason, audit } })

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a, "utf8")
  const right = Buffer.from(b, "utf8")
  if (left.length !== right.length) {
    // Compared against itself, so the time taken does not say how long the key is.
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}

/** The bearer token of an `Authorization` header, or undefined. */
const bearerOf = (authorization: string | undefined): string | undefined => {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? "")
  return match?.[1]
}

/** Whether `authorization` carries the bot key (compared in constant time). */
export const carriesBotKey = (authorization: string | undefined, botKey: string): boolean => {
  const token = bearerOf(authorization)
  return token !== undefined && sameText(token, botKey)
}

/** Checks a call's key, timestamp and signature at `nowSeconds`; the replay check (`SeenSignatures`) comes after this. */
export const checkCall = (call: ChatCall, botKey: string, nowSeconds: number): CallCheck => {
  if (!carriesBotKey(call.authorization, botKey)) return refused("the bot key is wrong or missing (Authorization: Bearer <key>)", false)
  if (call.timestamp === undefined && call.signature === undefined) return { _tag: "Unsigned" }
  if (call.timestamp === undefined) return refused("X-Chat-Sig was sent without X-Chat-Ts")
  if (call.signature === undefined) return refused("X-Chat-Ts was sent without X-Chat-Sig")
  if (!UNIX_SECONDS.test(call.timestamp)) return refused("X-Chat-Ts must be a Unix time in seconds")
  const timestamp = Number(call.timestamp)
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_WINDOW_SECONDS) {
    return refused(`X-Chat-Ts is more than ${SIGNATURE_WINDOW_SECONDS} seconds from the server's time (stale or from the future)`)
  }
  if (!HEX_SHA256.test(call.signature)) return refused("X-Chat-Sig must be 64 lower-case hex characters (HMAC-SHA256)")
  const expected = chatSignature(botKey, call.timestamp, call.action, call.chatUserId)
  if (!timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(call.signature, "hex"))) {
    return refused("X-Chat-Sig does not match the timestamp, action and chat user id")
  }
  return { _tag: "Verified", signature: call.signature, timestamp }
}
