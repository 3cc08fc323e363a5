/**
 * The payment provider's side of a checkout: `POST {base}/v1/checkout/sessions`
 * as Stripe takes it (form-encoded, nested fields in brackets, the secret key
 * as `Authorization: Bearer`, the purchase id as `Idempotency-Key` so a
 * retried request makes one session), answered with the session's `id` and
 * `url`. Any provider that speaks this much of Stripe's API will do (the
 * repository's stand-in is `examples/fake-payments`).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { PaymentProviderFailed } from "../errors.js"

/** How long the provider has to answer a checkout. */
export const PROVIDER_TIMEOUT = Duration.seconds(15)

export interface SessionRequest {
  readonly baseUrl: string
  readonly secretKey: string
  readonly successUrl: string
  readonly cancelUrl: string
  readonly purchaseId: string
  readonly productId: string
  readonly productName: string
  readonly description: string
  /** Minor units. */
  readonly amount: number
  readonly currency: string
  readonly platformId: string
  readonly playerName: string
}

/** The form fields, Stripe's names: one line item priced inline, the purchase as reference and metadata. */
export const sessionForm = (request: SessionRequest): Record<string, string> => ({
  mode: "payment",
  success_url: request.successUrl,
  cancel_url: request.cancelUrl,
  client_reference_id: request.purchaseId,
  "line_items[0][quantity]": "1",
  "line_items[0][price_data][currency]": request.currency.toLowerCase(),
  "line_items[0][price_data][unit_amount]": String(request.amount),
  "line_items[0][price_data][product_data][name]": request.productName,
  // Stripe refuses an empty description.
  ...(request.description.trim() === "" ? {} : { "line_items[0][price_data][product_data][description]": request.description.slice(0, 500) }),
  "metadata[purchaseId]": request.purchaseId,
  "metadata[productId]": request.productId,
  "metadata[platformId]": request.platformId,
  "metadata[playerName]": request.playerName
})

const Session = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  url: Schema.String.pipe(Schema.filter((s) => /^https?:\/\/\S+$/i.test(s) && s.length <= 4096))
})

const ProviderError = Schema.Struct({ error: Schema.Struct({ message: Schema.optional(Schema.String) }) })

/** The provider's own words about a refusal, without anything that could be the key, one line, bounded. */
const wordsOf = (body: unknown, secretKey: string): string | undefined => {
  const decoded = Schema.decodeUnknownOption(ProviderError)(body)
  if (decoded._tag === "None" || decoded.value.error.message === undefined) return undefined
  return decoded.value.error.message.split(secretKey).join("[key]").replace(/\s+/g, " ").slice(0, 300)
}

export const createSession = (http: HttpClient.HttpClient, request: SessionRequest): Effect.Effect<{ readonly id: string; readonly url: string }, PaymentProviderFailed> => {
  const base = request.baseUrl.replace(/\/+$/, "")
  const where = `the payment provider at ${base}`
  return http
    .execute(
      HttpClientRequest.post(`${base}/v1/checkout/sessions`).pipe(
        HttpClientRequest.bearerToken(request.secretKey),
        HttpClientRequest.setHeader("idempotency-key", request.purchaseId),
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams(sessionForm(request))
      )
    )
    .pipe(
      Effect.mapError(() => new PaymentProviderFailed({ reason: "unreachable", message: `${where} is not reachable` })),
      Effect.flatMap((response) =>
        Effect.flatMap(
          Effect.orElseSucceed(response.json, () => undefined as unknown),
          (body): Effect.Effect<{ readonly id: string; readonly url: string }, PaymentProviderFailed> => {
            if (response.status >= 400) {
              const words = wordsOf(body, request.secretKey)
              return Effect.fail(
                new PaymentProviderFailed({
                  reason: "refused",
                  message: `${where} refused the checkout (${response.status})${words === undefined ? "" : `: ${words}`}`
                })
              )
            }
            return Schema.decodeUnknown(Session)(body).pipe(
              Effect.mapError(() => new PaymentProviderFailed({ reason: "bad-answer", message: `${where} answered without a session id and url` }))
            )
          }
        )
      ),
      Effect.scoped,
      Effect.timeoutFail({
        duration: PROVIDER_TIMEOUT,
        onTimeout: () => new PaymentProviderFailed({ reason: "timeout", message: `${where} did not answer within ${Duration.format(PROVIDER_TIMEOUT)}` })
      })
    )
}
