/**
 * Time for the stand-in's "downloads": they take size / bytesPerSecond of
 * real time, so a test (or a person watching the dashboard) sees progress,
 * and a signal can land in the middle of one.
 */

/** Why a run stopped early: the process got a signal (or a test aborted it). */
export class Interrupted extends Error {
  constructor(readonly reason: unknown) {
    super("interrupted")
  }
}

/** Waits `ms`; rejects with `Interrupted` as soon as `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Interrupted(signal.reason))
    const onAbort = () => {
      clearTimeout(timer)
      reject(new Interrupted(signal?.reason))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })

export interface TransferOptions {
  /** Bytes of the whole download (progress is counted against it). */
  readonly total: number
  /** Stop once this many bytes are done (a download that fails part way); default `total`. */
  readonly stopAt?: number
  readonly bytesPerSecond: number
  readonly intervalMs: number
  readonly signal?: AbortSignal | undefined
  /** Writes the bytes [from, to) of the download. */
  readonly write: (from: number, to: number) => void
  /** Called after each interval's write with the bytes done so far. */
  readonly progress?: (done: number) => void
}

/**
 * Moves `total` bytes at `bytesPerSecond`, one write and one progress call
 * per interval (at least one of each, even for a tiny download). Returns
 * the bytes done (`stopAt` when given).
 */
export const transfer = async (options: TransferOptions): Promise<number> => {
  const limit = Math.min(options.total, options.stopAt ?? options.total)
  const started = Date.now()
  let done = 0
  do {
    const remainingMs = ((limit - done) / options.bytesPerSecond) * 1000
    await sleep(Math.max(1, Math.min(options.intervalMs, remainingMs)), options.signal)
    const due = Math.min(limit, Math.floor(((Date.now() - started) / 1000) * options.bytesPerSecond))
    if (due > done) {
      options.write(done, due)
      done = due
    }
    options.progress?.(done)
  } while (done < limit)
  return done
}
