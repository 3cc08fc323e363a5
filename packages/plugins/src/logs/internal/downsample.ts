/**
 * How a metrics range is answered: raw samples when they fit in
 * `MAX_METRIC_POINTS`, otherwise bucket averages with a bucket of whole
 * seconds just long enough to fit.
 */
import { MAX_METRIC_POINTS } from "../contract/Api.js"

/** 0 for raw samples, else the bucket length in milliseconds. */
export const bucketMillis = (fromMs: number, toMs: number, sampleEveryMs: number): number => {
  const range = Math.max(0, toMs - fromMs)
  if (range / Math.max(1, sampleEveryMs) <= MAX_METRIC_POINTS) return 0
  return Math.ceil(range / MAX_METRIC_POINTS / 1000) * 1000
}
