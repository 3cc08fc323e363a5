/** `GET /metrics`: the scraper got past its scheme (see `internal/scheme.ts`); the answer is never cached. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { METRICS_CONTENT_TYPE, PrometheusApi } from "./contract/Api.js"
import { PrometheusMetrics } from "./Metrics.js"

export const PrometheusRoutes = HttpApiBuilder.group(PrometheusApi, "prometheus", (handlers) =>
  Effect.gen(function* () {
    const metrics = yield* PrometheusMetrics
    return handlers.handleRaw("metrics", () =>
      Effect.map(metrics.render, (text) =>
        // Outside /api the gate sets no Cache-Control: say it here.
        HttpServerResponse.text(text, { contentType: METRICS_CONTENT_TYPE, headers: { "cache-control": "no-store" } })
      )
    )
  })
)
