/**
 * Requests by route template and status, and their latency: the observer
 * the front door calls once per answered request. Its series' children are
 * kept by route, method and status, so a request costs three map lookups,
 * one `inc` and one `observe`: no label object, no string built.
 */
import { Counter, Histogram, type Registry } from "prom-client"

/** Seconds: the controller's answers run from under a millisecond (pings) to seconds (imports, exports). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface RouteSeries {
  readonly latency: Histogram.Internal<"method" | "route">
  readonly byStatus: Map<number, Counter.Internal>
}

export const makeRequestMetrics = (registry: Registry) => {
  const requests = new Counter({
    name: "garrison_http_requests_total",
    help: "Requests answered past the gate, by method, route template and status (499: the client left first).",
    labelNames: ["method", "route", "status"],
    registers: [registry]
  })
  const latency = new Histogram({
    name: "garrison_http_request_duration_seconds",
    help: "Time from a request reaching the front door to its answer being ready, by method and route template.",
    labelNames: ["method", "route"],
    buckets: LATENCY_BUCKETS,
    registers: [registry]
  })
  // route -> method -> its series; routes are the plan's (bounded), methods and statuses few.
  const series = new Map<string, Map<string, RouteSeries>>()

  const seriesOf = (method: string, route: string): RouteSeries => {
    let byMethod = series.get(route)
    if (byMethod === undefined) series.set(route, (byMethod = new Map()))
    let found = byMethod.get(method)
    if (found === undefined) byMethod.set(method, (found = { latency: latency.labels(method, route), byStatus: new Map() }))
    return found
  }

  return (method: string, route: string, status: number, milliseconds: number): void => {
    const route_ = seriesOf(method, route)
    let counter = route_.byStatus.get(status)
    if (counter === undefined) route_.byStatus.set(status, (counter = requests.labels(method, route, String(status))))
    counter.inc()
    route_.latency.observe(milliseconds / 1000)
  }
}
