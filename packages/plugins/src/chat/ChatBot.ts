/**
 * The chat bot's calls, from the request to the answer:
 *
 * 1. the bot key (`Authorization: Bearer`): wrong or missing, 403 and no
 *    audit row (nobody to attribute it to);
 * 2. the signature (`X-Chat-Ts`, `X-Chat-Sig`) and the replay check: bad,
 *    stale or replayed, 403 and `chat.sig-rejected`; none at all, the call
 *    runs as unverified unless `CHAT_REQUIRE_SIGNATURE`;
 * 3. the action: unknown, 400 listing the known ones;
 * 4. the chat user's role (their mapping, else `chat-bot`) against the
 *    action's permission on the server: missing, 403 and `chat.denied`;
 * 5. the user's cooldown for the action: 429 with `Retry-After`;
 * 6. the action, run as the chat user (the services it calls audit and
 *    publish as for the REST API), and a `chat.action` audit row tagged
 *    with the signature's state.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import {
  AuditTrail,
  canSeeServer,
  currentPrincipalRef,
  EventBus,
  type Principal,
  principalCan,
  recordForRequest,
  RuntimeSettings
} from "@garrison/runtime"
import { CHAT_BOT_ROLE, principalOfRole, Roles } from "../accounts/index.js"
import { AdminActions } from "../actions/index.js"
import { Bans } from "../bans/index.js"
import { ServerConfigs } from "../config/index.js"
import { Mods } from "../mods/index.js"
import { PriorityQueue } from "../priority/index.js"
import { Servers } from "../servers/index.js"
import { BotKey } from "./BotKey.js"
import { ChatUserRoles } from "./ChatUserRoles.js"
import { RequireSignatureSetting } from "./config.js"
import type { ChatActionRequest } from "./contract/Api.js"
import type { ChatStoreError } from "./errors.js"
import { CHAT_ACTIONS, COOLDOWN_MS, knownActions } from "./internal/actions.js"
import { canonicalAction } from "./internal/aliases.js"
import { type ChatFeed, makeChatFeed } from "./internal/chatFeed.js"
import { makeCooldowns } from "./internal/cooldowns.js"
import { asRefusal } from "./internal/refusals.js"
import { FLEET_RUNNERS, SERVER_RUNNERS } from "./internal/run/index.js"
import { Watchlist } from "../watchlist/index.js"
import { makeSeenSignatures } from "./internal/seenSignatures.js"
import { carriesBotKey, checkCall } from "./internal/signature.js"

export interface ChatCallHeaders {
  readonly authorization: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
}

/** The answer to send: its status, body and extra headers. */
export interface ChatReply {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
  readonly headers?: Readonly<Record<string, string>>
}

export interface ChatBotShape {
  readonly call: (request: ChatActionRequest, headers: ChatCallHeaders, clientIp: string | null) => Effect.Effect<ChatReply, ChatStoreError>
  /** The chat lines the bot's `chatFeed` answers (fed by the plugin's `ChatMessage` handler). */
  readonly chatFeed: ChatFeed
}

const failure = (status: number, error: string, message: string, details?: unknown, headers?: Record<string, string>): ChatReply => ({
  status,
  body: details === undefined ? { error, message } : { error, message, details },
  ...(headers === undefined ? {} : { headers })
})

