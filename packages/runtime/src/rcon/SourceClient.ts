/**
 * Source RCON over TCP (Source-engine games, Minecraft, ARK, Squad,
 * Palworld), through `rcon-client`, behind the same `RconClient` interface
 * as BattlEye. Commands are sent one at a time (what most such servers
 * handle reliably); a dropped connection is re-opened by the next command.
 * Source RCON has no server messages, so `messages` only ends on close.
 */
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as EffectRuntime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { Rcon } from "rcon-client"
import {
  type CommandOptions,
  RconClosed,
  type RconClient,
  type RconCommandError,
  type RconConnectError,
  RconConnectionLost,
  type RconConnectionState,
  RconLoginRefused,
  RconTimeout,
  RconUnreachable
} from "./RconClient.js"
import { errorMessage } from "../errorMessage.js"

export interface SourceOptions {
  readonly host: string
  readonly port: number
  readonly password: string
  /** Per-command time-out. Default 5 s. */
  readonly commandTimeout?: Duration.DurationInput
  /** TCP connect plus authentication. Default 5 s. */
  readonly connectTimeout?: Duration.DurationInput
}


const millis = (input: Duration.DurationInput | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.decode(input))

/** Connects and authenticates; the client closes with the scope (or earlier with `close`). */
export const connect = (options: SourceOptions): Effect.Effect<RconClient, RconConnectError, Scope.Scope> =>
  Effect.gen(function* () {
    const { host, port, password } = options
    const commandTimeoutMs = millis(options.commandTimeout, 5_000)
    const connectTimeoutMs = millis(options.connectTimeout, 5_000)
    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    // Socket callbacks run outside any fiber: they run effects with this client's own runtime (its clock, logger, context).
    const runFork = EffectRuntime.runFork(yield* Effect.runtime<never>())
    const state = yield* SubscriptionRef.make<RconConnectionState>({
      status: "reconnecting",
      since: now(),
      reconnects: 0,
      lastError: undefined
    })
    const closedSignal = yield* Deferred.make<void>()
    const connectLock = yield* Effect.makeSemaphore(1)
    let current: Rcon | undefined
    let closed = false
    let everConnected = false

    const setState = (patch: Partial<RconConnectionState>) =>
      SubscriptionRef.update(state, (s) => ({
        ...s,
        ...patch,
        since: patch.status !== undefined && patch.status !== s.status ? now() : s.since
      }))

    const destroy = (rcon: Rcon) => {
      rcon.socket?.destroy()
    }

    const open: Effect.Effect<Rcon, RconConnectError> = Effect.suspend(() => {
      const rcon = new Rcon({ host, port, password, timeout: commandTimeoutMs })
      // An EventEmitter without an "error" listener throws; the failure reaches the caller through the promise.
      rcon.on("error", () => undefined)
      rcon.on("end", () => {
        if (current === rcon) {
          current = undefined
          if (!closed) runFork(setState({ status: "reconnecting", lastError: "connection closed by the server" }))
        }
      })
      return Effect.tryPromise({
        try: () => rcon.connect(),
        catch: (cause): RconConnectError =>
          errorMessage(cause) === "Authentication failed"
            ? new RconLoginRefused({ host, port, message: "the server refused the RCON password" })
            : new RconUnreachable({ host, port, message: errorMessage(cause) })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(connectTimeoutMs),
          onTimeout: () => new RconUnreachable({ host, port, message: `no answer within ${connectTimeoutMs} ms` })
        }),
        Effect.onError(() => Effect.sync(() => destroy(rcon)))
      )
    })

    /** The open connection, re-opened when it was lost. */
    const connection = (command: string): Effect.Effect<Rcon, RconCommandError> =>
      connectLock.withPermits(1)(
        Effect.suspend((): Effect.Effect<Rcon, RconCommandError> => {
          if (closed) return Effect.fail(new RconClosed({ command }))
          if (current !== undefined) return Effect.succeed(current)
          return open.pipe(
            Effect.tap((rcon) =>
              Effect.suspend(() => {
                current = rcon
                const reconnect = everConnected
                everConnected = true
                return SubscriptionRef.update(state, (s) => ({
                  ...s,
                  status: "connected" as const,
                  since: now(),
                  reconnects: s.reconnects + (reconnect ? 1 : 0)
                }))
              })
            ),
            Effect.tapError((error) => setState({ lastError: error.message })),
            Effect.mapError((error) => new RconConnectionLost({ command, message: error.message }))
          )
        })
      )

    const command = (text: string, commandOptions?: CommandOptions): Effect.Effect<string, RconCommandError> => {
      const timeoutMs = millis(commandOptions?.timeout, commandTimeoutMs)
      return connection(text).pipe(
        Effect.flatMap((rcon) =>
          Effect.tryPromise({
            try: () => rcon.send(text),
            catch: (cause): RconCommandError => {
              const message = errorMessage(cause)
              if (closed) return new RconClosed({ command: text })
              if (message.startsWith("Timeout")) return new RconTimeout({ command: text, timeoutMs })
              return new RconConnectionLost({ command: text, message })
            }
          })
        ),
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => new RconTimeout({ command: text, timeoutMs })
        })
      )
    }

    const close = Effect.gen(function* () {
      if (closed) return
      closed = true
      const rcon = current
      current = undefined
      if (rcon !== undefined) {
        yield* Effect.tryPromise(() => rcon.end()).pipe(
          Effect.timeout("1 second"),
          Effect.ignore,
          Effect.ensuring(Effect.sync(() => destroy(rcon)))
        )
      }
      yield* Deferred.succeed(closedSignal, undefined)
      yield* setState({ status: "closed" })
    })

    current = yield* open
    everConnected = true
    yield* setState({ status: "connected" })
    yield* Effect.addFinalizer(() => close)

    const messages: Stream.Stream<string> = Stream.fromEffect(Deferred.await(closedSignal)).pipe(Stream.drain)
    const client: RconClient = {
      protocol: "source",
      command,
      messages,
      subscribe: Effect.succeed(messages),
      state: SubscriptionRef.get(state),
      stateChanges: state.changes,
      close
    }
    return client
  })
