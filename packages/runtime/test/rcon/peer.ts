/**
 * A scriptable BattlEye RCon server on a real loopback UDP socket, for the
 * client's unit tests. It records every datagram it receives and answers
 * logins and commands the way the test tells it to. Waiting helpers use real
 * timers as a guard, so a test never hangs even while `TestClock` is frozen.
 */
import * as Dgram from "node:dgram"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"
import { BattlEyePacket } from "../../src/rcon/index.js"

export interface Received {
  readonly raw: Buffer
  readonly packet: BattlEyePacket.ClientPacket | undefined
  readonly from: { readonly address: string; readonly port: number }
}

export type CommandHandler = (seq: number, text: string, reply: (packets: ReadonlyArray<Buffer>) => void) => void

export interface Peer {
  readonly port: number
  readonly received: Array<Received>
  /** Ignore everything (a dead or restarting server). */
  silent: boolean
  /** Answers commands; default: empty command -> empty reply, otherwise `echo:<text>`. */
  onCommand: CommandHandler
  /** Resolves with the next received datagram matching `predicate` (including ones already received after `fromIndex`). */
  readonly next: (predicate: (r: Received) => boolean, fromIndex?: number, timeoutMs?: number) => Promise<Received>
  readonly sendTo: (to: Received["from"], packet: Buffer) => void
  /** The client that logged in last. */
  readonly client: () => Received["from"]
}

export const defaultOnCommand: CommandHandler = (seq, text, reply) =>
  reply([BattlEyePacket.commandReply(seq, text === "" ? "" : `echo:${text}`)])

export const makePeer = (password = "secret"): Effect.Effect<Peer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ peer: Peer; socket: Dgram.Socket }>((resume) => {
      const socket = Dgram.createSocket("udp4")
      const received: Array<Received> = []
      const waiters = new Set<() => void>()
      let lastClient: Received["from"] | undefined
      const peer: Peer = {
        port: 0,
        received,
        silent: false,
        onCommand: defaultOnCommand,
        next: (predicate, fromIndex = 0, timeoutMs = 5_000) =>
          new Promise((resolve, reject) => {
            const check = () => {
              for (let i = fromIndex; i < received.length; i++) {
                if (predicate(received[i]!)) {
                  waiters.delete(check)
                  clearTimeout(timer)
                  resolve(received[i]!)
                  return
                }
              }
            }
            const timer = setTimeout(() => {
              waiters.delete(check)
              reject(new Error(`peer: no matching datagram within ${timeoutMs} ms (received ${received.length})`))
            }, timeoutMs)
            waiters.add(check)
            check()
          }),
        sendTo: (to, packet) => socket.send(packet, to.port, to.address),
        client: () => {
          if (lastClient === undefined) throw new Error("peer: no client logged in yet")
          return lastClient
        }
      }
      socket.on("message", (raw, rinfo) => {
        const from = { address: rinfo.address, port: rinfo.port }
        const packet = BattlEyePacket.decodeClientPacket(raw)
        received.push({ raw, packet, from })
        for (const waiter of [...waiters]) waiter()
        if (peer.silent || packet === undefined) return
        switch (packet._tag) {
          case "Login":
            if (packet.password === password) lastClient = from
            socket.send(BattlEyePacket.loginReply(packet.password === password), from.port, from.address)
            return
          case "Command":
            peer.onCommand(packet.seq, packet.text, (packets) => {
              for (const p of packets) socket.send(p, from.port, from.address)
            })
            return
          case "Ack":
            return
        }
      })
      socket.bind(0, "127.0.0.1", () => {
        ;(peer as { port: number }).port = (socket.address() as AddressInfo).port
        resume(Effect.succeed({ peer, socket }))
      })
    }),
    ({ socket }) => Effect.sync(() => socket.close())
  ).pipe(Effect.map(({ peer }) => peer))

/** Waits for a promise made by the peer (real I/O) from inside a test's Effect. */
export const io = <A>(promise: () => Promise<A>): Effect.Effect<A> => Effect.promise(promise)

export const isCommand = (text?: string) => (r: Received) =>
  r.packet?._tag === "Command" && (text === undefined || r.packet.text === text)

export const isLogin = (r: Received) => r.packet?._tag === "Login"

export const isAck = (seq?: number) => (r: Received) =>
  r.packet?._tag === "Ack" && (seq === undefined || r.packet.seq === seq)
