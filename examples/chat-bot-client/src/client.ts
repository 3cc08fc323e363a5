/**
 * A signed client for Garrison's chat-bot endpoint, `POST /api/chat/action`.
 * Copy this file into your bot: it needs Node 20 and nothing else (`fetch`,
 * `node:crypto`).
 *
 * Every call carries
 *
 * - `Authorization: Bearer <bot key>`,
 * - `X-Chat-Ts: <unix seconds>`,
 * - `X-Chat-Sig: <lower-case hex HMAC-SHA256, keyed with the bot key, over
 *   "${ts}.${action}.${chatUserId}">`,
 *
 * and a JSON body `{action, chatUserId, chatUserTag?, serverId?, params?}`.
 *
 * Two rules the controller enforces shape this client:
 *
 * - A signature is accepted once. Two calls with the same action and chat
 *   user in the same second would carry the same signature, and the second
 *   would be refused (403, "already used": a replay). So the client never
 *   signs the same (ts, action, chatUserId) twice: it remembers the last
 *   second it used per action and user and, if needed, waits for the next.
 *   That memory is this object's: make one client per process and share it.
 * - Each chat user has a cooldown per action (3 s for queries, 10 s for
 *   admin actions, 30 s for start/stop/restart): 429 with `Retry-After`.
 *   The client waits that long and tries again (signed afresh), a bounded
 *   number of times. Every other answer is returned as it is.
 */
import { createHmac } from "node:crypto"

/** The signature of one call: HMAC-SHA256 keyed with the bot key, lower-case hex. */
export const signChatCall = (botKey: string, ts: number, action: string, chatUserId: string): string =>
  createHmac("sha256", botKey).update(`${ts}.${action}.${chatUserId}`, "utf8").digest("hex")

/** What a call is about besides its action. */
export interface ChatCallInput {
  /** The chat platform's user id (1 to 64 letters, digits or `._:@-`): their role decides what they may do. */
  readonly chatUserId: string
  /** Their display name, for the audit trail (never used to decide anything). */
  readonly chatUserTag?: string
  /** The server the action is about: every action but `servers` needs one. */
  readonly serverId?: string
  /** The action's inputs (`{platformId: "7656119...", reason: "..."}`). */
  readonly params?: Readonly<Record<string, unknown>>
}

/** 200: the action ran. `message` is meant for the chat; the action's data is beside it. */
export interface ChatAnswer {
  readonly ok: true
  readonly action: string
  readonly serverId: string | null
  /** False only for unsigned calls (this client always signs). */
  readonly verified: boolean
  readonly message: string
  readonly [data: string]: unknown
}

/** Any other status: 403 (wrong key, bad signature, role lacks the permission), 400, 404, 429, 503, ... */
export interface ChatError {
  readonly error: string
  readonly message: string
  readonly details?: unknown
}

export type ChatReply = { readonly status: 200; readonly body: ChatAnswer } | { readonly status: number; readonly body: ChatError }

export interface ChatClientOptions {
  /** The controller's address, `https://garrison.example.com` (no trailing `/api`). */
  readonly baseUrl: string
  /** The bot key (`CHAT_BOT_API_KEY`, or the one an admin was shown in the dashboard). */
  readonly botKey: string
  /** How many times a call is sent at most when it keeps answering 429 (default 3). */
  readonly maxAttempts?: number
  /** A 429 asking to wait longer than this is returned instead (default 60 s). */
  readonly maxWaitSeconds?: number
  /** For tests: the HTTP client, the wait and the clock (ms since the epoch). */
  readonly fetch?: typeof fetch
  readonly sleep?: (ms: number) => Promise<void>
  readonly now?: () => number
}

export interface ChatClient {
  readonly call: (action: string, input: ChatCallInput) => Promise<ChatReply>
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const makeChatClient = (options: ChatClientOptions): ChatClient => {
  const send = options.fetch ?? fetch
  const sleep = options.sleep ?? realSleep
  const now = options.now ?? Date.now
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3)
  const maxWaitSeconds = options.maxWaitSeconds ?? 60
  const url = `${options.baseUrl.replace(/\/+$/, "")}/api/chat/action`
  /** The last second signed for each action and chat user, so that no signature is ever sent twice. */
  const lastTs = new Map<string, number>()

  /** A second not yet used for this action and user: this one, or the next after the last one used. */
  const freshTs = async (action: string, chatUserId: string): Promise<number> => {
    const key = `${action}\u0000${chatUserId}`
    const current = Math.floor(now() / 1000)
    const ts = Math.max(current, (lastTs.get(key) ?? -1) + 1)
    // Taken before waiting, so two calls made at once cannot pick the same second.
    lastTs.set(key, ts)
    // Wait for that second to begin (a timestamp ahead of the clock would be sent early).
    if (ts > current) await sleep(ts * 1000 - now())
    // Forget the seconds that are past: they can no longer collide.
    if (lastTs.size > 1000) for (const [k, t] of lastTs) if (t < current) lastTs.delete(k)
    return ts
  }

  const attempt = async (action: string, input: ChatCallInput): Promise<{ reply: ChatReply; retryAfter: string | null }> => {
    const ts = await freshTs(action, input.chatUserId)
    const response = await send(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${options.botKey}`,
        "x-chat-ts": String(ts),
        "x-chat-sig": signChatCall(options.botKey, ts, action, input.chatUserId),
        "content-type": "application/json"
      },
      body: JSON.stringify({ action, ...input }),
      signal: AbortSignal.timeout(15_000)
    })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      // Not the controller's JSON (a proxy's error page, say): an error all the same.
      body = { error: "unexpected-answer", message: `HTTP ${response.status}: ${text.slice(0, 200)}` }
    }
    return { reply: { status: response.status, body } as ChatReply, retryAfter: response.headers.get("retry-after") }
  }

  const call: ChatClient["call"] = async (action, input) => {
    for (let tries = 1; ; tries++) {
      const { reply, retryAfter } = await attempt(action, input)
      if (reply.status !== 429 || tries >= maxAttempts) return reply
      // Retry-After in seconds (the controller always sends it on 429); a missing or odd one counts as 1 s.
      const seconds = Number(retryAfter)
      const wait = Number.isFinite(seconds) && seconds > 0 ? seconds : 1
      if (wait > maxWaitSeconds) return reply
      await sleep(wait * 1000)
    }
  }

  return { call }
}
