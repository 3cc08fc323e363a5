/**
 * `GET /metrics`: the controller's metrics in Prometheus' text format,
 * outside `/api` where scrapers look for them. The caller is the scraper,
 * with `Authorization: Bearer <METRICS_TOKEN>` (the `metrics-token` scheme,
 * nothing else): 401 without it or with another, 404 while no token is set.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, AuthSchemes, NotFound } from "@garrison/runtime"

export const METRICS_PATH = "/metrics"
/** The authentication scheme of the scrape token. */
export const METRICS_SCHEME = "metrics-token"
/** Prometheus' text exposition format, version 0.0.4 (what prom-client writes). */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const MetricsText = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: METRICS_CONTENT_TYPE }))

export class PrometheusGroup extends HttpApiGroup.make("prometheus").annotate(OpenApi.Description, "Metrics in the Prometheus text format.").add(
  HttpApiEndpoint.get("metrics", METRICS_PATH)
    .addSuccess(MetricsText)
    .addError(NotFound)
    .annotate(Access, Access.anyAuth)
    .annotate(AuthSchemes, [METRICS_SCHEME])
    .annotate(OpenApi.Summary, "Prometheus metrics")
    .annotate(
      OpenApi.Description,
      "The controller's metrics in Prometheus' text format (servers by status, players online, requests by route and " +
        "status with their latency, RCON and agent errors, the webhook queue, the process's CPU, memory and event-loop " +
        "delay). Off (404) unless the controller was started with `METRICS_TOKEN`; then the scraper sends it as " +
        "`Authorization: Bearer <METRICS_TOKEN>` (401 without it or with another). Never cached."
    )
) {}

export class PrometheusApi extends HttpApi.make("prometheus").add(PrometheusGroup) {}
