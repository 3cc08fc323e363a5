/**
 * Server messages BattlEye pushes over RCon, parsed into typed events:
 *
 * - `RCon admin #0 (1.2.3.4:5678) logged in`
 * - `Player #0 Name (1.2.3.4:2304) connected`
 * - `Player #0 Name - GUID: <32 hex> (unverified)` (also `BE GUID:`)
 * - `Verified GUID (<32 hex>) of player #0 Name`
 * - `Player #4 Name disconnected`
 * - `Player #2 Name (<guid>) has been kicked by BattlEye: <reason>`
 * - chat: `(Global) Name: text`, also `(Side)`, `(Direct)`, `(Vehicle)`,
 *   `(Group)`, `(Command)`, `(Lobby)`
 * - what an RCon admin said: `RCon admin #0: (Global) text`
 *
 * Anything else becomes `RconOtherMessage`, so nothing is lost.
 */
import * as Schema from "effect/Schema"

export class RconAdminLoggedIn extends Schema.TaggedClass<RconAdminLoggedIn>()("RconAdminLoggedIn", {
  admin: Schema.Int,
  ip: Schema.String,
  port: Schema.Int
}) {}

export class RconPlayerConnected extends Schema.TaggedClass<RconPlayerConnected>()("RconPlayerConnected", {
  slot: Schema.Int,
  name: Schema.String,
  ip: Schema.String,
  port: Schema.Int
}) {}

/** BattlEye learned the player's GUID but has not verified it yet. */
export class RconPlayerGuid extends Schema.TaggedClass<RconPlayerGuid>()("RconPlayerGuid", {
  slot: Schema.Int,
  name: Schema.String,
  guid: Schema.String
}) {}

export class RconPlayerGuidVerified extends Schema.TaggedClass<RconPlayerGuidVerified>()("RconPlayerGuidVerified", {
  slot: Schema.Int,
  name: Schema.String,
  guid: Schema.String
}) {}

export class RconPlayerDisconnected extends Schema.TaggedClass<RconPlayerDisconnected>()("RconPlayerDisconnected", {
  slot: Schema.Int,
  name: Schema.String
}) {}

export class RconPlayerKicked extends Schema.TaggedClass<RconPlayerKicked>()("RconPlayerKicked", {
  slot: Schema.Int,
  name: Schema.String,
  /** Empty when the message carried none. */
  guid: Schema.String,
  reason: Schema.String
}) {}

export const ChatChannel = Schema.Literal("Global", "Side", "Direct", "Vehicle", "Group", "Command", "Lobby")
export type ChatChannel = typeof ChatChannel.Type

export class RconChat extends Schema.TaggedClass<RconChat>()("RconChat", {
  channel: ChatChannel,
  name: Schema.String,
  text: Schema.String
}) {}

/** What an RCon admin said with `say` (`channel` is `Global`, `Private`, ...). */
export class RconAdminSaid extends Schema.TaggedClass<RconAdminSaid>()("RconAdminSaid", {
  admin: Schema.Int,
  channel: Schema.String,
  text: Schema.String
}) {}

export class RconOtherMessage extends Schema.TaggedClass<RconOtherMessage>()("RconOtherMessage", {
  text: Schema.String
}) {}

export const RconServerEvent = Schema.Union(
  RconAdminLoggedIn,
  RconPlayerConnected,
  RconPlayerGuid,
  RconPlayerGuidVerified,
  RconPlayerDisconnected,
  RconPlayerKicked,
  RconChat,
  RconAdminSaid,
  RconOtherMessage
)
export type RconServerEvent = typeof RconServerEvent.Type

const ADMIN_LOGGED_IN = /^RCon admin #(\d+) \((.+):(\d+)\) logged in$/
const ADMIN_SAID = /^RCon admin #(\d+): \(([^)]+)\) ([\s\S]*)$/
const KICKED = /^Player #(\d+) (.*) \(([^()]*)\) has been kicked by BattlEye: ([\s\S]*)$/
const CONNECTED = /^Player #(\d+) (.*) \(([^\s()]+):(\d+)\) connected$/
const GUID = /^Player #(\d+) (.*) - (?:BE )?GUID: ([0-9a-fA-F]{32}) \(unverified\)$/
const VERIFIED = /^Verified GUID \(([0-9a-fA-F]{32})\) of player #(\d+) (.*)$/
const DISCONNECTED = /^Player #(\d+) (.*) disconnected$/
const CHAT = /^\((Global|Side|Direct|Vehicle|Group|Command|Lobby)\) (.*?): ([\s\S]*)$/

/** Parses one server message; never fails (unknown lines become `RconOtherMessage`). */
export const parseServerMessage = (message: string): RconServerEvent => {
  const text = message.replace(/\r?\n$/, "")
  let m: RegExpExecArray | null
  if ((m = ADMIN_LOGGED_IN.exec(text)) !== null) {
    return new RconAdminLoggedIn({ admin: Number(m[1]), ip: m[2]!, port: Number(m[3]) })
  }
  if ((m = ADMIN_SAID.exec(text)) !== null) {
    return new RconAdminSaid({ admin: Number(m[1]), channel: m[2]!, text: m[3]! })
  }
  if ((m = KICKED.exec(text)) !== null) {
    const guid = /^[0-9a-fA-F]{32}$/.test(m[3]!) ? m[3]!.toLowerCase() : ""
    return new RconPlayerKicked({ slot: Number(m[1]), name: m[2]!, guid, reason: m[4]! })
  }
  if ((m = CONNECTED.exec(text)) !== null) {
    return new RconPlayerConnected({ slot: Number(m[1]), name: m[2]!, ip: m[3]!, port: Number(m[4]) })
  }
  if ((m = GUID.exec(text)) !== null) {
    return new RconPlayerGuid({ slot: Number(m[1]), name: m[2]!, guid: m[3]!.toLowerCase() })
  }
  if ((m = VERIFIED.exec(text)) !== null) {
    return new RconPlayerGuidVerified({ slot: Number(m[2]), name: m[3]!, guid: m[1]!.toLowerCase() })
  }
  if ((m = DISCONNECTED.exec(text)) !== null) {
    return new RconPlayerDisconnected({ slot: Number(m[1]), name: m[2]! })
  }
  if ((m = CHAT.exec(text)) !== null) {
    return new RconChat({ channel: m[1] as ChatChannel, name: m[2]!, text: m[3]! })
  }
  return new RconOtherMessage({ text })
}
