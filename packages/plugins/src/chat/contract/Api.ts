/**
 * The chat bot's HTTP contract: the signed action endpoint the bot calls,
 * the per chat user roles (`users.manage`), the action table, and the bot
 * key (admin: shown once, rotated). Every route counts against the `chat`
 * rate-limit scope (60 a minute per IP; `RATE_LIMIT_CHAT`).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  ADMIN,
  BadRequest,
  BodyExample,
  Conflict,
  CsrfExempt,
  Forbidden,
  NotFound,
  RateLimit,
  StoredText,
  TrimmedStoredText,
  Unavailable
} from "@garrison/runtime"

/** A chat platform's user id: a snowflake, or any id of at most 64 letters, digits and `._:@-`. */
/** Dots alone (`.`, `..`) are refused: a URL path would read them as segments, not as an id. */
export const CHAT_USER_ID = /^(?!\.+$)[A-Za-z0-9._:@-]{1,64}$/
export const ChatUserId = Schema.String.pipe(
  Schema.filter((id) => CHAT_USER_ID.test(id) || "must be 1 to 64 letters, digits or . _ : @ - (not dots alone; the chat platform's user id)")
)

export const ChatUserRolePath = Schema.Struct({ chatUserId: ChatUserId })

export class ChatActionRequest extends Schema.Class<ChatActionRequest>("ChatActionRequest")({
  /** An action of the table (`GET /api/chat/actions`): `status`, `restart`, `kick`, ... */
  action: Schema.String.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(64, { message: () => "must be at most 64 characters" })
  ),
  chatUserId: ChatUserId,
  /** The chat user's display name, for the audit trail and answers (never used to decide anything). */
  chatUserTag: Schema.optional(StoredText.pipe(Schema.maxLength(100, { message: () => "must be at most 100 characters" }))),
  /** The server the action is about; every action but `servers` needs one. */
  serverId: Schema.optional(Schema.String.pipe(Schema.maxLength(100, { message: () => "must be at most 100 characters" }))),
  /** The action's inputs (see the chat plugin's README). */
  params: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
}) {}

/** What the bot posts: `message` in words, and the action's data beside it. */
export const ChatActionAnswer = Schema.Struct(
  {
    ok: Schema.Literal(true),
    action: Schema.String,
    serverId: Schema.NullOr(Schema.String),
    /** False for a call without signature headers (run as the bot's, unverified). */
    verified: Schema.Boolean,
    message: Schema.String
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "ChatActionAnswer" })

/** 429: the chat user ran this action too recently; `Retry-After` says when it may run again. */
export class ChatCooldown extends Schema.TaggedError<ChatCooldown>()(
  "ChatCooldown",
  { message: Schema.String, details: Schema.optional(Schema.Unknown) },
  HttpApiSchema.annotations({ status: 429 })
) {}

export class ChatActionInfo extends Schema.Class<ChatActionInfo>("ChatActionInfo")({
  name: Schema.String,
  permission: Schema.String,
  /** `query`, `admin` or `power`: sets the cooldown. */
  kind: Schema.String,
  cooldownSeconds: Schema.Number,
  /** False for `servers` alone: it is about every server the role may see. */
  needsServer: Schema.Boolean
}) {}

export class ChatActionList extends Schema.Class<ChatActionList>("ChatActionList")({ items: Schema.Array(ChatActionInfo) }) {}

export class ChatUserRoleView extends Schema.Class<ChatUserRoleView>("ChatUserRole")({
  chatUserId: Schema.String,
  role: Schema.String,
  chatUserTag: Schema.NullOr(Schema.String),
  updatedAt: Schema.String,
  updatedBy: Schema.NullOr(Schema.String)
}) {}

export class ChatUserRoleList extends Schema.Class<ChatUserRoleList>("ChatUserRoleList")({
  items: Schema.Array(ChatUserRoleView),
  /** The role of every chat user without a mapping. */
  fallbackRole: Schema.String,
  /** The roles the caller may hand out: those whose every grant the caller holds. */
  assignableRoles: Schema.Array(Schema.String)
}) {}

export class ChatUserRoleInput extends Schema.Class<ChatUserRoleInput>("ChatUserRoleInput")({
  role: TrimmedStoredText.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(64, { message: () => "must be at most 64 characters" })
  ),
  chatUserTag: Schema.optional(TrimmedStoredText.pipe(Schema.maxLength(100, { message: () => "must be at most 100 characters" })))
}) {}

export class ChatUserRoleRemoved extends Schema.Class<ChatUserRoleRemoved>("ChatUserRoleRemoved")({
  chatUserId: Schema.String,
  /** The role the mapping gave; the user now acts with `fallbackRole`. */
  removedRole: Schema.String,
  fallbackRole: Schema.String
}) {}

export class BotKeyStatus extends Schema.Class<BotKeyStatus>("ChatBotKeyStatus")({
  /** `environment` (`CHAT_BOT_API_KEY`) or `generated`. */
  source: Schema.String,
  /** First and last four characters, to recognise it by. */
  hint: Schema.String,
  createdAt: Schema.NullOr(Schema.String),
  createdBy: Schema.NullOr(Schema.String),
  /** When the generated key was shown; null: it can still be shown once. */
  revealedAt: Schema.NullOr(Schema.String),
  /** `CHAT_REQUIRE_SIGNATURE`: calls without signature headers are refused. */
  requireSignature: Schema.Boolean
}) {}

