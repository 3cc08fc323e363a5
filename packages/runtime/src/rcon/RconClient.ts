/**
 * One interface for every RCON protocol Garrison speaks: BattlEye RCon over
 * UDP (DayZ) and Source RCON over TCP (Source-engine games, Minecraft, ARK,
 * ...). A server actor holds an `RconClient` and does not care which.
 */
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"

/** The password was refused by the server. */
export class RconLoginRefused extends Schema.TaggedError<RconLoginRefused>()("RconLoginRefused", {
  host: Schema.String,
  port: Schema.Number,
  message: Schema.String
}) {}

/** No answer at all (RCon disabled, wrong port, server down) or the socket could not be opened. */
export class RconUnreachable extends Schema.TaggedError<RconUnreachable>()("RconUnreachable", {
  host: Schema.String,
  port: Schema.Number,
  message: Schema.String
}) {}

/** A command got no (complete) reply within its time-out. */
export class RconTimeout extends Schema.TaggedError<RconTimeout>()("RconTimeout", {
  command: Schema.String,
  timeoutMs: Schema.Number
}) {}

/** The connection was lost (silence, server restart, socket error) while the command waited. */
export class RconConnectionLost extends Schema.TaggedError<RconConnectionLost>()("RconConnectionLost", {
  command: Schema.String,
  message: Schema.String
}) {}

/** The client was closed. */
export class RconClosed extends Schema.TaggedError<RconClosed>()("RconClosed", {
  command: Schema.String
}) {}

/** Why `connect` failed. */
export type RconConnectError = RconLoginRefused | RconUnreachable

/** Why a command failed. */
export type RconCommandError = RconTimeout | RconConnectionLost | RconClosed

export type RconError = RconConnectError | RconCommandError

export type RconProtocol = "battleye" | "source"

export type RconStatus = "connected" | "reconnecting" | "closed"

/** The connection as an actor shows it. Times are `Clock` milliseconds. */
export interface RconConnectionState {
  readonly status: RconStatus
  /** When `status` last changed. */
  readonly since: number
  /** Successful reconnects since `connect`. */
  readonly reconnects: number
  /** Why the last connection or reconnect attempt failed. */
  readonly lastError: string | undefined
}

export interface CommandOptions {
  /** Overrides the client's per-request time-out. */
  readonly timeout?: Duration.DurationInput
}

export interface RconClient {
  readonly protocol: RconProtocol
  /**
   * Sends one command and waits for its whole reply (multi-part replies
   * reassembled). Interrupting the caller withdraws a command still waiting
   * for its turn; one already sent runs on the server regardless.
   */
  readonly command: (text: string, options?: CommandOptions) => Effect.Effect<string, RconCommandError>
  /**
   * Server messages (BattlEye pushes player connects, chat, kicks, ...), each
   * delivered once even when the server repeats it. Every run of the stream
   * sees the messages that arrive while it runs; it ends when the client closes.
   * Source RCON has no server messages: the stream only ends.
   */
  readonly messages: Stream.Stream<string>
  /**
   * Like `messages`, but subscribed as soon as this effect runs, so no
   * message arriving afterwards is missed even before the stream is pulled.
   */
  readonly subscribe: Effect.Effect<Stream.Stream<string>, never, Scope.Scope>
  readonly state: Effect.Effect<RconConnectionState>
  readonly stateChanges: Stream.Stream<RconConnectionState>
  /** Closes the connection; waiting and later commands fail with `RconClosed`. Idempotent. */
  readonly close: Effect.Effect<void>
}
