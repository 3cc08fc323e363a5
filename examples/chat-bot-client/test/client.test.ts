/**
 * The chat-bot client on its own, against a scripted `fetch` and a fake
 * clock: the signature, the headers and body it sends, one timestamp per
 * action and user per second (the controller refuses a signature it has
 * seen), 429s retried after `Retry-After` a bounded number of times, and
 * every other answer returned as it came. Against the real controller:
 * `client.e2e.test.ts`.
 */
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { makeChatClient, signChatCall } from "../src/index.js"

const KEY = "gcb_unit-test-key-0123456789abcdefghijklmnopqrstu"
const USER = "123456789012345678"
/** 2025-11-27T12:00:00Z. */
const START_MS = 1_764_244_800_000

interface Sent {
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: Record<string, unknown>
  readonly atMs: number
}

interface Scripted {
  readonly status: number
  readonly body: unknown
  readonly headers?: Record<string, string>
}

/** A client whose fetch answers `script` in turn (the last one again when it runs out), on a clock that only `sleep` moves. */
const scripted = (script: ReadonlyArray<Scripted | string>, options: { maxAttempts?: number; maxWaitSeconds?: number; startMs?: number } = {}) => {
  let clock = options.startMs ?? START_MS
  const sent: Array<Sent> = []
  const slept: Array<number> = []
  const fakeFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push({ url: String(url), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)), atMs: clock })
    const next = script[Math.min(sent.length - 1, script.length - 1)]!
    if (typeof next === "string") return new Response(next, { status: 502 })
    return new Response(JSON.stringify(next.body), { status: next.status, headers: { "content-type": "application/json", ...next.headers } })
  }
  const client = makeChatClient({
    baseUrl: "http://garrison.test/",
    botKey: KEY,
    fetch: fakeFetch as typeof fetch,
    sleep: async (ms) => {
      slept.push(ms)
      clock += Math.max(0, ms)
    },
    now: () => clock,
    ...options
  })
  return { client, sent, slept, tick: (ms: number) => void (clock += ms) }
}

const OK = { status: 200, body: { ok: true, action: "servers", serverId: null, verified: true, message: "2 servers", servers: [] } }
const COOLDOWN = (seconds: number): Scripted => ({
  status: 429,
  body: { error: "rate-limited", message: `servers was run by this chat user moments ago; try again in ${seconds} s`, details: { retryAfterSeconds: seconds } },
  headers: { "retry-after": String(seconds) }
})

describe("signChatCall", () => {
  it("is HMAC-SHA256 keyed with the bot key over `${ts}.${action}.${chatUserId}`, in lower-case hex", () => {
    const expected = createHmac("sha256", KEY).update(`1764244800.servers.${USER}`, "utf8").digest("hex")
    expect(signChatCall(KEY, 1_764_244_800, "servers", USER)).toBe(expected)
    // The same vector written out, so a change to the test's own computation cannot hide a change to the client's.
    expect(expected).toBe("968ada076b3d6b5dec47c80783d3d6ef3b3f49240093fce8fcfe8a03e7ebf318")
    expect(signChatCall(KEY, 1_764_244_801, "servers", USER)).not.toBe(expected)
  })
})

