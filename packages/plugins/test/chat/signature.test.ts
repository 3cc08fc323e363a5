/**
 * The chat-bot call check, mutation by mutation: the key, the timestamp at
 * ±300 s and ±301 s, the action, the chat user id, the signature's bytes and
 * its case; a replay inside the window; an unsigned call; and the action
 * table and cooldowns.
 */
import { describe, expect, it } from "@effect/vitest"
import { CHAT_ACTIONS, COOLDOWN_MS, knownActions } from "../../src/chat/internal/actions.js"
import { makeCooldowns } from "../../src/chat/internal/cooldowns.js"
import { type ChatCall, chatSignature, checkCall, SIGNATURE_WINDOW_SECONDS } from "../../src/chat/internal/signature.js"

const KEY = "bot-key-0123456789abcdef0123456789abcdef"
const NOW = 1_800_000_000

const signed = (overrides: Partial<ChatCall> = {}, ts = NOW): ChatCall => ({
  authorization: `Bearer ${KEY}`,
  timestamp: String(ts),
  signature: chatSignature(KEY, ts, "restart", "123456789012345678"),
  action: "restart",
  chatUserId: "123456789012345678",
  ...overrides
})

const tagOf = (call: ChatCall, now = NOW) => checkCall(call, KEY, now)._tag
const reasonOf = (call: ChatCall, now = NOW) => {
  const check = checkCall(call, KEY, now)
  return check._tag === "Refused" ? check.refusal : undefined
}

describe("chat-bot call check", () => {
  it("a well-signed call verifies; at the window's edges too", () => {
    expect(tagOf(signed())).toBe("Verified")
    expect(tagOf(signed({}, NOW - SIGNATURE_WINDOW_SECONDS))).toBe("Verified")
    expect(tagOf(signed({}, NOW + SIGNATURE_WINDOW_SECONDS))).toBe("Verified")
  })

  it("every mutation is refused, with its reason; a wrong key without an audit row, the rest with one", () => {
    expect(reasonOf(signed({ authorization: "Bearer not-the-key" }))).toEqual({ reason: expect.stringContaining("bot key"), audit: false })
    expect(reasonOf(signed({ authorization: undefined }))?.audit).toBe(false)
    expect(reasonOf(signed({ authorization: KEY }))?.audit).toBe(false)
    expect(reasonOf(signed({}, NOW - SIGNATURE_WINDOW_SECONDS - 1))?.reason).toContain("X-Chat-Ts")
    expect(reasonOf(signed({}, NOW + SIGNATURE_WINDOW_SECONDS + 1))?.reason).toContain("X-Chat-Ts")
    // The signature was made for "restart" by that user at NOW: any other field breaks it.
    expect(reasonOf(signed({ action: "stop" }))?.reason).toContain("does not match")
    expect(reasonOf(signed({ chatUserId: "123456789012345679" }))?.reason).toContain("does not match")
    expect(reasonOf(signed({ timestamp: String(NOW + 1) }))?.reason).toContain("does not match")
    const good = signed().signature!
    const flipped = `${good.slice(0, 10)}${good[10] === "0" ? "1" : "0"}${good.slice(11)}`
    expect(reasonOf(signed({ signature: flipped }))?.reason).toContain("does not match")
    // The same bytes in upper case: a second spelling, refused (a replay must not pass as new).
    expect(reasonOf(signed({ signature: good.toUpperCase() }))?.reason).toContain("lower-case hex")
    expect(reasonOf(signed({ signature: good.slice(0, 63) }))?.reason).toContain("lower-case hex")
    expect(reasonOf(signed({ timestamp: "1.8e9" }))?.reason).toContain("Unix time")
    expect(reasonOf(signed({ timestamp: undefined }))?.reason).toContain("without X-Chat-Ts")
    expect(reasonOf(signed({ signature: undefined }))?.reason).toContain("without X-Chat-Sig")
    // A signature made with another key.
    expect(reasonOf(signed({ signature: chatSignature("another-key", NOW, "restart", "123456789012345678") }))?.reason).toContain("does not match")
  })

  it("no signature headers: the bot's call, unverified (the key still checked)", () => {
    expect(tagOf(signed({ timestamp: undefined, signature: undefined }))).toBe("Unsigned")
    expect(tagOf(signed({ timestamp: undefined, signature: undefined, authorization: "Bearer nope" }))).toBe("Refused")
  })
})

describe("chat-bot actions", () => {
  it("every action of the conventions' table, with its permission and cooldown", () => {
    expect(CHAT_ACTIONS.size).toBe(34)
    expect(CHAT_ACTIONS.get("restart")).toEqual({ name: "restart", permission: "server.restart", kind: "power", global: false })
    // The ban list and the priority queue are every server's: a grant scoped to one server does not reach them.
    expect([...CHAT_ACTIONS.values()].filter((action) => action.global).map((action) => action.name)).toEqual(["banWhitelist", "priorityQueue"])
    expect(CHAT_ACTIONS.get("actionSpawnItem")?.permission).toBe("server.rcon")
    expect(CHAT_ACTIONS.get("leaderboard")?.permission).toBe("metrics.view")
    expect(CHAT_ACTIONS.get("status")?.kind).toBe("query")
    expect(knownActions()[0]).toBe("actionExplode")
    expect(COOLDOWN_MS).toEqual({ query: 3_000, admin: 10_000, power: 30_000 })
  })

  it("cooldowns: per user and action; what is left is answered; forgotten once over", () => {
    const cooldowns = makeCooldowns()
    expect(cooldowns.take("u1", "restart", 30_000, 0)).toBeUndefined()
    expect(cooldowns.take("u1", "restart", 30_000, 10_000)).toBe(20_000)
    // Another user, another action: their own cooldowns.
    expect(cooldowns.take("u2", "restart", 30_000, 10_000)).toBeUndefined()
    expect(cooldowns.take("u1", "status", 3_000, 10_000)).toBeUndefined()
    // A refused call does not restart the cooldown.
    expect(cooldowns.take("u1", "restart", 30_000, 29_999)).toBe(1)
    expect(cooldowns.take("u1", "restart", 30_000, 30_000)).toBeUndefined()
    expect(cooldowns.take("u9", "status", 3_000, 100_000)).toBeUndefined()
    expect(cooldowns.size()).toBe(1)
  })
})
