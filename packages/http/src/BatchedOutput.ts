/**
 * The controller's log output, written in batches off the request's path.
 * Effect's logger formats each line as before (the same text, colours on a
 * terminal) and hands it to the `Console` service; the console given here
 * collects the lines and writes them to stdout once per `windowMs`, so a
 * busy controller makes one write per window instead of one synchronous
 * write per request (stdout to a file or a pipe blocks on Linux).
 *
 * Nothing is dropped: what is pending is written when the scope closes (a
 * stop, or a start-up error on its way out) and, as a last resort, when the
 * process exits.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { Console as NodeConsole } from "node:console"
import { Writable } from "node:stream"

/** Collects what is written and passes it on in one write per window. */
const batchedStream = (target: NodeJS.WritableStream, windowMs: number) => {
  let pending: Array<Buffer> = []
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    const chunk = Buffer.concat(pending)
    pending = []
    target.write(chunk)
  }
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)
      // The timer never keeps the process alive; the exit hook writes what it leaves.
      if (timer === undefined) timer = setTimeout(flush, windowMs).unref()
      done()
    }
  })
  return { stream, flush }
}

/**
 * A `Console` whose output is batched (see above), for the scope: log lines
 * written by every fiber of `effect` go through it.
 */
export const withBatchedOutput = (windowMs: number): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const out = batchedStream(process.stdout, windowMs)
    const err = batchedStream(process.stderr, windowMs)
    const flushAll = () => {
      out.flush()
      err.flush()
    }
    process.on("exit", flushAll)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        process.off("exit", flushAll)
        flushAll()
      })
    )
    const node = new NodeConsole({ stdout: out.stream, stderr: err.stream, colorMode: "auto" })
    const base = yield* Effect.console
    // Effect's loggers write through `unsafe`; the effectful methods keep the default console.
    yield* Effect.withConsoleScoped({ ...base, unsafe: node } satisfies Console.Console)
  })
