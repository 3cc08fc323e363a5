/**
 * The chat bot: `POST /api/chat/action` (signed with the bot key, run with
 * the chat user's role), the per chat user roles, and the bot key (generated
 * on the first start or set by `CHAT_BOT_API_KEY`; shown once, rotated by an
 * admin). See README.md.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Watchlist } from "../watchlist/index.js"
import { AuditTrail, ChatMessage, on, Plugin, RuntimeSettings, ServerDeleted } from "@garrison/runtime"
import { BotKey } from "./BotKey.js"
import { ChatBot } from "./ChatBot.js"
import { RequireSignatureSetting } from "./config.js"
import { ChatUserRoles } from "./ChatUserRoles.js"
import { ChatApi } from "./contract/Api.js"
import { CHAT_PERMISSIONS } from "./contract/permissions.js"
import { migrations } from "./migrations.js"
import { ChatBotKeyRoutes, ChatBotRoutes, ChatUserRolesRoutes } from "./routes.js"

export const ChatPlugin = Plugin.make({
  id: "chat",
  description: "Chat bot: signed actions run with per chat user roles, and the bot key",
  // Every service an action may call: the bot runs what the REST API runs, through the same services.
  dependsOn: ["accounts", "servers", "players", "actions", "mods", "bans", "priority", "config"],
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // The bot's watchList reads the watchlist plugin's entries when it is loaded; the run-time settings their stored values.
  uses: [Watchlist, RuntimeSettings],
  settings: [RequireSignatureSetting],
  permissions: CHAT_PERMISSIONS,
  migrations,
  layer: ChatBot.layer.pipe(Layer.provideMerge(Layer.mergeAll(BotKey.layer, ChatUserRoles.layer))),
  http: Plugin.http(ChatApi, Layer.mergeAll(ChatBotRoutes, ChatUserRolesRoutes, ChatBotKeyRoutes)),
  errorCodes: [{ tag: "ChatCooldown", code: "rate-limited", status: 429, description: "The chat user ran this action too recently (Retry-After)" }],
  events: [
    on(ChatMessage, (message) => Effect.flatMap(ChatBot, (bot) => bot.chatFeed.hear(message)), "chatFeed"),
    on(ServerDeleted, (event) => Effect.flatMap(ChatBot, (bot) => bot.chatFeed.forget(event.serverId)), "forgetChatFeed")
  ]
})

export {
  ChatActionAnswer,
  ChatActionRequest,
  ChatApi,
  ChatBotGroup,
  ChatBotKeyGroup,
  ChatUserRolesGroup,
  CHAT_USER_ID
} from "./contract/Api.js"
export { CHAT_PERMISSIONS } from "./contract/permissions.js"
export { BotKey, BOT_KEY_SEALING, newBotKey } from "./BotKey.js"
export type { BotKeyShape, BotKeyState } from "./BotKey.js"
export { ChatBot } from "./ChatBot.js"
export type { ChatBotShape, ChatReply } from "./ChatBot.js"
export { ChatUserRoles } from "./ChatUserRoles.js"
export type { ChatUserRole, ChatUserRolesShape } from "./ChatUserRoles.js"
export { CHAT_ACTIONS, COOLDOWN_MS as CHAT_COOLDOWN_MS, knownActions as knownChatActions } from "./internal/actions.js"
export { chatSignature, SIGNATURE_HEADER as CHAT_SIGNATURE_HEADER, SIGNATURE_WINDOW_SECONDS as CHAT_SIGNATURE_WINDOW_SECONDS, TIMESTAMP_HEADER as CHAT_TIMESTAMP_HEADER } from "./internal/signature.js"