describe("makeChatClient", () => {
  it("POSTs the signed call to <baseUrl>/api/chat/action and answers the status and body", async () => {
    const { client, sent } = scripted([OK])
    const reply = await client.call("status", { chatUserId: USER, chatUserTag: "Bravo#0001", serverId: "s1", params: { verbose: true } })
    expect(reply).toEqual({ status: 200, body: OK.body })
    expect(sent).toHaveLength(1)
    const [call] = sent
    expect(call!.url).toBe("http://garrison.test/api/chat/action")
    expect(call!.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      "x-chat-ts": "1764244800",
      "x-chat-sig": signChatCall(KEY, 1_764_244_800, "status", USER),
      "content-type": "application/json"
    })
    expect(call!.body).toEqual({ action: "status", chatUserId: USER, chatUserTag: "Bravo#0001", serverId: "s1", params: { verbose: true } })
  })

  it("never signs one (ts, action, chat user) twice: a second call in the same second waits for the next", async () => {
    const { client, sent, slept, tick } = scripted([OK])
    tick(250)
    await client.call("servers", { chatUserId: USER })
    await client.call("servers", { chatUserId: USER })
    // Another user, or another action, may use the same second.
    await client.call("servers", { chatUserId: "someone-else" })
    await client.call("status", { chatUserId: USER, serverId: "s1" })
    const stamps = sent.map((call) => `${call.body["action"]} ${call.body["chatUserId"]} ${call.headers["x-chat-ts"]}`)
    expect(stamps).toEqual([`servers ${USER} 1764244800`, `servers ${USER} 1764244801`, "servers someone-else 1764244801", `status ${USER} 1764244801`])
    // It waited until the next second began, and sent the call then.
    expect(slept).toEqual([750])
    expect(sent[1]!.atMs).toBe(START_MS + 1000)
    expect(new Set(sent.map((call) => call.headers["x-chat-sig"])).size).toBe(4)
  })

  it("two calls made at once get two seconds", async () => {
    const { client, sent } = scripted([OK])
    await Promise.all([client.call("servers", { chatUserId: USER }), client.call("servers", { chatUserId: USER })])
    expect(sent.map((call) => call.headers["x-chat-ts"]).sort()).toEqual(["1764244800", "1764244801"])
  })

  it("on 429 waits Retry-After and tries again, signed with a new timestamp", async () => {
    const { client, sent, slept } = scripted([COOLDOWN(3), OK])
    const reply = await client.call("servers", { chatUserId: USER })
    expect(reply.status).toBe(200)
    expect(slept).toEqual([3000])
    expect(sent.map((call) => call.headers["x-chat-ts"])).toEqual(["1764244800", "1764244803"])
    expect(sent[1]!.headers["x-chat-sig"]).toBe(signChatCall(KEY, 1_764_244_803, "servers", USER))
  })

  it("gives up after maxAttempts and answers the last 429", async () => {
    const { client, sent, slept } = scripted([COOLDOWN(2)], { maxAttempts: 4 })
    const reply = await client.call("servers", { chatUserId: USER })
    expect(reply).toMatchObject({ status: 429, body: { error: "rate-limited" } })
    expect(sent).toHaveLength(4)
    expect(slept).toEqual([2000, 2000, 2000])
  })

  it("answers a 429 that asks for longer than maxWaitSeconds at once", async () => {
    const { client, sent, slept } = scripted([COOLDOWN(30), OK], { maxWaitSeconds: 10 })
    expect((await client.call("restart", { chatUserId: USER, serverId: "s1" })).status).toBe(429)
    expect(sent).toHaveLength(1)
    expect(slept).toEqual([])
  })

  it("answers every other refusal as it came, without retrying", async () => {
    for (const refusal of [
      { status: 400, body: { error: "invalid-request", message: 'unknown action "nope"', details: { field: "action", known: ["servers", "status"] } } },
      { status: 403, body: { error: "forbidden", message: "the bot key is wrong or missing (Authorization: Bearer <key>)" } },
      { status: 404, body: { error: "not-found", message: 'no server with id "s9"' } },
      { status: 503, body: { error: "unavailable", message: "the Steam Workshop cannot be reached" } }
    ]) {
      const { client, sent, slept } = scripted([refusal, OK])
      expect(await client.call("status", { chatUserId: USER, serverId: "s1" })).toEqual(refusal)
      expect(sent).toHaveLength(1)
      expect(slept).toEqual([])
    }
  })

  it("turns an answer that is not JSON into an error with its status", async () => {
    const { client } = scripted(["<html>Bad Gateway</html>"])
    expect(await client.call("servers", { chatUserId: USER })).toEqual({
      status: 502,
      body: { error: "unexpected-answer", message: "HTTP 502: <html>Bad Gateway</html>" }
    })
  })
})
