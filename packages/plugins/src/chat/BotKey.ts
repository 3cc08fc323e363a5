/**
 * The bot key: what the chat bot sends as `Authorization: Bearer` and signs
 * its calls with. Set by `CHAT_BOT_API_KEY`, or generated on the first start
 * and kept sealed in the database (AES-256-GCM, key file
 * `<data>/secrets/chat-bot-key.key`, context `chat/bot-key`). A generated key
 * is shown once, to the first admin who asks; after that only rotating it
 * shows a key again (the new one, once). Read from the database at each use,
 * so every controller sharing a database takes a rotated key at once.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { AuditTrail, type Principal, recordForRequest, SEALED_PREFIX, SealedSecrets, type SealingKey } from "@garrison/runtime"
import { randomBytes } from "node:crypto"
import { chatSettings } from "./config.js"
import { BotKeyAlreadyShown, BotKeyFromEnvironment, type ChatStoreError, storeError } from "./errors.js"

export const BOT_KEY_SEALING = {
  name: "chat-bot-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the chat bot's API key (AES-256-GCM)",
    ifReplaced: "the stored bot key becomes unreadable: rotate it and give the bot the new one"
  }
} as const satisfies SealingKey

const CONTEXT = "chat/bot-key"

/** `gcb_` and 32 random bytes in base64url: 47 characters, easy to spot in a leaked config. */
export const newBotKey = (): string => `gcb_${randomBytes(32).toString("base64url")}`

export interface BotKeyState {
  /** `environment`: `CHAT_BOT_API_KEY`; `generated`: made by Garrison, rotated through the API. */
  readonly source: "environment" | "generated"
  /** The key's first four and last four characters (`gcb_…x1Yz`). */
  readonly hint: string
  readonly createdAt: string | null
  readonly createdBy: string | null
  /** When an admin was shown the generated key (null: not yet, it can be shown once). */
  readonly revealedAt: string | null
}

export interface BotKeyShape {
  /** The key calls are checked against. */
  readonly current: Effect.Effect<string, ChatStoreError>
  readonly state: Effect.Effect<BotKeyState, ChatStoreError>
  /** The generated key, once: the first admin who asks sees it. */
  readonly reveal: (by: Principal) => Effect.Effect<string, BotKeyFromEnvironment | BotKeyAlreadyShown | ChatStoreError>
  /** A new generated key, shown in the answer (the old one stops working at once). */
  readonly rotate: (by: Principal) => Effect.Effect<string, BotKeyFromEnvironment | ChatStoreError>
}

interface Row {
  readonly bot_key: string
  readonly created_at: string
  readonly created_by: string | null
  readonly revealed_at: string | null
}

const hintOf = (key: string) => `${key.slice(0, 4)}…${key.slice(-4)}`

export class BotKey extends Context.Tag("@garrison/plugins/chat/BotKey")<BotKey, BotKeyShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditTrail
    const settings = yield* chatSettings
    const [sealed] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM chat_bot_key WHERE bot_key LIKE ${`${SEALED_PREFIX}%`}`.pipe(
      Effect.mapError(storeError("count the sealed bot keys"))
    )
    const box = yield* (yield* SealedSecrets).box(BOT_KEY_SEALING, { sealedValuesExist: Number(sealed?.n ?? 0) > 0, sealedWhat: "the chat bot key" })
    const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

    const row = sql<Row>`SELECT bot_key, created_at, created_by, revealed_at FROM chat_bot_key WHERE id = 1`.pipe(
      Effect.map((rows) => Option.fromNullable(rows[0])),
      Effect.mapError(storeError("read the bot key"))
    )

    // The first start makes the key; a second controller starting at the same moment keeps the one that won.
    if (Option.isNone(settings.botKey)) {
      const now = yield* isoNow
      yield* sql`INSERT INTO chat_bot_key (id, bot_key, created_at, created_by, revealed_at)
                 VALUES (1, ${box.seal(newBotKey(), CONTEXT)}, ${now}, NULL, NULL) ON CONFLICT (id) DO NOTHING`.pipe(
        Effect.mapError(storeError("store the generated bot key"))
      )
    }

    const openKey = (stored: Row) => {
      const opened = box.open(stored.bot_key, CONTEXT)
      return Either.isRight(opened)
        ? Effect.succeed(opened.right)
        : Effect.fail(storeError("open the bot key")(new Error(`the stored bot key does not open (${opened.left}); rotate it`)))
    }

    const generated = Effect.flatMap(row, (stored) =>
      Option.isSome(stored) ? Effect.succeed(stored.value) : Effect.fail(storeError("read the bot key")(new Error("no bot key is stored")))
    )

    const fromEnvironment = <A>(onEnvironment: (key: string) => A) =>
      Option.map(settings.botKey, (key) => onEnvironment(Redacted.value(key)))

    const current: BotKeyShape["current"] = Option.match(fromEnvironment(Effect.succeed<string>), {
      onSome: (key) => key,
      onNone: () => Effect.flatMap(generated, openKey)
    })

    const state: BotKeyShape["state"] = Option.match(
      fromEnvironment((key): BotKeyState => ({ source: "environment", hint: hintOf(key), createdAt: null, createdBy: null, revealedAt: null })),
      {
        onSome: Effect.succeed,
        onNone: () =>
          Effect.gen(function* () {
            const stored = yield* generated
            const key = yield* openKey(stored)
            return { source: "generated", hint: hintOf(key), createdAt: stored.created_at, createdBy: stored.created_by, revealedAt: stored.revealed_at } as const
          })
      }
    )

    const audited = (by: Principal, action: string) =>
      recordForRequest(audit, { actor: by.id, actorName: by.name, action, target: "chat-bot-key", result: "success" })

    const reveal: BotKeyShape["reveal"] = (by) =>
      Effect.gen(function* () {
        if (Option.isSome(settings.botKey)) return yield* Effect.fail(new BotKeyFromEnvironment())
        const now = yield* isoNow
        // Marked shown in the same statement that checks it was not: two admins asking at once, one sees it.
        const marked = yield* sql<Row>`UPDATE chat_bot_key SET revealed_at = ${now} WHERE id = 1 AND revealed_at IS NULL
                                       RETURNING bot_key, created_at, created_by, revealed_at`.pipe(Effect.mapError(storeError("mark the bot key shown")))
        const first = marked[0]
        if (first === undefined) {
          const stored = yield* generated
          return yield* Effect.fail(new BotKeyAlreadyShown({ revealedAt: stored.revealed_at ?? now }))
        }
        const key = yield* openKey(first)
        yield* audited(by, "chat.bot-key.reveal")
        return key
      })

    const rotate: BotKeyShape["rotate"] = (by) =>
      Effect.gen(function* () {
        if (Option.isSome(settings.botKey)) return yield* Effect.fail(new BotKeyFromEnvironment())
        const now = yield* isoNow
        const key = newBotKey()
        yield* sql`INSERT INTO chat_bot_key (id, bot_key, created_at, created_by, revealed_at)
                   VALUES (1, ${box.seal(key, CONTEXT)}, ${now}, ${by.name}, ${now})
                   ON CONFLICT (id) DO UPDATE SET bot_key = excluded.bot_key, created_at = excluded.created_at,
                     created_by = excluded.created_by, revealed_at = excluded.revealed_at`.pipe(Effect.mapError(storeError("store the rotated bot key")))
        yield* audited(by, "chat.bot-key.rotate")
        return key
      })

    return { current, state, reveal, rotate } satisfies BotKeyShape
  })

  static readonly layer = Layer.effect(BotKey, BotKey.make)
}
