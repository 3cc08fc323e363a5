/**
 * The cloud link's protocol: JSON text messages over one WebSocket the
 * controller opens to the relay (README.md, "Protocol"). Each message is an
 * object with a `type`. Fields a side does not know are ignored, so either
 * side may add some.
 */
import * as Schema from "effect/Schema"

export const PROTOCOL_VERSION = 1

/** What the relay may ask of a connected server, and the permission each needs (the REST API's for the same act). */
export const REMOTE_ACTIONS = {
  start: "server.start",
  stop: "server.stop",
  restart: "server.restart",
  kick: "players.kick",
  message: "chat.send"
} as const
export type RemoteAction = keyof typeof REMOTE_ACTIONS

/** A mirrored server as the relay sees it. */
export const MirroredServer = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** stopped, starting, running, stopping, crashed, updating. */
  status: Schema.String,
  players: Schema.Number,
  map: Schema.NullOr(Schema.String),
  version: Schema.NullOr(Schema.String),
  locked: Schema.Boolean,
  uptimeSeconds: Schema.Number
})
export type MirroredServer = typeof MirroredServer.Type

/** Controller to relay. */
export type Outbound =
  /** First message on every connection: the link token proves who connects. */
  | { readonly type: "hello"; readonly protocol: number; readonly token: string; readonly controller: { readonly version: string } }
  /** Every mirrored server, after `welcome` and whenever the relay should forget what it had. */
  | { readonly type: "servers"; readonly servers: ReadonlyArray<MirroredServer> }
  /** A server mirrored from now on (connect, reconnect). */
  | { readonly type: "server.connected"; readonly server: MirroredServer }
  /** A mirrored server changed (started, stopped, crashed, restarted, locked, a player came or went). */
  | { readonly type: "server.status"; readonly server: MirroredServer }
  /** A server no longer mirrored (disconnect, reconnect, deleted). */
  | { readonly type: "server.disconnected"; readonly serverId: string }
  | { readonly type: "action.result"; readonly id: string; readonly ok: true; readonly result: Readonly<Record<string, unknown>> }
  | {
      readonly type: "action.result"
      readonly id: string
      readonly ok: false
      /** `forbidden` (the link's role lacks the permission), `not-connected`, `unknown-action`, `invalid`, `not-found`, `failed`. */
      readonly error: { readonly code: string; readonly message: string }
    }
  | { readonly type: "pong" }
  /** A message that could not be read (not JSON, too long, no known `type`). */
  | { readonly type: "error"; readonly message: string }

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

/** Relay to controller. */
export const Inbound = Schema.Union(
  /** The relay accepted the token: the link is connected. */
  Schema.Struct({ type: Schema.Literal("welcome") }),
  Schema.Struct({ type: Schema.Literal("ping") }),
  Schema.Struct({
    type: Schema.Literal("action"),
    id: Id,
    /** One of `REMOTE_ACTIONS`; anything else is refused (`unknown-action`). */
    action: Schema.String.pipe(Schema.maxLength(100)),
    serverId: Schema.String.pipe(Schema.maxLength(200)),
    params: Schema.optional(
      Schema.Struct({
        /** kick: the player (BattlEye number, GUID, Steam64, DayZ ID or exact name). */
        player: Schema.optional(Schema.String),
        /** kick: the reason shown to the player. */
        reason: Schema.optional(Schema.String),
        /** message: the broadcast. */
        message: Schema.optional(Schema.String)
      })
    )
  })
)
export type Inbound = typeof Inbound.Type
export type ActionRequest = Extract<Inbound, { readonly type: "action" }>
