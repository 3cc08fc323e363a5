/**
 * The last chat lines of each server, as RCON forwards them (`(Global)
 * Name: text`): what the bot's `chatFeed` answers. Kept in memory, the last
 * `CHAT_FEED_SIZE` per server (a restart starts it empty: the game's own
 * logs keep the history); a deleted server's lines are dropped.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { ChatMessage } from "@garrison/runtime"

export const CHAT_FEED_SIZE = 50

export interface ChatLine {
  /** ISO-8601, when the controller heard it. */
  readonly at: string
  readonly channel: string
  readonly playerName: string
  readonly text: string
}

export interface ChatFeed {
  readonly hear: (message: ChatMessage) => Effect.Effect<void>
  /** The newest `limit` lines, oldest first. */
  readonly recent: (serverId: string, limit: number) => ReadonlyArray<ChatLine>
  readonly forget: (serverId: string) => Effect.Effect<void>
}

export const makeChatFeed = (): ChatFeed => {
  const lines = new Map<string, Array<ChatLine>>()
  return {
    hear: (message) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const kept = lines.get(message.serverId) ?? []
        kept.push({ at: new Date(now).toISOString(), channel: message.channel, playerName: message.playerName, text: message.text })
        if (kept.length > CHAT_FEED_SIZE) kept.splice(0, kept.length - CHAT_FEED_SIZE)
        lines.set(message.serverId, kept)
      }),
    recent: (serverId, limit) => (lines.get(serverId) ?? []).slice(-limit),
    forget: (serverId) => Effect.sync(() => void lines.delete(serverId))
  }
}
