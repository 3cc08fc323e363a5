/**
 * The payment settings: one row of `store_payment_config` (absent until the
 * first change: the defaults below). The provider's secret key and webhook
 * signing secret are sealed at rest (AES-256-GCM, key in
 * `<data>/secrets/store-payments-key.key`, the column as context) and opened
 * only where they are used (a checkout, a webhook) or hinted at; no answer
 * ever carries them. Read from the database at each use, so every
 * controller sharing a database sees a change at once.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { SEALED_PREFIX, SealedSecrets, type SealingKey } from "@garrison/runtime"
import { PaymentConfig, SecretState } from "../contract/Api.js"
import { type StoreDataError, storeError } from "../errors.js"

export const STORE_KEY = {
  name: "store-payments-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the VIP store's payment provider secret key and webhook signing secret (AES-256-GCM)",
    ifReplaced: "the stored payment secret key and webhook signing secret become unreadable: enter them again"
  }
} as const satisfies SealingKey

export const DEFAULT_BASE_URL = "https://api.stripe.com"
export const DEFAULT_CURRENCY = "EUR"

/** The settings as stored, secrets opened (null: not set, or sealed with another key). */
export interface Settings {
  readonly enabled: boolean
  readonly currency: string
  readonly baseUrl: string
  readonly secretKey: string | null
  readonly webhookSecret: string | null
  readonly successUrl: string | null
  readonly cancelUrl: string | null
  readonly updatedAt: string | null
  readonly updatedBy: string | null
}

export const DEFAULT_SETTINGS: Settings = {
  enabled: false,
  currency: DEFAULT_CURRENCY,
  baseUrl: DEFAULT_BASE_URL,
  secretKey: null,
  webhookSecret: null,
  successUrl: null,
  cancelUrl: null,
  updatedAt: null,
  updatedBy: null
}

const Row = Schema.Struct({
  enabled: Schema.Union(Schema.Number, Schema.NumberFromString),
  currency: Schema.String,
  base_url: Schema.String,
  secret_key: Schema.NullOr(Schema.String),
  webhook_secret: Schema.NullOr(Schema.String),
  success_url: Schema.NullOr(Schema.String),
  cancel_url: Schema.NullOr(Schema.String),
  updated_at: Schema.String,
  updated_by: Schema.NullOr(Schema.String)
})

/** The settings checkout needs, by their API names, that are not set. */
export const missingOf = (settings: Settings): ReadonlyArray<string> => [
  ...(settings.secretKey === null ? ["secretKey"] : []),
  ...(settings.webhookSecret === null ? ["webhookSecret"] : []),
  ...(settings.successUrl === null ? ["successUrl"] : []),
  ...(settings.cancelUrl === null ? ["cancelUrl"] : [])
]

/** `sk_test_…4242`: the secret's kind (its `word_` prefixes) and last four characters; nothing for a short one. */
export const hintOf = (secret: string | null): string | null => {
  if (secret === null || secret.length < 16) return null
  const kind = /^([a-z]+_)(test_|live_)?/.exec(secret)?.[0] ?? ""
  return `${kind}…${secret.slice(-4)}`
}

export const viewOf = (settings: Settings): PaymentConfig => {
  const missing = missingOf(settings)
  return new PaymentConfig({
    enabled: settings.enabled,
    currency: settings.currency,
    baseUrl: settings.baseUrl,
    secretKey: new SecretState({ set: settings.secretKey !== null, hint: hintOf(settings.secretKey) }),
    webhookSecret: new SecretState({ set: settings.webhookSecret !== null, hint: hintOf(settings.webhookSecret) }),
    successUrl: settings.successUrl,
    cancelUrl: settings.cancelUrl,
    configured: missing.length === 0,
    missing,
    updatedAt: settings.updatedAt,
    updatedBy: settings.updatedBy
  })
}

export const makeSettings = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const [sealed] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM store_payment_config
      WHERE secret_key LIKE ${`${SEALED_PREFIX}%`} OR webhook_secret LIKE ${`${SEALED_PREFIX}%`}`.pipe(
      Effect.mapError(storeError("count the sealed payment secrets"))
    )
    const box = yield* (yield* SealedSecrets).box(STORE_KEY, {
      sealedValuesExist: Number(sealed?.n ?? 0) > 0,
      sealedWhat: "the VIP store's payment secrets"
    })

    const open = (value: string | null, column: string) =>
      Effect.gen(function* () {
        if (value === null) return null
        const opened = box.open(value, `store/${column}`)
        if (Either.isRight(opened)) return opened.right
        yield* Effect.logError(`store: the stored ${column.replace("_", " ")} does not open (${opened.left}); enter it again`)
        return null
      })

    const read: Effect.Effect<Settings, StoreDataError> = Effect.gen(function* () {
      const rows = yield* sql`SELECT enabled, currency, base_url, secret_key, webhook_secret, success_url, cancel_url, updated_at, updated_by
        FROM store_payment_config WHERE id = 1`.pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(Row))))
      const row = rows[0]
      if (row === undefined) return DEFAULT_SETTINGS
      return {
        enabled: row.enabled !== 0,
        currency: row.currency,
        baseUrl: row.base_url,
        secretKey: yield* open(row.secret_key, "secret_key"),
        webhookSecret: yield* open(row.webhook_secret, "webhook_secret"),
        successUrl: row.success_url,
        cancelUrl: row.cancel_url,
        updatedAt: row.updated_at,
        updatedBy: row.updated_by
      }
    }).pipe(Effect.mapError(storeError("read the payment settings")))

    /** Stores `settings` whole (call inside the caller's transaction, with its audit row). */
    const write = (settings: Settings & { readonly updatedAt: string }) => {
      const secretKey = settings.secretKey === null ? null : box.seal(settings.secretKey, "store/secret_key")
      const webhookSecret = settings.webhookSecret === null ? null : box.seal(settings.webhookSecret, "store/webhook_secret")
      return sql`INSERT INTO store_payment_config
          (id, enabled, currency, base_url, secret_key, webhook_secret, success_url, cancel_url, updated_at, updated_by)
        VALUES (1, ${settings.enabled ? 1 : 0}, ${settings.currency}, ${settings.baseUrl}, ${secretKey}, ${webhookSecret},
          ${settings.successUrl}, ${settings.cancelUrl}, ${settings.updatedAt}, ${settings.updatedBy})
        ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, currency = excluded.currency, base_url = excluded.base_url,
          secret_key = excluded.secret_key, webhook_secret = excluded.webhook_secret, success_url = excluded.success_url,
          cancel_url = excluded.cancel_url, updated_at = excluded.updated_at, updated_by = excluded.updated_by`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError("store the payment settings"))
      )
    }

    return { read, write }
  })
