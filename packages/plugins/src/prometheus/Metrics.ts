/**
 * `PrometheusMetrics`: this controller's registry (never prom-client's global one:
 * tests build many controllers in one process), fed by `Telemetry`'s
 * observers (requests, RCON and agent failures) and read at scrape time
 * (the gauges plugins register, then the process's own metrics).
 */
import { Telemetry } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Registry } from "prom-client"
import { makeFailureMetrics } from "./internal/failureMetrics.js"
import { makePluginGauges } from "./internal/pluginGauges.js"
import { processRegistry } from "./internal/processMetrics.js"
import { makeRequestMetrics } from "./internal/requestMetrics.js"

export interface PrometheusMetricsShape {
  /** Every series now, in Prometheus' text format. */
  readonly render: Effect.Effect<string>
}

export class PrometheusMetrics extends Context.Tag("@garrison/plugins/prometheus/Metrics")<PrometheusMetrics, PrometheusMetricsShape>() {
  static readonly make = Effect.gen(function* () {
    const telemetry = yield* Telemetry
    const registry = new Registry()
    yield* telemetry.observe({ requestAnswered: makeRequestMetrics(registry), failed: makeFailureMetrics(registry) })
    const readGauges = makePluginGauges(registry, telemetry)
    // One scrape at a time: a gauge is reset and set again during a scrape.
    const scrapes = yield* Effect.makeSemaphore(1)
    const render = scrapes.withPermits(1)(
      Effect.zipRight(
        readGauges,
        Effect.promise(async () => (await registry.metrics()) + (await processRegistry().metrics()))
      )
    )
    return PrometheusMetrics.of({ render })
  })

  static readonly layer = Layer.scoped(PrometheusMetrics, PrometheusMetrics.make)
}
