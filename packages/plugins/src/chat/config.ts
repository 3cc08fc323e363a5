/**
 * The chat bot's settings:
 *
 * - `CHAT_BOT_API_KEY`: the bot key, when the operator sets it (at least 32
 *   printable ASCII characters, no spaces). Unset: a key is generated on the
 *   first start, kept sealed in the database, shown once to an admin and
 *   rotated through the API.
 * - `CHAT_REQUIRE_SIGNATURE` (default false): refuse calls without
 *   `X-Chat-Ts` / `X-Chat-Sig` instead of running them as unverified.
 */
import * as Config from "effect/Config"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { RuntimeSetting } from "@garrison/runtime"

export interface ChatSettings {
  readonly botKey: Option.Option<Redacted.Redacted<string>>
}

/** Printable ASCII without spaces: it travels in a header. */
export const BOT_KEY_PATTERN = /^[\x21-\x7e]{32,512}$/

export const chatSettings: Config.Config<ChatSettings> = Config.all({
  botKey: Config.option(
    Config.redacted("CHAT_BOT_API_KEY").pipe(
      Config.map((key) => Redacted.make(Redacted.value(key).trim())),
      Config.validate({
        message: "CHAT_BOT_API_KEY must be 32 to 512 printable ASCII characters without spaces",
        validation: (key) => Redacted.value(key) === "" || BOT_KEY_PATTERN.test(Redacted.value(key))
      })
    )
  ).pipe(Config.map(Option.filter((key) => Redacted.value(key) !== "")))
})

/** `CHAT_REQUIRE_SIGNATURE`, a run-time setting: read on every call, so a change applies to the next one. */
export const RequireSignatureSetting = RuntimeSetting.boolean({
  key: "CHAT_REQUIRE_SIGNATURE",
  description: "Refuse chat-bot calls without the X-Chat-Ts and X-Chat-Sig signature headers",
  default: false
})
