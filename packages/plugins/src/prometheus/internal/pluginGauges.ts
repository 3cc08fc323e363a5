/**
 * The gauges plugins register with `Telemetry` (servers by status, players,
 * the webhook queue), read at scrape time into prom-client gauges made on
 * first sight under `garrison_<name>`. A gauge whose collector fails is
 * left out of that scrape (and logged); a name that would clash with a
 * series already served is skipped, once, with a warning.
 */
import type { TelemetryGauge, TelemetryShape } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import { Gauge, type Registry } from "prom-client"

export const PREFIX = "garrison_"

export const makePluginGauges = (registry: Registry, telemetry: TelemetryShape) => {
  const made = new Map<TelemetryGauge, Gauge | null>()

  const gaugeFor = (declared: TelemetryGauge): Effect.Effect<Gauge | null> =>
    Effect.suspend(() => {
      const known = made.get(declared)
      if (known !== undefined) return Effect.succeed(known)
      const name = `${PREFIX}${declared.name}`
      if (registry.getSingleMetric(name) !== undefined) {
        made.set(declared, null)
        return Effect.as(Effect.logWarning(`metrics: a second gauge named ${name} was registered; serving the first`), null)
      }
      const gauge = new Gauge({ name, help: declared.help, labelNames: [...declared.labelNames], registers: [registry] })
      made.set(declared, gauge)
      return Effect.succeed(gauge)
    })

  /** Reads every gauge registered now (asked at each scrape: plugins built later register later); one failing leaves the others. */
  return Effect.suspend(() => Effect.forEach(
    telemetry.gauges(),
    (declared) =>
      Effect.flatMap(gaugeFor(declared), (gauge) =>
        gauge === null
          ? Effect.void
          : declared.collect.pipe(
              Effect.map((samples) => {
                gauge.reset()
                for (const sample of samples) gauge.set(sample.labels, sample.value)
              }),
              Effect.catchAllCause((cause) =>
                Effect.sync(() => gauge.reset()).pipe(
                  Effect.zipRight(Effect.logWarning(`metrics: the gauge ${PREFIX}${declared.name} could not be read`, cause))
                )
              )
            )
      ),
    { discard: true }
  ))
}
