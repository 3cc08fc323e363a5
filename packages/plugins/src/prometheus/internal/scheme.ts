/**
 * The `metrics-token` scheme: `Authorization: Bearer <METRICS_TOKEN>`, the
 * only way to `GET /metrics`. It answers for every request to that path
 * (with credentials or without), so one place decides: 404 while no token
 * is set (as an unknown route; scrapers must not learn more), 401 without a
 * bearer token or with another (compared in constant time: fixed-length
 * digests), else the scraper. It claims no request to any other path, so a
 * session's bearer token elsewhere is never taken for it.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import {
  AuthenticationFailed,
  type AuthenticationMethod,
  type AuthenticationScheme,
  type Principal,
  RuntimeSettings,
  type SchemeAuthenticator
} from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { MetricsTokenSetting } from "../config.js"
import { METRICS_PATH, METRICS_SCHEME } from "../contract/Api.js"

const bearerToken: AuthenticationMethod = {
  schemes: {
    metricsToken: {
      type: "http",
      scheme: "bearer",
      description: "The controller's `METRICS_TOKEN`, for Prometheus' scrapes of `GET /metrics` (and nothing else)."
    }
  },
  requires: (operation) => (operation.path === METRICS_PATH ? ["metricsToken"] : undefined)
}

/** The scraper, as handlers and logs see it: a service with no permissions. */
const scraper: Principal = { kind: "service", id: "metrics", name: "metrics scraper", role: "metrics", permissions: new Set() }

/** The request's path (canonical already: the gate removed duplicate and trailing slashes), case-insensitively as routes match. */
const isMetricsRequest = (request: HttpServerRequest.HttpServerRequest) => {
  const url = request.url
  const queryAt = url.indexOf("?")
  return (queryAt === -1 ? url : url.slice(0, queryAt)).toLowerCase() === METRICS_PATH
}

const BEARER = /^Bearer +(\S+) *$/i

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

const off = new AuthenticationFailed({
  status: 404,
  code: "not-found",
  message: `no route for GET ${METRICS_PATH}: metrics are off (the controller serves them when started with METRICS_TOKEN)`
})
const refused = new AuthenticationFailed({
  status: 401,
  code: "unauthenticated",
  message: `${METRICS_PATH} needs the metrics token: send Authorization: Bearer <METRICS_TOKEN>`
})

export const metricsTokenScheme: AuthenticationScheme = {
  name: METRICS_SCHEME,
  methods: [bearerToken],
  authenticator: Effect.map(
    // Captured when the plugin is built: the system plugin's stored value when it is loaded, else the environment's.
    RuntimeSettings,
    (settings): SchemeAuthenticator => ({
      carries: isMetricsRequest,
      authenticate: (request) =>
        settings.get(MetricsTokenSetting).pipe(
          Effect.flatMap((token) => {
            if (Option.isNone(token)) return Effect.fail(off)
            const header = request.headers["authorization"]
            const sent = typeof header === "string" ? BEARER.exec(header)?.[1] : undefined
            if (sent === undefined || !timingSafeEqual(digest(sent), digest(Redacted.value(token.value)))) return Effect.fail(refused)
            return Effect.succeed(Option.some(scraper))
          })
        )
    })
  )
}
