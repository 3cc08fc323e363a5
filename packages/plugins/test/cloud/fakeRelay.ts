/**
 * A cloud relay for tests: a `ws` WebSocketServer on a loopback port that
 * speaks the cloud plugin's protocol (README.md, "Protocol"): it answers a
 * `hello` with the right token with `welcome` (else closes 4001), keeps
 * every message it received, and can send actions, drop the connection,
 * stop listening and listen again on the same port.
 */
import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { type WebSocket, WebSocketServer } from "ws"

export interface RelayMessage {
  readonly type: string
  readonly [field: string]: unknown
}

export interface FakeRelay {
  readonly url: string
  /** The link token it accepts. */
  readonly token: string
  /** Every message the controller sent, in order. */
  readonly received: Array<RelayMessage>
  /** Connections accepted, and the close codes the controller's side ended them with (or the relay's drop's 1006). */
  readonly connections: () => number
  readonly closes: Array<number>
  /** Sends to the connection open now. */
  readonly send: (message: unknown) => void
  readonly sendRaw: (text: string) => void
  /** Ends the open connection abruptly (no close frame). */
  readonly drop: () => void
  /** Stops listening (connections are refused) / listens again on the same port. */
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
}

export const fakeRelay = (token: string) =>
  Effect.gen(function* () {
    const received: Array<RelayMessage> = []
    const closes: Array<number> = []
    let connections = 0
    let current: WebSocket | undefined
    let server: WebSocketServer | undefined
    let port = 0

    const listen = Effect.async<void>((resume) => {
      const made = new WebSocketServer({ host: "127.0.0.1", port }, () => {
        port = (made.address() as AddressInfo).port
        resume(Effect.void)
      })
      server = made
      made.on("connection", (socket) => {
        connections++
        current = socket
        socket.on("message", (data) => {
          const message = JSON.parse(String(data)) as RelayMessage
          received.push(message)
          if (message.type === "hello") {
            if (message["token"] === token) socket.send(JSON.stringify({ type: "welcome" }))
            else socket.close(4001, "bad token")
          }
        })
        socket.on("close", (code) => void closes.push(code))
      })
    })
    const close = Effect.async<void>((resume) => {
      const closing = server
      server = undefined
      if (closing === undefined) return resume(Effect.void)
      for (const client of closing.clients) client.terminate()
      closing.close(() => resume(Effect.void))
    })
    yield* Effect.acquireRelease(listen, () => close)

    return {
      url: `ws://127.0.0.1:${port}/link`,
      token,
      received,
      connections: () => connections,
      closes,
      send: (message) => current?.send(JSON.stringify(message)),
      sendRaw: (text) => current?.send(text),
      drop: () => current?.terminate(),
      stop: close,
      start: listen
    } satisfies FakeRelay
  })
