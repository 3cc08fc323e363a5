/** The handlers behind `ChatApi`; the host has already checked each endpoint's access (the action endpoint checks its own). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { BadRequest, Conflict, CurrentPrincipal, CurrentRequest, Forbidden, notFoundWith, RuntimeSettings, storeDefect } from "@garrison/runtime"
import { CHAT_BOT_ROLE, grantsBeyond, Roles } from "../accounts/index.js"
import { BotKey } from "./BotKey.js"
import { ChatBot } from "./ChatBot.js"
import { ChatUserRoles } from "./ChatUserRoles.js"
import { RequireSignatureSetting } from "./config.js"
import { ChatApi } from "./contract/Api.js"
import type { BotKeyAlreadyShown, ChatRoleBeyondCaller, ChatUserRoleNotFound, UnknownChatRole } from "./errors.js"
import { CHAT_ACTIONS, COOLDOWN_MS } from "./internal/actions.js"
import { FLEET_RUNNERS } from "./internal/run/index.js"
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./internal/signature.js"

const header = (headers: Readonly<Record<string, string | undefined>>, name: string) => headers[name]

export const ChatBotRoutes = HttpApiBuilder.group(ChatApi, "chatBot", (handlers) =>
  Effect.gen(function* () {
    const bot = yield* ChatBot
    return handlers
      .handle("action", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const clientIp = Option.getOrNull(Option.map(yield* CurrentRequest, (facts) => facts.clientIp))
          const reply = yield* bot.call(
            payload,
            {
              authorization: header(request.headers, "authorization"),
              timestamp: header(request.headers, TIMESTAMP_HEADER),
              signature: header(request.headers, SIGNATURE_HEADER)
            },
            clientIp
          )
          return HttpServerResponse.unsafeJson(reply.body, { status: reply.status, headers: reply.headers })
        }).pipe(Effect.catchTag("ChatStoreError", storeDefect))
      )
      .handle("actions", () =>
        Effect.succeed({
          items: [...CHAT_ACTIONS.values()]
            .map((action) => ({
              name: action.name,
              permission: action.permission,
              kind: action.kind,
              cooldownSeconds: COOLDOWN_MS[action.kind] / 1000,
              needsServer: !Object.hasOwn(FLEET_RUNNERS, action.name)
            }))
            .sort((a, b) => a.name.localeCompare(b.name))
        })
      )
  })
)

const unknownRole = (error: UnknownChatRole) =>
  Effect.fail(new BadRequest({ message: `role: no role named "${error.role}"`, details: [{ path: "role", message: `no role named "${error.role}"` }] }))
const beyondCaller = (error: ChatRoleBeyondCaller) =>
  Effect.fail(
    new Forbidden({
      message: `the role "${error.role}" grants what you do not hold (${error.missing.join(", ")}): only someone who holds all of it may hand it out or take it away`,
      details: { role: error.role, missing: error.missing }
    })
  )
const mappingNotFound = notFoundWith((error: ChatUserRoleNotFound) => `chat user ${error.chatUserId} has no role mapping (they act with "${CHAT_BOT_ROLE}")`)

export const ChatUserRolesRoutes = HttpApiBuilder.group(ChatApi, "chatUserRoles", (handlers) =>
  Effect.gen(function* () {
    const mappings = yield* ChatUserRoles
    const roles = yield* Roles
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          const items = yield* mappings.list.pipe(Effect.catchTag("ChatStoreError", storeDefect))
          // Which roles the caller may give, so a manager who is not an admin picks from them rather than learning by 403.
          const assignableRoles = (yield* roles.list.pipe(Effect.orDie)).filter((role) => grantsBeyond(caller, role).length === 0).map((role) => role.name)
          return { items, fallbackRole: CHAT_BOT_ROLE, assignableRoles }
        })
      )
      .handle("set", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (by) => mappings.set(path.chatUserId, payload, by)).pipe(
          Effect.map(({ mapping }) => mapping),
          Effect.catchTags({ UnknownChatRole: unknownRole, ChatRoleBeyondCaller: beyondCaller, ChatStoreError: storeDefect })
        )
      )
      .handle("remove", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (by) => mappings.remove(path.chatUserId, by)).pipe(
          Effect.map((removed) => ({ chatUserId: removed.chatUserId, removedRole: removed.role, fallbackRole: CHAT_BOT_ROLE })),
          Effect.catchTags({ ChatUserRoleNotFound: mappingNotFound, ChatRoleBeyondCaller: beyondCaller, ChatStoreError: storeDefect })
        )
      )
  })
)

const fromEnvironment = () => Effect.fail(new Conflict({ message: "the bot key comes from CHAT_BOT_API_KEY: change it there and restart" }))
const alreadyShown = (error: BotKeyAlreadyShown) =>
  Effect.fail(new Conflict({ message: `the bot key was shown at ${error.revealedAt}; rotate it to get a new one`, details: { revealedAt: error.revealedAt } }))

export const ChatBotKeyRoutes = HttpApiBuilder.group(ChatApi, "chatBotKey", (handlers) =>
  Effect.gen(function* () {
    const key = yield* BotKey
    const settings = yield* RuntimeSettings
    return handlers
      .handle("status", () =>
        Effect.zip(key.state, settings.get(RequireSignatureSetting)).pipe(
          Effect.map(([state, requireSignature]) => ({ ...state, requireSignature })),
          Effect.catchTag("ChatStoreError", storeDefect)
        )
      )
      .handle("reveal", () =>
        Effect.flatMap(CurrentPrincipal, key.reveal).pipe(
          Effect.map((shown) => ({ key: shown })),
          Effect.catchTags({ BotKeyFromEnvironment: fromEnvironment, BotKeyAlreadyShown: alreadyShown, ChatStoreError: storeDefect })
        )
      )
      .handle("rotate", () =>
        Effect.flatMap(CurrentPrincipal, key.rotate).pipe(
          Effect.map((shown) => ({ key: shown })),
          Effect.catchTags({ BotKeyFromEnvironment: fromEnvironment, ChatStoreError: storeDefect })
        )
      )
  })
)
