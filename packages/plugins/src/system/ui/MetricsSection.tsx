/**
 * The host's and the controller's load: the figures of the last window and
 * charts over the sampled history (host CPU, controller CPU, host memory,
 * event-loop delay p99), read again every few seconds.
 */
import { formatBytes, Loaded, type Resource } from "@dashboard/ui/data.js"
import type { MetricSample, SystemMetrics } from "../contract/Api.js"
import { formatLoad, formatMs, formatPercent } from "./format.js"
import { LineChart, type Point } from "./LineChart.js"

const series = (history: ReadonlyArray<MetricSample>, pick: (sample: MetricSample) => number): ReadonlyArray<Point> =>
  history.map((sample) => ({ t: Date.parse(sample.at), v: pick(sample) }))

const Figures = ({ m }: { readonly m: SystemMetrics }) => (
  <div className="card stack">
    <h3>Host</h3>
    <dl className="kv">
      <dt>CPU busy</dt>
      <dd>{formatPercent(m.host.cpuBusyPercent)}</dd>
      <dt>Load average</dt>
      <dd>
        {m.host.loadAverage.map(formatLoad).join(" · ")} <span className="muted">(1, 5, 15 min; {m.host.cpus} CPUs)</span>
      </dd>
      <dt>Memory</dt>
      <dd>
        {formatBytes(m.host.memory.usedBytes)} used of {formatBytes(m.host.memory.totalBytes)}
      </dd>
    </dl>
    <h3>Controller</h3>
    <dl className="kv">
      <dt>Process</dt>
      <dd>pid {m.process.pid}</dd>
      <dt>CPU</dt>
      <dd>
        {formatPercent(m.process.cpuPercent)} <span className="muted">of one core</span>
      </dd>
      <dt>Memory</dt>
      <dd>
        {formatBytes(m.process.rssBytes)} resident; heap {formatBytes(m.process.heapUsedBytes)} of {formatBytes(m.process.heapTotalBytes)}; external{" "}
        {formatBytes(m.process.externalBytes)}
      </dd>
      <dt>Event-loop delay</dt>
      <dd>
        {m.eventLoop === null ? (
          <span className="muted">not measured yet</span>
        ) : (
          <>
            mean {formatMs(m.eventLoop.meanMs)}, p50 {formatMs(m.eventLoop.p50Ms)}, p99 {formatMs(m.eventLoop.p99Ms)}, max {formatMs(m.eventLoop.maxMs)}
          </>
        )}
      </dd>
    </dl>
  </div>
)

export const MetricsSection = ({ metrics }: { readonly metrics: Resource<SystemMetrics> }) => (
  <section className="stack" aria-labelledby="system-metrics-title">
    <h2 id="system-metrics-title">Load</h2>
    <Loaded resource={metrics}>
      {(m) => (
        <>
          <Figures m={m} />
          <p className="muted">
            {m.history.length === 0
              ? `No samples yet: the first is taken ${m.sampleEverySeconds} seconds after the start.`
              : `A sample every ${m.sampleEverySeconds} seconds; the charts show the last ${m.history.length}.`}
          </p>
          <div className="grid">
            <LineChart title="Host CPU" points={series(m.history, (s) => s.cpuBusyPercent)} format={formatPercent} max={100} />
            <LineChart title="Controller CPU (share of one core)" points={series(m.history, (s) => s.processCpuPercent)} format={formatPercent} />
            <LineChart title="Host memory used" points={series(m.history, (s) => s.memoryUsedBytes)} format={formatBytes} max={m.host.memory.totalBytes} />
            <LineChart title="Event-loop delay p99" points={series(m.history, (s) => s.eventLoopP99Ms)} format={formatMs} />
          </div>
        </>
      )}
    </Loaded>
  </section>
)
