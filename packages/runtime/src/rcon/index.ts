/**
 * RCON clients: BattlEye RCon over UDP (DayZ) and Source RCON over TCP,
 * behind one `RconClient` interface.
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as BattlEyeClient from "./BattlEyeClient.js"
import type { RconClient, RconConnectError } from "./RconClient.js"
import * as SourceClient from "./SourceClient.js"

export * as BattlEyePacket from "./BattlEyePacket.js"
export * from "./RconClient.js"
export { BattlEyeClient, SourceClient }
export type { BattlEyeOptions } from "./BattlEyeClient.js"
export type { SourceOptions } from "./SourceClient.js"

export type RconOptions =
  | ({ readonly protocol: "battleye" } & BattlEyeClient.BattlEyeOptions)
  | ({ readonly protocol: "source" } & SourceClient.SourceOptions)

/** Connects with the protocol the server entry names. */
export const connectRcon = (options: RconOptions): Effect.Effect<RconClient, RconConnectError, Scope.Scope> =>
  options.protocol === "battleye" ? BattlEyeClient.connect(options) : SourceClient.connect(options)