export class ChatBot extends Context.Tag("@garrison/plugins/chat/ChatBot")<ChatBot, ChatBotShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const runtimeSettings = yield* RuntimeSettings
    const botKey = yield* BotKey
    const mappings = yield* ChatUserRoles
    const roles = yield* Roles
    const audit = yield* AuditTrail
    const services = {
      servers: yield* Servers,
      actions: yield* AdminActions,
      mods: yield* Mods,
      bans: yield* Bans,
      priority: yield* PriorityQueue,
      configs: yield* ServerConfigs,
      bus: yield* EventBus,
      chatFeed: makeChatFeed(),
      // The watchlist plugin's, when it is loaded (the plugin declares it in `uses`).
      watchlist: Option.getOrUndefined(yield* Effect.serviceOption(Watchlist))
    }
    const seen = makeSeenSignatures(sql)
    const cooldowns = makeCooldowns()

    const call: ChatBotShape["call"] = (request, headers, clientIp) =>
      Effect.gen(function* () {
        const key = yield* botKey.current
        if (!carriesBotKey(headers.authorization, key)) return failure(403, "forbidden", "the bot key is wrong or missing (Authorization: Bearer <key>)")
        const actor = { actor: `chat:${request.chatUserId}`, actorName: request.chatUserTag ?? request.chatUserId }
        const record = (action: string, result: "success" | "failure" | "denied", details: Record<string, unknown>) =>
          recordForRequest(audit, { ...actor, action, target: request.serverId ?? null, result, details: { action: request.action, ...details } })
        const sigRejected = (reason: string) => Effect.as(record("chat.sig-rejected", "denied", { reason }), failure(403, "forbidden", reason))

        // 2. The signature.
        const nowMs = yield* Clock.currentTimeMillis
        const nowSeconds = Math.floor(nowMs / 1000)
        const check = checkCall({ ...headers, action: request.action, chatUserId: request.chatUserId }, key, nowSeconds)
        if (check._tag === "Refused") return yield* sigRejected(check.refusal.reason)
        if (check._tag === "Unsigned" && (yield* runtimeSettings.get(RequireSignatureSetting))) {
          return yield* sigRejected("this controller requires signed calls (X-Chat-Ts and X-Chat-Sig; CHAT_REQUIRE_SIGNATURE)")
        }
        if (check._tag === "Verified" && !(yield* seen.accept(check.signature, check.timestamp, nowSeconds))) {
          return yield* sigRejected("X-Chat-Sig was already used: a replayed call")
        }
        const verified = check._tag === "Verified"

        // 3. The action.
        const name = canonicalAction(request.action)
        const action = CHAT_ACTIONS.get(name)
        if (action === undefined) {
          return failure(400, "invalid-request", `unknown action "${request.action}"; known actions: ${knownActions().join(", ")}`, {
            field: "action",
            known: knownActions()
          })
        }
        const serverId = request.serverId
        const fleet = Object.hasOwn(FLEET_RUNNERS, name)
        if (!fleet && (serverId === undefined || serverId === "")) {
          return failure(400, "invalid-request", `serverId is required for ${name}`, [{ path: "serverId", message: `serverId is required for ${name}` }])
        }

        // 4. The role.
        const roleName = Option.match(yield* mappings.get(request.chatUserId), { onNone: () => CHAT_BOT_ROLE, onSome: (m) => m.role })
        const role = yield* roles.get(roleName).pipe(Effect.orDie)
        const denied = (message: string, details: Record<string, unknown>) =>
          Effect.as(record("chat.denied", "denied", { role: roleName, permission: action.permission, ...details }), failure(403, "forbidden", message, { role: roleName, permission: action.permission }))
        if (Option.isNone(role)) return yield* denied(`the chat user's role "${roleName}" no longer exists`, {})
        const caller: Principal = principalOfRole(role.value, { kind: "bot", id: actor.actor, name: actor.actorName })
        const allowed = fleet
          ? principalCan(caller, action.permission) || (caller.scoped?.get(action.permission)?.size ?? 0) > 0
          : canSeeServer(caller, serverId!) && principalCan(caller, action.permission, action.global ? undefined : serverId)
        if (!allowed) {
          const where = fleet ? "" : action.global ? " on every server (this action changes every server's list)" : ` on server ${serverId}`
          return yield* denied(`the role "${roleName}" lacks the permission "${action.permission}"${where}`, {})
        }

        // 5. The cooldown, per chat user and action.
        const left = cooldowns.take(request.chatUserId, name, COOLDOWN_MS[action.kind], nowMs)
        if (left !== undefined) {
          const seconds = Math.max(1, Math.ceil(left / 1000))
          return failure(429, "rate-limited", `${name} was run by this chat user moments ago; try again in ${seconds} s`, { retryAfterSeconds: seconds }, {
            "retry-after": String(seconds)
          })
        }

        // 6. The action, as the chat user.
        const actionCall = { action: name, params: request.params, caller, clientIp }
        const run = fleet
          ? FLEET_RUNNERS[name]!(actionCall, services)
          : Effect.flatMap(asRefusal(services.servers.get(serverId!)), (server) => SERVER_RUNNERS[name]!(actionCall, server, services))
        const outcome = yield* Effect.either(Effect.locally(run, currentPrincipalRef, Option.some(caller)))
        const tag = { role: roleName, signature: verified ? "verified" : "unverified" }
        if (outcome._tag === "Right") {
          yield* record("chat.action", "success", tag)
          return { status: 200, body: { ok: true, action: name, serverId: serverId ?? null, verified, ...outcome.right } }
        }
        const error = outcome.left
        // A call refused for its input did nothing: its cooldown is given back.
        if (error._tag === "InvalidChatInput") cooldowns.release(request.chatUserId, name)
        const reply =
          error._tag === "InvalidChatInput"
            ? failure(400, "invalid-request", error.message, [{ path: error.field, message: error.message }])
            : failure(error.status, error.code, error.message, error.details)
        yield* record("chat.action", "failure", { ...tag, status: reply.status, reason: String(reply.body["message"]) })
        return reply
      })

    return { call, chatFeed: services.chatFeed } satisfies ChatBotShape
  })

  static readonly layer = Layer.effect(ChatBot, ChatBot.make)
}
