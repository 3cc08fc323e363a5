/**
 * The license server's protocol (README.md, "The license server") and the
 * offline check of its tokens. Tokens are RS256 JWTs checked with jose's
 * `jwtVerify` restricted to `RS256` (so `none`, `HS256` signed with the
 * public key as a secret, and every other algorithm are refused), with the
 * audience `garrison`, at the time `Clock` gives, and bound to this
 * controller's machine id.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { errorMessage, LICENSED_FEATURE_NAME } from "@garrison/runtime"
import { calculateJwkThumbprint, type CryptoKey, decodeJwt, exportJWK, importJWK, importSPKI, type JWK, jwtVerify } from "jose"
import { displayUrl, SERVER_TIMEOUT } from "../config.js"
import { KeyRefused, LicenseServerFailed } from "../errors.js"
import type { LicenseClaims } from "./state.js"

/** What tokens are checked with. */
export interface VerifyingKey {
  readonly key: CryptoKey
  /** The public key as a JWK (`kty`, `n`, `e`): what a pinned key is stored as. */
  readonly jwk: { readonly kty: "RSA"; readonly n: string; readonly e: string }
  readonly thumbprint: string
}

/** The audience every license token names. */
export const TOKEN_AUDIENCE = "garrison"

/**
 * An RSA public key from PEM (`-----BEGIN PUBLIC KEY-----`, SPKI) or JWK
 * text. A private key (a JWK with `d`, a PEM private key) is refused: the
 * controller must never hold the server's signing key.
 */
export const parsePublicKey = (text: string): Effect.Effect<VerifyingKey, string> =>
  Effect.tryPromise({
    try: async () => {
      const trimmed = text.trim()
      let key: CryptoKey
      if (trimmed.startsWith("-----BEGIN")) {
        if (!trimmed.startsWith("-----BEGIN PUBLIC KEY-----")) throw new Error("a PEM public key (-----BEGIN PUBLIC KEY-----) is needed")
        key = await importSPKI(trimmed, "RS256", { extractable: true })
      } else {
        const parsed = JSON.parse(trimmed) as unknown
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("a JWK object is needed")
        const jwk = parsed as JWK
        if (jwk.kty !== "RSA") throw new Error(`an RSA key is needed (kty "RSA"), not kty "${String(jwk.kty)}"`)
        if ("d" in jwk) throw new Error("this is a private key: give the public key only")
        const imported = await importJWK({ kty: "RSA", n: jwk.n, e: jwk.e }, "RS256", { extractable: true })
        if (imported instanceof Uint8Array) throw new Error("an RSA key is needed")
        key = imported
      }
      const exported = await exportJWK(key)
      if (exported.kty !== "RSA" || typeof exported.n !== "string" || typeof exported.e !== "string") throw new Error("an RSA key is needed")
      const jwk = { kty: "RSA" as const, n: exported.n, e: exported.e }
      return { key, jwk, thumbprint: await calculateJwkThumbprint(jwk) }
    },
    catch: (cause) => errorMessage(cause)
  })

const Claims = Schema.Struct({
  sub: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  exp: Schema.Number,
  iat: Schema.Number,
  machineId: Schema.String,
  tier: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100)), { default: () => "standard" }),
  holder: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  entitlements: Schema.Array(
    Schema.String.pipe(Schema.filter((name) => name === "*" || LICENSED_FEATURE_NAME.test(name) || `"${name}" is not a feature name`))
  ).pipe(Schema.maxItems(500)),
  status: Schema.optional(Schema.String)
})
const decodeClaims = Schema.decodeUnknownEither(Claims)

const tokenFailure = (message: string) => new LicenseServerFailed({ reason: "token", message: `the license token was refused: ${message}` })

/**
 * The token's claims when it verifies at `now` (RS256 with `key`, audience
 * `garrison`, not expired, bound to `machineId`). `atIssue`: check it as at
 * a moment it was valid, for a token read back from the store (its state,
 * `expired` included, is decided from its claims afterwards).
 */
