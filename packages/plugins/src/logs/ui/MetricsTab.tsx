/** A server's metrics over time (players, CPU, memory) as small SVG charts, with the window to show. */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatBytes, Loaded, useResource } from "@dashboard/ui/data.js"
import type { MetricsResponse } from "../contract/Api.js"

const WINDOWS = [
  { label: "1 hour", ms: 3_600_000 },
  { label: "6 hours", ms: 6 * 3_600_000 },
  { label: "24 hours", ms: 24 * 3_600_000 },
  { label: "7 days", ms: 7 * 24 * 3_600_000 }
] as const

const W = 600
const H = 120

const Chart = ({
  title,
  points,
  format
}: {
  readonly title: string
  readonly points: ReadonlyArray<{ readonly t: number; readonly v: number }>
  readonly format: (v: number) => string
}) => {
  if (points.length === 0) {
    return (
      <figure className="card chart">
        <figcaption>{title}</figcaption>
        <p className="muted">No samples in this window.</p>
      </figure>
    )
  }
  const t0 = points[0]!.t
  const t1 = Math.max(points[points.length - 1]!.t, t0 + 1)
  const max = Math.max(...points.map((p) => p.v), 1e-9)
  const x = (t: number) => ((t - t0) / (t1 - t0)) * W
  const y = (v: number) => H - (v / max) * (H - 8) - 4
  // One sample: a flat line at its value across the chart.
  const drawn = points.length === 1 ? [points[0]!, { t: t1, v: points[0]!.v }] : points
  const path = drawn.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(" ")
  const last = points[points.length - 1]!.v
  const mean = points.reduce((a, p) => a + p.v, 0) / points.length
  return (
    <figure className="card chart">
      <figcaption>
        {title}: now {format(last)}, peak {format(max)}, mean {format(mean)}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={`${title} over the window: now ${format(last)}, peak ${format(max)}`}>
        <path d={path} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
    </figure>
  )
}

const series = (metrics: MetricsResponse, pick: (p: MetricsResponse["points"][number]) => number | null) =>
  metrics.points.flatMap((p) => {
    const v = pick(p)
    return v === null ? [] : [{ t: Date.parse(p.at), v }]
  })

const MetricsTab = ({ serverId }: { readonly serverId: string }) => {
  const [windowMs, setWindowMs] = useState<number>(WINDOWS[2].ms)
  const metrics = useResource(
    () => api((c) => c.logs.metrics({ path: { id: serverId }, urlParams: { from: new Date(Date.now() - windowMs), to: new Date() } })),
    [serverId, windowMs],
    { pollMs: 30_000 }
  )
  return (
    <div className="stack">
      <label className="narrow">
        Window
        <select value={windowMs} onChange={(e) => setWindowMs(Number(e.target.value))}>
          {WINDOWS.map((w) => (
            <option key={w.ms} value={w.ms}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      <Loaded resource={metrics}>
        {(m) => (
          <>
            <p className="muted">
              {m.points.length} point{m.points.length === 1 ? "" : "s"}
              {m.bucketSeconds > 0 ? `, each the mean of ${m.bucketSeconds} s` : ", raw samples"}
            </p>
            <Chart title="Players" points={series(m, (p) => p.players)} format={(v) => v.toFixed(0)} />
            <Chart title="CPU (% of one core)" points={series(m, (p) => p.cpu)} format={(v) => `${v.toFixed(0)}%`} />
            <Chart title="Memory" points={series(m, (p) => p.memoryBytes)} format={formatBytes} />
          </>
        )}
      </Loaded>
    </div>
  )
}

export default MetricsTab
