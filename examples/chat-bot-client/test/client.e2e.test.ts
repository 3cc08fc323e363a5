/**
 * The chat-bot client against the built controller as a process
 * (`@garrison/testkit`'s `spawnController`, the default plugins, a fixed
 * `CHAT_BOT_API_KEY`): the library's calls and the CLI (`dist/main.js`) as a
 * bot author runs them. Needs a build (`npm run build`); in the repository it
 * runs with the end-to-end tests (the `e2e` project). The cooldown it meets
 * is the controller's real one (3 s for queries), so one test waits ~3 s.
 */
import { type SpawnedController, scopedTempDir, spawnController } from "@garrison/testkit"
import { Effect, Exit, Scope } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChatClientOptions, makeChatClient, signChatCall } from "../src/index.js"

/** `gcb_` and 43 characters, like a generated key. */
const KEY = "gcb_e2e-chat-bot-client-key-0123456789abcdefghi"
const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url))

let scope: Scope.CloseableScope
let controller: SpawnedController

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  controller = await Effect.runPromise(
    Effect.gen(function* () {
      // Released after the controller has stopped (a scope closes in reverse order).
      const dataDir = yield* scopedTempDir("garrison-chat-client-")
      return yield* spawnController({ dataDir, env: { CHAT_BOT_API_KEY: KEY } })
    }).pipe(Scope.extend(scope))
  )
}, 60_000)

afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** A client on the controller whose requests and waits are recorded (the waits are real). */
const recorded = (options: Partial<ChatClientOptions> = {}) => {
  const answers: Array<{ readonly status: number; readonly retryAfter: string | null }> = []
  const slept: Array<number> = []
  const client = makeChatClient({
    baseUrl: controller.baseUrl,
    botKey: KEY,
    fetch: async (url, init) => {
      const response = await fetch(url, init)
      answers.push({ status: response.status, retryAfter: response.headers.get("retry-after") })
      return response
    },
    sleep: (ms) => {
      slept.push(ms)
      return new Promise((resolve) => setTimeout(resolve, ms))
    },
    ...options
  })
  return { client, answers, slept }
}

describe("the chat-bot client against the controller", () => {
  it("servers, as a chat user with no role mapping: 200, verified, the servers they may see", async () => {
    const { client, answers } = recorded()
    const reply = await client.call("servers", { chatUserId: "100000000000000001", chatUserTag: "Alpha#0001" })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ ok: true, action: "servers", serverId: null, verified: true, message: expect.any(String) })
    expect(Array.isArray((reply.body as Record<string, unknown>)["servers"])).toBe(true)
    expect(answers).toEqual([{ status: 200, retryAfter: null }])
  })

  it("servers twice in a row: the second meets the 3 s cooldown (429), waits Retry-After and succeeds", async () => {
    const { client, answers, slept } = recorded()
    const user = { chatUserId: "100000000000000002" }
    expect((await client.call("servers", user)).status).toBe(200)
    const started = Date.now()
    const second = await client.call("servers", user)
    expect(second).toMatchObject({ status: 200, body: { ok: true, verified: true } })
    expect(answers.map((answer) => answer.status)).toEqual([200, 429, 200])
    const retryAfter = Number(answers[1]!.retryAfter)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(3)
    // The wait for the retry is the controller's Retry-After (another, under a second, may come first: the next second).
    expect(slept.at(-1)).toBe(retryAfter * 1000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfter * 1000)
  }, 20_000)

  it("an unknown action: 400 listing the known ones, answered without a retry", async () => {
    const { client, answers, slept } = recorded()
    const reply = await client.call("nope", { chatUserId: "100000000000000003" })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: "invalid-request", details: { field: "action", known: expect.arrayContaining(["servers", "status"]) } })
    expect(answers).toHaveLength(1)
    expect(slept).toEqual([])
  })

  it("a wrong bot key: 403", async () => {
    const { client, answers } = recorded({ botKey: `gcb_${"x".repeat(43)}` })
    const reply = await client.call("servers", { chatUserId: "100000000000000004" })
    expect(reply).toMatchObject({ status: 403, body: { error: "forbidden", message: expect.stringContaining("bot key is wrong") } })
    expect(answers).toHaveLength(1)
  })

  it("why the client never reuses a second: the same signed call sent twice is refused the second time (a replay)", async () => {
    const ts = Math.floor(Date.now() / 1000)
    const chatUserId = "100000000000000007"
    const send = () =>
      fetch(`${controller.baseUrl}/api/chat/action`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY}`,
          "x-chat-ts": String(ts),
          "x-chat-sig": signChatCall(KEY, ts, "servers", chatUserId),
          "content-type": "application/json"
        },
        body: JSON.stringify({ action: "servers", chatUserId })
      })
    expect((await send()).status).toBe(200)
    const replay = await send()
    expect(replay.status).toBe(403)
    expect(await replay.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("already used") })
  })

  it("the CLI prints the answer's message and exits 0; a refusal goes to stderr with exit code 1", async () => {
    const run = (key: string, ...args: Array<string>) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [MAIN, ...args], { env: { ...process.env, GARRISON_URL: controller.baseUrl, CHAT_BOT_API_KEY: key } }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
        )
      })
    const ok = await run(KEY, "servers", "--user", "100000000000000005")
    expect(ok).toMatchObject({ code: 0, stderr: "" })
    expect(ok.stdout.trim()).not.toBe("")
    const unknown = await run(KEY, "nope", "--user", "100000000000000005")
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^400 invalid-request: unknown action "nope"/)
    const wrongKey = await run(`gcb_${"y".repeat(43)}`, "servers", "--user", "100000000000000006")
    expect(wrongKey.code).toBe(1)
    expect(wrongKey.stderr).toMatch(/^403 forbidden: /)
    const usage = await run(KEY, "servers")
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("--user is required")
  })
})
