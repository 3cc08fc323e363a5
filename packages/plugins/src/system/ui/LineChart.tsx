/**
 * A small line chart of one series over time, as inline SVG (no inline
 * style: the page's Content-Security-Policy forbids it): the caption says
 * the latest, peak and mean values, the SVG's label the same for screen
 * readers, and the line below it the time span in the user's locale.
 */
import { formatClock } from "./format.js"

export interface Point {
  /** Milliseconds since the epoch. */
  readonly t: number
  readonly v: number
}

const W = 600
const H = 120

export const LineChart = ({
  title,
  points,
  format,
  max
}: {
  readonly title: string
  readonly points: ReadonlyArray<Point>
  readonly format: (value: number) => string
  /** The top of the scale (100 for a share of the whole host); by default the peak. */
  readonly max?: number
}) => {
  if (points.length === 0) {
    return (
      <figure className="card chart">
        <figcaption>{title}</figcaption>
        <p className="muted">No samples yet.</p>
      </figure>
    )
  }
  const first = points[0]!
  const last = points[points.length - 1]!
  const t0 = first.t
  const t1 = Math.max(last.t, t0 + 1)
  const peak = Math.max(...points.map((p) => p.v))
  const top = Math.max(max ?? 0, peak * 1.1, 1e-9)
  const mean = points.reduce((sum, p) => sum + p.v, 0) / points.length
  const x = (t: number) => ((t - t0) / (t1 - t0)) * W
  const y = (v: number) => H - (v / top) * (H - 8) - 4
  // One sample: a flat line at its value across the chart.
  const drawn = points.length === 1 ? [first, { t: t1, v: first.v }] : points
  const path = drawn.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(" ")
  const summary = `now ${format(last.v)}, peak ${format(peak)}, mean ${format(mean)}`
  return (
    <figure className="card chart">
      <figcaption>
        {title}: {summary}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={`${title} over the last ${points.length} samples: ${summary}`}>
        <path d={path} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <p className="muted">
        {points.length === 1 ? `One sample, at ${formatClock(t0)}` : `${points.length} samples, ${formatClock(t0)} to ${formatClock(last.t)}`}
      </p>
    </figure>
  )
}
