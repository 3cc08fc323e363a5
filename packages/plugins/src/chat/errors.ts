import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a chat-bot read or write. */
export class ChatStoreError extends Schema.TaggedError<ChatStoreError>()("ChatStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(ChatStoreError)

/** A mapping names a role that does not exist. */
export class UnknownChatRole extends Schema.TaggedError<UnknownChatRole>()("UnknownChatRole", { role: Schema.String }) {}

/** The caller would hand out (or take away) more than they hold themselves. */
export class ChatRoleBeyondCaller extends Schema.TaggedError<ChatRoleBeyondCaller>()("ChatRoleBeyondCaller", {
  role: Schema.String,
  /** The grants of the role the caller does not hold. */
  missing: Schema.Array(Schema.String)
}) {}

export class ChatUserRoleNotFound extends Schema.TaggedError<ChatUserRoleNotFound>()("ChatUserRoleNotFound", {
  chatUserId: Schema.String
}) {}

/** The bot key comes from `CHAT_BOT_API_KEY`: it is changed there, not through the API. */
export class BotKeyFromEnvironment extends Schema.TaggedError<BotKeyFromEnvironment>()("BotKeyFromEnvironment", {}) {}

/** The generated bot key was shown once already: rotate it for a new one. */
export class BotKeyAlreadyShown extends Schema.TaggedError<BotKeyAlreadyShown>()("BotKeyAlreadyShown", {
  revealedAt: Schema.String
}) {}

/** A field of the call or of its `params` breaks its rule: `field` is its path (`params.platformId`). */
export class InvalidChatInput extends Schema.TaggedError<InvalidChatInput>()("InvalidChatInput", {
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * An action ran into a refusal it answers the bot with (no such player, the
 * server not running, nothing to run an agent action): its HTTP status,
 * the error code and the words, as every other route answers them.
 */
export class ChatActionRefused extends Schema.TaggedError<ChatActionRefused>()("ChatActionRefused", {
  status: Schema.Number,
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
}) {}
