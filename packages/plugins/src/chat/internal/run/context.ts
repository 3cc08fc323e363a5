/** What an action's runner is given: the call, the server it is about, and the services it may use. */
import type { WatchlistShape } from "../../../watchlist/index.js"
import type * as Effect from "effect/Effect"
import type { EventBus, Principal } from "@garrison/runtime"
import type { AdminActionsShape } from "../../../actions/index.js"
import type { BansShape } from "../../../bans/index.js"
import type { ServerConfigsShape } from "../../../config/index.js"
import type { ModsShape } from "../../../mods/index.js"
import type { PriorityQueueShape } from "../../../priority/index.js"
import type { ServerHandle, ServersShape } from "../../../servers/index.js"
import type { ChatActionRefused, InvalidChatInput } from "../../errors.js"
import type { ChatFeed } from "../chatFeed.js"
import type { Params } from "../params.js"

export interface ChatServices {
  readonly servers: ServersShape
  readonly actions: AdminActionsShape
  readonly mods: ModsShape
  readonly bans: BansShape
  readonly priority: PriorityQueueShape
  readonly configs: ServerConfigsShape
  readonly chatFeed: ChatFeed
  readonly bus: EventBus["Type"]
  /** Absent when the watchlist plugin is not loaded. */
  readonly watchlist: WatchlistShape | undefined
}

export interface ActionCall {
  readonly action: string
  readonly params: Params
  /** The chat user, as a principal with their role's grants. */
  readonly caller: Principal
  readonly clientIp: string | null
}

/** What the bot posts: `message` in words, and the action's data beside it. */
export type Answer = { readonly message: string } & Readonly<Record<string, unknown>>

/** An action about one server (every action but `servers`). */
export type ServerRunner = (
  call: ActionCall,
  server: ServerHandle,
  services: ChatServices
) => Effect.Effect<Answer, ChatActionRefused | InvalidChatInput>

/** `servers`: about every server the caller may see. */
export type FleetRunner = (call: ActionCall, services: ChatServices) => Effect.Effect<Answer, ChatActionRefused | InvalidChatInput>