export class BotKeyShown extends Schema.Class<BotKeyShown>("ChatBotKeyShown")({
  /** The key: give it to the bot now, it is not shown again. */
  key: Schema.String
}) {}

const usersManage = Access.permission("users.manage")

export class ChatBotGroup extends HttpApiGroup.make("chatBot").annotate(OpenApi.Description, "Actions a chat bot runs for its users.")
  .add(
    HttpApiEndpoint.post("action", "/api/chat/action")
      .setPayload(ChatActionRequest)
      .addSuccess(ChatActionAnswer)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .addError(ChatCooldown)
      .addError(Unavailable)
      // The bot's key and signature are checked by the handler: they cover the body, and a refusal is 403 with an audit row.
      .annotate(Access, Access.none)
      .annotate(CsrfExempt, true)
      .annotate(OpenApi.Summary, "Run a chat-bot action")
      .annotate(
        OpenApi.Description,
        "Headers: `Authorization: Bearer <bot key>`, `X-Chat-Ts` (Unix seconds) and `X-Chat-Sig` (lower-case hex " +
          "HMAC-SHA256 keyed with the bot key over `${ts}.${action}.${chatUserId}`), within ±300 s; a signature is accepted once. " +
          "Without both signature headers the call runs as unverified (refused when `CHAT_REQUIRE_SIGNATURE` is true). " +
          "The chat user acts with their mapped role, else `chat-bot`. 403 for a wrong key, a bad, stale or replayed signature " +
          "(audit `chat.sig-rejected`) or a missing permission (audit `chat.denied`); 400 for an unknown action (listing the known " +
          "ones) or a bad field (`params.platformId`); 429 with Retry-After while the user's cooldown for the action runs " +
          "(queries 3 s, admin actions 10 s, start/stop/restart 30 s). The answer is `{ok, action, serverId, verified, message, ...data}`."
      )
      .annotate(BodyExample, { action: "status", chatUserId: "123456789012345678", chatUserTag: "survivor#0001", serverId: "1", params: {} })
  )
  .add(
    HttpApiEndpoint.get("actions", "/api/chat/actions")
      .addSuccess(ChatActionList)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "The chat-bot actions")
      .annotate(OpenApi.Description, "Every action with the permission it needs and its cooldown.")
  )
  .annotate(RateLimit, "chat") {}

export class ChatUserRolesGroup extends HttpApiGroup.make("chatUserRoles").annotate(OpenApi.Description, "Which role each chat user has.")
  .add(
    HttpApiEndpoint.get("list", "/api/chat/user-roles")
      .addSuccess(ChatUserRoleList)
      .annotate(Access, usersManage)
      .annotate(OpenApi.Summary, "Per chat user role mappings")
      .annotate(OpenApi.Description, "Every mapping by chat user id; users without one act with `fallbackRole` (`chat-bot`).")
  )
  .add(
    HttpApiEndpoint.put("set", "/api/chat/user-roles/:chatUserId")
      .setPath(ChatUserRolePath)
      .setPayload(ChatUserRoleInput)
      .addSuccess(ChatUserRoleView)
      .addError(BadRequest)
      .addError(Forbidden)
      .annotate(Access, usersManage)
      .annotate(OpenApi.Summary, "Set a chat user's role")
      .annotate(
        OpenApi.Description,
        "Sets or replaces the mapping; audit `chat.user-role.set`. 400 for a role that does not exist; 403 when the role " +
          "(or the one it replaces) grants something the caller does not hold."
      )
      .annotate(BodyExample, { role: "moderator", chatUserTag: "survivor#0001" })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/chat/user-roles/:chatUserId")
      .setPath(ChatUserRolePath)
      .addSuccess(ChatUserRoleRemoved)
      .addError(NotFound)
      .addError(Forbidden)
      .annotate(Access, usersManage)
      .annotate(OpenApi.Summary, "Remove a chat user's role")
      .annotate(OpenApi.Description, "The user falls back to the `chat-bot` role; audit `chat.user-role.remove`.")
  )
  .annotate(RateLimit, "chat") {}

export class ChatBotKeyGroup extends HttpApiGroup.make("chatBotKey").annotate(OpenApi.Description, "The key a chat bot signs in with.")
  .add(
    HttpApiEndpoint.get("status", "/api/chat/bot-key")
      .addSuccess(BotKeyStatus)
      .annotate(OpenApi.Summary, "The bot key's state")
      .annotate(OpenApi.Description, "Where it comes from, a hint, and whether it was shown; never the key.")
  )
  .add(
    HttpApiEndpoint.post("reveal", "/api/chat/bot-key/reveal")
      .addSuccess(BotKeyShown)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Show the generated bot key, once")
      .annotate(OpenApi.Description, "409 when it was shown already (rotate it for a new one) or comes from `CHAT_BOT_API_KEY`.")
  )
  .add(
    HttpApiEndpoint.post("rotate", "/api/chat/bot-key/rotate")
      .addSuccess(BotKeyShown)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Replace the bot key")
      .annotate(OpenApi.Description, "A new key, shown in this answer only; the old one stops working at once. 409 with `CHAT_BOT_API_KEY` set.")
  )
  .annotate(Access, Access.permission(ADMIN))
  .annotate(RateLimit, "chat") {}

export class ChatApi extends HttpApi.make("chat").add(ChatBotGroup).add(ChatUserRolesGroup).add(ChatBotKeyGroup) {}
