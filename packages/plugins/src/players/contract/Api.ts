/**
 * RCON and players: raw RCON, the global broadcast, the online list and
 * kicks. `:playerId` is the BattlEye player number (`0`, `12`), the player's
 * 32-hex BattlEye GUID, their Steam64 or DayZ ID, or the exact name
 * (case-insensitive), resolved against a fresh `players` reply. Each player
 * carries `steam64` and `dayzId` when the server's logs prove them (null
 * otherwise). The ban route comes with the bans plugin.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadGateway,
  BadRequest,
  BodyExample,
  Conflict,
  GatewayTimeout,
  NotFound,
  PageWithTotal,
  ServerFault,
  ServerNotFound,
  ServerUnreadable,
  Unavailable
} from "@garrison/runtime"
import { PlayerView, ServerPath } from "../../servers/index.js"

/** RCON commands and messages are one line: a newline would smuggle in a second command. */
const OneLine = (max: number) =>
  Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(max),
    Schema.filter((s) => !/[\r\n]/.test(s) || "must be a single line")
  )

export const RconBody = Schema.Struct({ command: OneLine(1000) })
export const RconReply = Schema.Struct({ response: Schema.String })

export const MAX_MESSAGE_LENGTH = 256
export const MessageBody = Schema.Struct({ message: OneLine(MAX_MESSAGE_LENGTH) })
export const MessageReply = Schema.Struct({ sent: Schema.String })

/** A live snapshot (one RCON `players`): all on one page, `nextCursor` null, `total` the players online. */
export const PlayerList = PageWithTotal(PlayerView).annotations({ identifier: "PlayerPage" })

export const KickPath = Schema.Struct({ id: ServerPath.fields.id, playerId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })
export const KickBody = Schema.Struct({ reason: Schema.optional(OneLine(200)) })
export const KickReply = Schema.Struct({ kicked: PlayerView, reason: Schema.String })

export class PlayersGroup extends HttpApiGroup.make("players").annotate(OpenApi.Description, "Online players and RCON: list, kick, message, raw commands.")
  .add(
    HttpApiEndpoint.post("rcon", "/api/servers/:id/rcon")
      .setPath(ServerPath)
      .setPayload(RconBody)
      .addSuccess(RconReply)
      .annotate(Access, Access.permission("server.rcon"))
      .annotate(OpenApi.Summary, "Send an RCON command")
      .annotate(OpenApi.Description, "One line, at most 1000 characters; answers the server's reply.")
      .annotate(BodyExample, { command: "players" })
  )
  .add(
    HttpApiEndpoint.post("message", "/api/servers/:id/message")
      .setPath(ServerPath)
      .setPayload(MessageBody)
      .addSuccess(MessageReply)
      .annotate(Access, Access.permission("chat.send"))
      .annotate(OpenApi.Summary, "Broadcast a message to every player")
      .annotate(OpenApi.Description, "Global broadcast (`say -1`); one line, at most 256 characters.")
      .annotate(BodyExample, { message: "Server restart in 5 minutes" })
  )
  .add(
    HttpApiEndpoint.get("players", "/api/servers/:id/players")
      .setPath(ServerPath)
      .addSuccess(PlayerList)
      .annotate(Access, Access.permission("players.view"))
      .annotate(OpenApi.Summary, "List online players")
      .annotate(OpenApi.Description, "A fresh `players` reply from the server's RCON.")
  )
  .add(
    HttpApiEndpoint.post("kick", "/api/servers/:id/players/:playerId/kick")
      .setPath(KickPath)
      .setPayload(KickBody)
      .addSuccess(KickReply)
      .annotate(Access, Access.permission("players.kick"))
      .annotate(OpenApi.Summary, "Kick a player")
      .annotate(OpenApi.Description, "playerId: BattlEye player number, GUID, Steam64, DayZ ID or exact name. 404 when not online.")
      .annotate(BodyExample, { reason: "AFK for 30 minutes" })
  )
  // 404: no such server (or player, for a kick); 409: the server is stopped; 503: its RCON session is not up or did not answer.
  .addError(BadRequest)
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable)
  .addError(ServerFault)
  // The agent answered badly (502) or its mod did not answer in time (504), for actions it serves.
  .addError(BadGateway)
  .addError(GatewayTimeout) {}

export class PlayersApi extends HttpApi.make("players").add(PlayersGroup) {}
