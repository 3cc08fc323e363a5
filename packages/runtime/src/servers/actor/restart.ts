/**
 * A restart, as an operation: stop (when running) and start, up to
 * `attempts` times, waiting `backoff * attempt` between tries; each step and
 * wait shows in the operation's progress, and the outcome is published as
 * `ServerRestarted`. A stop interrupts it anywhere, a wait included.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { ActorError } from "../ActorError.js"
import { ServerRestarted } from "../events.js"
import type { OperationBody } from "./operation.js"
import type { RestartReason } from "./options.js"

export interface RestartDeps {
  readonly attempts: number
  readonly backoff: Duration.DurationInput
  readonly names: () => { readonly serverId: string; readonly name: string }
  readonly publish: (event: ServerRestarted) => Effect.Effect<void>
  /** After a successful start: a manual or scheduled restart starts the crash count afresh. */
  readonly started: (reason: RestartReason) => Effect.Effect<void>
  readonly gaveUp: (message: string) => ActorError
}

export const restartOperation = (reason: RestartReason, deps: RestartDeps): OperationBody => (context) =>
  Effect.gen(function* () {
    const { attempts } = deps
    let lastError = ""
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const at = `attempt ${attempt} of ${attempts}`
      if (yield* context.steps.running) {
        yield* context.progress((attempt - 1) / attempts, `${at}: stopping`)
        const stopped = yield* Effect.either(context.steps.stop)
        if (stopped._tag === "Left") {
          yield* deps.publish(new ServerRestarted({ ...deps.names(), ok: false, attempts: attempt, reason, error: stopped.left.message }))
          return yield* Effect.fail(stopped.left)
        }
      }
      yield* context.progress((attempt - 0.5) / attempts, `${at}: starting`)
      const started = yield* Effect.either(context.steps.start)
      if (started._tag === "Right") {
        yield* deps.started(reason)
        return yield* deps.publish(new ServerRestarted({ ...deps.names(), ok: true, attempts: attempt, reason }))
      }
      lastError = started.left.message
      if (attempt < attempts) {
        const wait = Duration.times(deps.backoff, attempt)
        yield* context.progress(attempt / attempts, `${at} failed (${lastError}); next attempt in ${Duration.format(wait)}`)
        yield* Effect.sleep(wait)
      }
    }
    yield* deps.publish(new ServerRestarted({ ...deps.names(), ok: false, attempts, reason, error: lastError }))
    return yield* Effect.fail(deps.gaveUp(`${deps.names().name} did not start after ${attempts} attempts: ${lastError}`))
  })
