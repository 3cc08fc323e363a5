/**
 * The process's own metrics (CPU, memory, heap, handles, event-loop delay,
 * GC), under Node's usual names (`process_cpu_user_seconds_total`,
 * `nodejs_eventloop_lag_seconds`, ...), so the common Node.js dashboards
 * read them unchanged.
 *
 * One registry per process, not per controller: they describe the process,
 * and prom-client's collectors start an event-loop monitor and a GC
 * observer that are never stopped, so one per controller would leak both
 * in a process that builds many (the tests). Made on the first scrape, so
 * a controller without metrics starts neither. Not prom-client's global
 * default registry: nothing else registers here.
 */
import { globalValue } from "effect/GlobalValue"
import { collectDefaultMetrics, Registry } from "prom-client"

let made: Registry | undefined

export const processRegistry = (): Registry => {
  made ??= globalValue(Symbol.for("@garrison/plugins/prometheus/processRegistry"), () => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    return registry
  })
  return made
}
