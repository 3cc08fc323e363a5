/** The pure rules: the retry schedule, what each outcome means, a chat message's limits, stored text. */
import { describe, expect, it } from "@effect/vitest"
import { CHAT_LIMITS, chatMessage } from "../../src/webhooks/internal/chat.js"
import { makePacer } from "../../src/webhooks/internal/giveWay.js"
import { backoffMs, retryAfterHeaderMs, verdictOf } from "../../src/webhooks/internal/retry.js"
import { cut, responseExcerpt, storable } from "../../src/webhooks/internal/text.js"

const answered = (status: number, body = "", retryAfter?: string) => ({ _tag: "Answered" as const, status, retryAfter, body: Buffer.from(body) })

describe("webhook rules", () => {
  it("backoff: 10 s doubling up to an hour, ±20 %", () => {
    expect([1, 2, 3, 4, 5, 9, 10, 20].map((n) => backoffMs(n, 0.5))).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 2_560_000, 3_600_000, 3_600_000])
    expect(backoffMs(1, 0)).toBe(8_000)
    expect(backoffMs(1, 0.999999)).toBe(12_000)
    expect(backoffMs(30, 0)).toBe(2_880_000)
  })

  it("outcomes: 2xx delivered; 5xx, 408, 429, time-outs and failed connections retried; other answers and refusals final", () => {
    const now = Date.parse("2026-03-01T12:00:00Z")
    expect(verdictOf(answered(200), now)._tag).toBe("Delivered")
    expect(verdictOf(answered(204), now)._tag).toBe("Delivered")
    for (const status of [500, 502, 503, 504, 408, 429]) expect(verdictOf(answered(status), now)._tag, String(status)).toBe("Retry")
    for (const status of [301, 302, 400, 401, 403, 404, 410, 422]) expect(verdictOf(answered(status), now)._tag, String(status)).toBe("Final")
    expect(verdictOf(answered(302), now)).toMatchObject({ reason: "answered 302: redirects are not followed" })
    expect(verdictOf({ _tag: "TimedOut", afterMs: 10_000 }, now)).toEqual({ _tag: "Retry", reason: "no answer within 10 s", waitMs: undefined })
    expect(verdictOf({ _tag: "Unreachable", reason: "the connection was refused" }, now)._tag).toBe("Retry")
    expect(verdictOf({ _tag: "Refused", reason: "x is a loopback address" }, now)._tag).toBe("Final")
    // A 429's wait: the body's retry_after (seconds) first, then Retry-After (seconds or a date), capped at 6 hours.
    expect(verdictOf(answered(429, '{"retry_after": 0.25}', "9"), now)).toMatchObject({ waitMs: 250 })
    expect(verdictOf(answered(429, "slow down", "9"), now)).toMatchObject({ waitMs: 9000 })
    expect(verdictOf(answered(503, "", "Sun, 01 Mar 2026 12:01:00 GMT"), now)).toMatchObject({ waitMs: 60_000 })
    expect(verdictOf(answered(429, "", "999999"), now)).toMatchObject({ waitMs: 6 * 3600_000 })
    expect(verdictOf(answered(429, "", "soon"), now)).toMatchObject({ waitMs: undefined })
    expect(retryAfterHeaderMs(undefined, now)).toBeUndefined()
  })

  it("a chat message stays within the platform's limits whatever the event holds", () => {
    const data = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key_${i}`, i % 3 === 0 ? "" : i % 3 === 1 ? { nested: "x".repeat(3000) } : "y".repeat(5000)]))
    const message = chatMessage({ event: "test.ping", timestamp: "2026-03-01T12:00:00.000Z", data, summary: "s".repeat(9000), severity: "warning", serverName: "n".repeat(3000) })
    expect(message.content.length).toBe(CHAT_LIMITS.content)
    const embed = message.embeds[0]!
    expect(embed.title.length).toBe(CHAT_LIMITS.title)
    expect(embed.color).toBe(0xf39c12)
    expect(embed.fields.length).toBeLessThanOrEqual(CHAT_LIMITS.fields)
    for (const field of embed.fields) {
      expect(field.name.length).toBeGreaterThan(0)
      expect(field.value.length).toBeGreaterThan(0)
      expect(field.value.length).toBeLessThanOrEqual(CHAT_LIMITS.fieldValue)
    }
    expect(embed.fields[2]).toMatchObject({ name: "Key 0", value: "—" })
    const total = embed.title.length + embed.footer.text.length + embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0)
    expect(total).toBeLessThanOrEqual(CHAT_LIMITS.embedTotal)
    expect(message.allowed_mentions).toEqual({ parse: [] })
    // No server: the footer says Garrison only, and there is no Server field.
    const plain = chatMessage({ event: "bans.imported", timestamp: "2026-03-01T12:00:00.000Z", data: { added: 3 }, summary: "3 bans imported", severity: "info", serverName: null })
    expect(plain.embeds[0]).toMatchObject({ footer: { text: "Garrison" }, fields: [{ name: "Event", value: "bans.imported" }, { name: "Added", value: "3" }] })
  })

  it("stored text: cut whole, control characters and lone surrogates replaced", () => {
    expect(cut("abcdef", 4)).toBe("abc…")
    expect(cut("ab😀cd", 4)).toBe("ab…")
    expect(cut("abc", 4)).toBe("abc")
    expect(storable("a\u0000b\u0007c\td\ne\ud800f😀")).toBe("a\uFFFDb\uFFFDc\td\ne\uFFFDf😀")
    expect(responseExcerpt(Buffer.from("é".repeat(600)).subarray(0, 1023), false)).toBe("é".repeat(511))
  })
})

describe("giving way (the dispatcher's pacing)", () => {
  it("not giving way: everything may start; giving way: one at a time, one per slot", () => {
    const pacer = makePacer(50)
    expect(pacer.take(0, false, 5)).toBe(true)
    expect(pacer.take(0, false, 0)).toBe(true)
    // Giving way: the first takes the slot; the next waits for it to pass, and for the one under way to end.
    expect(pacer.take(1000, true, 0)).toBe(true)
    expect(pacer.nextSlotAt()).toBe(1050)
    expect(pacer.take(1010, true, 0)).toBe(false)
    expect(pacer.take(1050, true, 1)).toBe(false)
    expect(pacer.take(1050, true, 0)).toBe(true)
    expect(pacer.nextSlotAt()).toBe(1100)
    // The requests stopped: full speed at once, whatever the slot says.
    expect(pacer.take(1051, false, 3)).toBe(true)
  })
})