export const verifyToken = (
  token: string,
  key: VerifyingKey,
  machineId: string,
  now: number,
  options: { readonly atIssue?: boolean } = {}
): Effect.Effect<LicenseClaims, LicenseServerFailed> =>
  Effect.gen(function* () {
    let at = now
    if (options.atIssue === true) {
      // Only chooses the moment to check at; the signature is checked below all the same.
      const exp = yield* Effect.try({ try: () => decodeJwt(token).exp, catch: (cause) => tokenFailure(errorMessage(cause)) })
      if (typeof exp === "number") at = Math.min(now, exp * 1000 - 1000)
    }
    const { payload } = yield* Effect.tryPromise({
      try: () =>
        jwtVerify(token, key.key, {
          algorithms: ["RS256"],
          audience: TOKEN_AUDIENCE,
          currentDate: new Date(at),
          requiredClaims: ["sub", "exp", "iat"]
        }),
      catch: (cause) => tokenFailure(errorMessage(cause))
    })
    const claims = decodeClaims(payload)
    if (claims._tag === "Left") return yield* tokenFailure(`its claims are not a license's (${summarize(String(claims.left.message))})`)
    if (claims.right.machineId !== machineId) return yield* tokenFailure("it is bound to another machine id")
    return {
      licenseId: claims.right.sub,
      tier: claims.right.tier,
      holder: claims.right.holder ?? null,
      entitlements: [...new Set(claims.right.entitlements)],
      issuedAt: claims.right.iat * 1000,
      expiresAt: claims.right.exp * 1000,
      standing: claims.right.status === "past_due" ? "past_due" : "good"
    } satisfies LicenseClaims
  })

/** At most 200 characters of someone else's words, on one line. */
const summarize = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim()
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

const TokenAnswer = Schema.Struct({ token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(16_384)) })
const ServerWords = Schema.Struct({ message: Schema.optional(Schema.String), error: Schema.optional(Schema.String) })
const PublicKeyAnswer = Schema.Struct({ kty: Schema.String, n: Schema.String, e: Schema.String })
export const TiersAnswer = Schema.Struct({
  tiers: Schema.Array(
    Schema.Struct({
      id: Schema.String.pipe(Schema.maxLength(100)),
      name: Schema.String.pipe(Schema.maxLength(200)),
      description: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(2000)), { default: () => "" }),
      entitlements: Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(500))
    })
  ).pipe(Schema.maxItems(100))
})
export type TiersAnswer = typeof TiersAnswer.Type

/** How the server answered a refresh. */
export type RefreshAnswer =
  | { readonly _tag: "Token"; readonly token: string }
  /** 402: a payment failed. */
  | { readonly _tag: "PastDue"; readonly message: string }
  /** 403, 404, 410: the license is withdrawn (revoked, cancelled, unknown). */
  | { readonly _tag: "Withdrawn"; readonly status: number; readonly message: string }

export interface LicenseServer {
  readonly publicKey: Effect.Effect<VerifyingKey, LicenseServerFailed>
  readonly activate: (key: string, machineId: string) => Effect.Effect<string, KeyRefused | LicenseServerFailed>
  readonly refresh: (key: string, machineId: string, licenseId: string) => Effect.Effect<RefreshAnswer, LicenseServerFailed>
  /** Best effort: tells the server this machine gave the license up. */
  readonly deactivate: (key: string, machineId: string) => Effect.Effect<void>
  readonly tiers: Effect.Effect<TiersAnswer, LicenseServerFailed>
}

