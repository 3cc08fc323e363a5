/**
 * Stopping a game server: `#shutdown` over RCON (players are told and the
 * world is saved), wait; SIGTERM, wait; SIGKILL, wait. The first step that
 * ends the process wins. Each wait can be interrupted (a controller
 * shutdown); nothing here changes the actor's state.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { RconClient } from "../../rcon/RconClient.js"
import type { ServerStopped } from "../events.js"
import type { ProcessHandle } from "../ProcessLauncher.js"
import type { StopPolicy } from "../ServerEntry.js"

export type StopHow = ServerStopped["how"]

export interface StopPlan {
  readonly handle: ProcessHandle
  readonly rcon: Option.Option<RconClient>
  readonly policy: StopPolicy
  readonly rconTimeout: Duration.DurationInput
  readonly killWait: Duration.DurationInput
}

/** How the process ended, or none when it survived even SIGKILL. */
export const escalateStop = (plan: StopPlan): Effect.Effect<Option.Option<StopHow>> =>
  Effect.gen(function* () {
    const waitFor = (duration: Duration.DurationInput) =>
      plan.handle.exited.pipe(Effect.timeoutOption(duration), Effect.map(Option.isSome))
    if (Option.isSome(plan.rcon)) {
      yield* plan.rcon.value.command("#shutdown", { timeout: plan.rconTimeout }).pipe(Effect.ignore)
      if (yield* waitFor(plan.policy.shutdownWaitMs)) return Option.some<StopHow>("rcon")
    }
    yield* plan.handle.signal("SIGTERM")
    if (yield* waitFor(plan.policy.terminateWaitMs)) return Option.some<StopHow>("sigterm")
    yield* plan.handle.signal("SIGKILL")
    if (yield* waitFor(plan.killWait)) return Option.some<StopHow>("sigkill")
    return Option.none()
  })
