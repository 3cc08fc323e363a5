/**
 * The RCON session of a run: opened with retries (the server opens RCon
 * some time after it starts), followed until it closes, then opened again.
 * Lives in the run's scope: ending the run ends the session.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { RconClient, RconConnectError, RconConnectionState } from "../../rcon/RconClient.js"
import type { RconSettings } from "../ServerEntry.js"

export interface RconSessionDeps {
  readonly connect: (settings: RconSettings) => Effect.Effect<RconClient, RconConnectError, Scope.Scope>
  readonly retry: Schedule.Schedule<unknown, unknown>
  /** Where the live client is kept for commands (none while no session is up). */
  readonly setClient: (client: Option.Option<RconClient>) => Effect.Effect<void>
  readonly showState: (rcon: RconConnectionState) => Effect.Effect<void>
  readonly showError: (message: string) => Effect.Effect<void>
  /** Runs once the session is up (the first players refresh). */
  readonly onConnected: Effect.Effect<void>
  readonly onMessage: (text: string) => Effect.Effect<void>
}

export const rconSession = (settings: RconSettings, deps: RconSessionDeps): Effect.Effect<void> =>
  Effect.scoped(
    Effect.gen(function* () {
      const client = yield* deps.connect(settings).pipe(
        Effect.tapError((error) => deps.showError(`RCON: ${error.message}`)),
        Effect.retry(deps.retry)
      )
      yield* deps.setClient(Option.some(client))
      yield* Effect.addFinalizer(() => deps.setClient(Option.none()))
      yield* deps.showState(yield* client.state)
      yield* client.stateChanges.pipe(Stream.runForEach(deps.showState), Effect.forkScoped)
      const messages = yield* client.subscribe
      yield* deps.onConnected
      yield* Stream.runForEach(messages, deps.onMessage)
    })
  ).pipe(
    Effect.catchAllCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.void : deps.showError(`RCON: ${Cause.pretty(cause)}`))),
    // The client closed (or gave up): open a new session.
    Effect.repeat(Schedule.spaced("1 second")),
    Effect.asVoid
  )
