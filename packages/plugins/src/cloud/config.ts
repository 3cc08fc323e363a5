/**
 * The cloud link's settings: the relay it connects to (`CLOUD_RELAY_URL`, a
 * `ws://` or `wss://` URL; unset: the link cannot be enabled), and the
 * reconnection backoff (`CLOUD_RECONNECT_BASE`, doubled per failed attempt
 * up to `CLOUD_RECONNECT_MAX`, each delay drawn between half and all of
 * it). The relay is a setting, not a request field: an admin's request
 * cannot point the controller at another host.
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"

export const DEFAULT_RECONNECT_BASE = Duration.seconds(1)
export const DEFAULT_RECONNECT_MAX = Duration.minutes(5)
/** Longest wait for the relay to accept the WebSocket. */
export const OPEN_TIMEOUT = Duration.seconds(10)
/** Longest message taken from the relay; longer ones are refused unread. */
export const MAX_INBOUND_BYTES = 64 * 1024

export interface CloudSettings {
  readonly relayUrl: Option.Option<string>
  readonly reconnectBase: Duration.Duration
  readonly reconnectMax: Duration.Duration
}

const wsUrl = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "ws:" || url.protocol === "wss:") && url.hash === ""
  } catch {
    return false
  }
}

export const cloudSettings: Config.Config<CloudSettings> = Config.all({
  relayUrl: Config.option(
    Config.string("CLOUD_RELAY_URL").pipe(
      Config.map((text) => text.trim()),
      Config.validate({ message: "CLOUD_RELAY_URL must be a ws:// or wss:// URL", validation: (text) => text === "" || wsUrl(text) })
    )
  ).pipe(Config.map(Option.filter((text) => text !== ""))),
  reconnectBase: Config.duration("CLOUD_RECONNECT_BASE").pipe(
    Config.withDefault(DEFAULT_RECONNECT_BASE),
    Config.validate({ message: "CLOUD_RECONNECT_BASE must be at least 100 ms", validation: (d) => Duration.toMillis(d) >= 100 })
  ),
  reconnectMax: Config.duration("CLOUD_RECONNECT_MAX").pipe(
    Config.withDefault(DEFAULT_RECONNECT_MAX),
    Config.validate({ message: "CLOUD_RECONNECT_MAX must be at least 1 second", validation: (d) => Duration.toMillis(d) >= 1000 })
  )
})

/** The URL as shown: without user name, password or query (a token some relays take there). */
export const displayRelay = (text: string): string => {
  try {
    const url = new URL(text)
    url.username = ""
    url.password = ""
    url.search = ""
    return url.toString()
  } catch {
    return text
  }
}