/** The license server at `base` through `http`. */
export const licenseServer = (http: HttpClient.HttpClient, base: string, version: string): LicenseServer => {
  // Never the URL's credentials, if it has any: these messages reach admins and the log.
  const where = displayUrl(base)
  const failed = (error: unknown): LicenseServerFailed => {
    if (error instanceof LicenseServerFailed) return error
    const tag = (error as { readonly _tag?: string })._tag
    if (tag === "TimeoutException") {
      return new LicenseServerFailed({ reason: "timeout", message: `the license server at ${where} did not answer within ${Duration.format(SERVER_TIMEOUT)}` })
    }
    if (tag === "ParseError" || tag === "ResponseError") {
      return new LicenseServerFailed({ reason: "bad-answer", message: `the license server at ${where} answered something that is not its protocol` })
    }
    const cause = (error as { readonly cause?: { readonly cause?: { readonly code?: string }; readonly code?: string } }).cause
    const code = cause?.code ?? cause?.cause?.code
    return new LicenseServerFailed({ reason: "unreachable", message: `the license server at ${where} is not reachable${code === undefined ? "" : ` (${code})`}` })
  }
  /** One request: the status and the JSON body (null when there is none or it is not JSON). */
  const send = (request: HttpClientRequest.HttpClientRequest) =>
    http.execute(request.pipe(HttpClientRequest.acceptJson)).pipe(
      Effect.flatMap((response) =>
        Effect.map(
          Effect.orElseSucceed(response.json, () => null as unknown),
          (body) => ({ status: response.status, body })
        )
      ),
      Effect.scoped,
      Effect.timeout(SERVER_TIMEOUT),
      Effect.mapError(failed)
    )
  const post = (path: string, body: Record<string, unknown>) => send(HttpClientRequest.post(`${base}${path}`).pipe(HttpClientRequest.bodyUnsafeJson(body)))
  const refusalText = (body: unknown) => {
    const decoded = Schema.decodeUnknownOption(ServerWords)(body)
    const words = decoded._tag === "Some" ? decoded.value.message ?? decoded.value.error : undefined
    return words === undefined ? "" : summarize(words)
  }
  const badStatus = (status: number) =>
    new LicenseServerFailed({ reason: "bad-answer", message: `the license server at ${where} answered ${status}` })
  const tokenOf = (answer: { readonly status: number; readonly body: unknown }) =>
    Schema.decodeUnknown(TokenAnswer)(answer.body).pipe(
      Effect.map((decoded) => decoded.token),
      Effect.mapError(() => new LicenseServerFailed({ reason: "bad-answer", message: `the license server at ${where} answered without a token` }))
    )
  const product = { product: "garrison", version }

  return {
    publicKey: send(HttpClientRequest.get(`${base}/v1/public-key`)).pipe(
      Effect.flatMap((answer) => (answer.status === 200 ? Effect.succeed(answer.body) : Effect.fail(badStatus(answer.status)))),
      Effect.flatMap((body) =>
        Schema.decodeUnknown(PublicKeyAnswer)(body).pipe(
          Effect.mapError(() => new LicenseServerFailed({ reason: "bad-answer", message: `the license server at ${where} answered no RSA public key` }))
        )
      ),
      Effect.flatMap((jwk) =>
        Effect.mapError(
          parsePublicKey(JSON.stringify(jwk)),
          (problem) => new LicenseServerFailed({ reason: "bad-answer", message: `the license server's public key is unusable: ${problem}` })
        )
      )
    ),
    activate: (key, machineId) =>
      post("/v1/activate", { key, machineId, ...product }).pipe(
        Effect.flatMap((answer): Effect.Effect<string, KeyRefused | LicenseServerFailed> => {
          if (answer.status === 200) return tokenOf(answer)
          if (answer.status >= 400 && answer.status < 500) {
            const words = refusalText(answer.body)
            return Effect.fail(
              new KeyRefused({ status: answer.status, message: `the license server refused the key (${answer.status})${words === "" ? "" : `: ${words}`}` })
            )
          }
          return Effect.fail(badStatus(answer.status))
        })
      ),
    refresh: (key, machineId, licenseId) =>
      post("/v1/refresh", { key, machineId, licenseId, ...product }).pipe(
        Effect.flatMap((answer): Effect.Effect<RefreshAnswer, LicenseServerFailed> => {
          if (answer.status === 200) return Effect.map(tokenOf(answer), (token) => ({ _tag: "Token", token }) as const)
          const words = refusalText(answer.body)
          if (answer.status === 402) return Effect.succeed({ _tag: "PastDue", message: words === "" ? "a payment failed" : words })
          if (answer.status === 403 || answer.status === 404 || answer.status === 410) {
            return Effect.succeed({ _tag: "Withdrawn", status: answer.status, message: words === "" ? `answered ${answer.status}` : words })
          }
          return Effect.fail(badStatus(answer.status))
        })
      ),
    deactivate: (key, machineId) => Effect.ignore(post("/v1/deactivate", { key, machineId, ...product })),
    tiers: send(HttpClientRequest.get(`${base}/v1/tiers`)).pipe(
      Effect.flatMap((answer) => (answer.status === 200 ? Effect.succeed(answer.body) : Effect.fail(badStatus(answer.status)))),
      Effect.flatMap((body) =>
        Schema.decodeUnknown(TiersAnswer)(body).pipe(
          Effect.mapError(() => new LicenseServerFailed({ reason: "bad-answer", message: `the license server at ${where} answered tiers that are not its protocol` }))
        )
      )
    )
  }
}
