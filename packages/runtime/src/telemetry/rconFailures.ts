/**
 * RCON failures told to `Telemetry`: a connection that fails (the password
 * refused, nothing answering) and every command that fails on the open
 * client (timed out, connection lost or closed), counted where the actor
 * opens its session, so every command (the actor's own, `GameControl`'s,
 * the status poller's) passes through it.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { RconClient, RconConnectError, RconError } from "../rcon/RconClient.js"
import type { RconSettings } from "../servers/ServerEntry.js"
import type { RconFailureKind, TelemetryShape } from "./Telemetry.js"

export const rconFailureKind = (error: RconError): RconFailureKind => {
  switch (error._tag) {
    case "RconTimeout":
      return "timeout"
    case "RconLoginRefused":
      return "login-refused"
    case "RconUnreachable":
    case "RconConnectionLost":
    case "RconClosed":
      return "socket-error"
  }
}

/** `connect`, with its failures and those of the client's commands told to `telemetry` for `serverId`. */
export const countRconFailures = (
  connect: (settings: RconSettings) => Effect.Effect<RconClient, RconConnectError, Scope.Scope>,
  telemetry: TelemetryShape,
  serverId: string
) => {
  const told = (error: RconError) => Effect.sync(() => telemetry.failed("rcon", serverId, rconFailureKind(error)))
  return (settings: RconSettings): Effect.Effect<RconClient, RconConnectError, Scope.Scope> =>
    connect(settings).pipe(
      Effect.tapError(told),
      Effect.map((client): RconClient => ({ ...client, command: (text, options) => Effect.tapError(client.command(text, options), told) }))
    )
}
