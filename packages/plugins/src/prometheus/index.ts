/**
 * Prometheus: `GET /metrics` in Prometheus' text format, off unless
 * `METRICS_TOKEN` is set, scraped with it as a bearer token. Series come
 * from the runtime's `Telemetry` (requests, RCON and agent failures, the
 * gauges other plugins register) and the process. See README.md.
 */
import { Plugin, RuntimeSettings } from "@garrison/runtime"
import { checkMetricsToken, MetricsTokenSetting } from "./config.js"
import { PrometheusApi } from "./contract/Api.js"
import { metricsTokenScheme } from "./internal/scheme.js"
import { PrometheusMetrics } from "./Metrics.js"
import { PrometheusRoutes } from "./routes.js"

export const PrometheusPlugin = Plugin.make({
  id: "prometheus",
  description: "Prometheus metrics at GET /metrics (with METRICS_TOKEN)",
  layer: PrometheusMetrics.layer,
  authentication: [metricsTokenScheme],
  // Scrapes come every few seconds: counted like every request, not logged.
  http: Plugin.http(PrometheusApi, PrometheusRoutes, { quietPaths: ["/metrics"] }),
  checkSettings: checkMetricsToken,
  // METRICS_TOKEN changes at run time through the system plugin, when it is loaded.
  settings: [MetricsTokenSetting],
  uses: [RuntimeSettings]
})

export { METRICS_TOKEN, MetricsTokenSetting } from "./config.js"
export { METRICS_CONTENT_TYPE, METRICS_PATH, METRICS_SCHEME, PrometheusApi } from "./contract/Api.js"
export { PrometheusMetrics } from "./Metrics.js"
export type { PrometheusMetricsShape } from "./Metrics.js"
