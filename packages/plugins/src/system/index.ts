/**
 * The system plugin (the spec's "System, health, audit", admins only): what
 * runs where (`/api/system/info`), the host's and the controller's load
 * sampled every 5 seconds (`/metrics`), how the controller runs
 * (`/service`), and the settings that may change while it runs (`/config`):
 * it provides the kernel's `RuntimeSettings` with stored overrides. See
 * README.md.
 */
import * as Layer from "effect/Layer"
import { AuditTrail, Plugin, RuntimeSettings } from "@garrison/runtime"
import { SystemApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { SystemRoutes } from "./routes.js"
import { Sampler, SAMPLE_EVERY_SECONDS } from "./Sampler.js"
import { systemSettings } from "./settings.js"
import { SystemSettings } from "./SystemSettings.js"
import * as Effect from "effect/Effect"

export const SystemPlugin = Plugin.make({
  id: "system",
  description: "Versions, host load, how the controller runs, and the settings that change at run time",
  requires: [AuditTrail],
  // The kernel's slot: plugins that read a run-time setting while their services are built find the stored value.
  provides: [RuntimeSettings],
  migrations,
  settings: systemSettings,
  layer: Layer.merge(SystemSettings.layer, Sampler.layer),
  http: Plugin.http(SystemApi, SystemRoutes),
  jobs: [{ name: "sample-load", every: `${SAMPLE_EVERY_SECONDS} seconds`, run: Effect.flatMap(Sampler, (sampler) => sampler.sample) }]
})

export { MetricSample, ServiceState, SettingView, SystemApi, SystemConfig, SystemInfo, SystemMetrics } from "./contract/Api.js"
export { SystemSettings } from "./SystemSettings.js"
export type { SettingsChange, SystemSettingsShape } from "./SystemSettings.js"
