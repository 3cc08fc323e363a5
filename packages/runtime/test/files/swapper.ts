/**
 * A worker thread that races a path: it keeps swapping `target` by atomic
 * renames until stopped, so reads of `target` in the main thread land on
 * every state and on every moment in between.
 * - `file`: a regular file holding `text`, then a symlink to `outside`;
 * - `link`: a symlink to `inside`, then a symlink to `outside`.
 * `swaps()` counts the swaps done so far; the scope's end stops the worker.
 * It is running (a few swaps done) before this returns: a worker thread can
 * take longer to start on a busy machine than a whole race lasts.
 */
import { Effect } from "effect"
import { eventually } from "@garrison/testkit/core"
import { Worker } from "node:worker_threads"

export type SwapMode =
  | { readonly mode: "file"; readonly target: string; readonly text: string; readonly outside: string }
  | { readonly mode: "link"; readonly target: string; readonly inside: string; readonly outside: string }

const source = `
const { workerData } = require("node:worker_threads")
const fs = require("node:fs")
const { swap, control } = workerData
const flags = new Int32Array(control)
const link = swap.target + ".swap-link"
const file = swap.target + ".swap-file"
const pointAt = (to) => {
  fs.symlinkSync(to, link)
  fs.renameSync(link, swap.target)
  Atomics.add(flags, 1, 1)
}
while (Atomics.load(flags, 0) === 0) {
  pointAt(swap.outside)
  if (swap.mode === "file") {
    fs.writeFileSync(file, swap.text)
    fs.renameSync(file, swap.target)
    Atomics.add(flags, 1, 1)
  } else {
    pointAt(swap.inside)
  }
}
`

export const startSwapper = (swap: SwapMode) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const control = new SharedArrayBuffer(8)
      const worker = new Worker(source, { eval: true, workerData: { swap, control } })
      const flags = new Int32Array(control)
      return { worker, flags, swaps: () => Atomics.load(flags, 1) }
    }),
    ({ worker, flags }) =>
      Effect.promise(async () => {
        Atomics.store(flags, 0, 1)
        await worker.terminate()
      })
  ).pipe(
    Effect.tap(({ swaps }) => untilSwapping(swaps)),
    Effect.map(({ swaps }) => ({ swaps }))
  )

/** Waits in real time (the tests' clock may be a TestClock) until the worker has swapped a few times. */
const untilSwapping = (swaps: () => number) => Effect.asVoid(eventually(Effect.sync(swaps), (done) => done >= 10, 10_000, "the worker's first swaps"))
