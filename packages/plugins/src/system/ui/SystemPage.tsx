/**
 * The System page (`admin`): versions and host, the load with charts over
 * the sampled history (read again every 5 seconds), how the controller
 * runs, and the run-time settings.
 */
import { useResource } from "@dashboard/ui/data.js"
import { api } from "@dashboard/api/client.js"
import { InfoSection } from "./InfoSection.js"
import { MetricsSection } from "./MetricsSection.js"
import { ServiceSection } from "./ServiceSection.js"
import { SettingsSection } from "./SettingsSection.js"

/** The sampler's period: a new point each time. */
const METRICS_POLL_MS = 5_000
/** Uptimes move, the unit may be started or stopped meanwhile. */
const SLOW_POLL_MS = 60_000

const SystemPage = () => {
  const info = useResource(() => api((c) => c.system.info()), [], { pollMs: SLOW_POLL_MS })
  const metrics = useResource(() => api((c) => c.system.metrics()), [], { pollMs: METRICS_POLL_MS })
  const service = useResource(() => api((c) => c.system.service()), [], { pollMs: SLOW_POLL_MS })
  const config = useResource(() => api((c) => c.system.config()), [])
  return (
    <div className="stack">
      <h1>System</h1>
      <InfoSection info={info} />
      <MetricsSection metrics={metrics} />
      <ServiceSection service={service} />
      <SettingsSection config={config} />
    </div>
  )
}

export default SystemPage
