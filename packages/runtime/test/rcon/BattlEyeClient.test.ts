/**
 * The BattlEye client against a scripted UDP peer on loopback. Real
 * datagrams, virtual time: keep-alive, time-outs, silence and backoff are
 * driven with `TestClock`, never by sleeping.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Exit, Fiber, Stream, TestClock } from "effect"
import { BattlEyeClient, BattlEyePacket, type RconClient } from "../../src/rcon/index.js"
import { defaultOnCommand, io, isAck, isCommand, isLogin, makePeer, type Peer } from "./peer.js"

const HOST = "127.0.0.1"

const connect = (peer: Peer, options: Partial<BattlEyeClient.BattlEyeOptions> = {}) =>
  BattlEyeClient.connect({ host: HOST, port: peer.port, password: "secret", ...options })

/** Waits (in real time) until the client reaches `status`, with at least `reconnects`. */
const waitForState = (client: RconClient, status: string, reconnects = 0) =>
  client.stateChanges.pipe(
    Stream.filter((s) => s.status === status && s.reconnects >= reconnects),
    Stream.runHead
  )

describe("BattlEyeClient", () => {
  it.scoped("logs in and runs a command", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const client = yield* connect(peer)
      expect(peer.received[0]?.packet).toEqual({ _tag: "Login", password: "secret" })
      expect(yield* client.command("players")).toBe("echo:players")
      expect((yield* client.state).status).toBe("connected")
    })
  )

  it.scoped("a wrong password is refused", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer("right")
      const error = yield* Effect.flip(connect(peer, { password: "wrong" }))
      expect(error._tag).toBe("RconLoginRefused")
    })
  )

  it.scoped("no login reply at all fails after the login time-out, resending the login meanwhile", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      peer.silent = true
      const fiber = yield* Effect.fork(connect(peer, { loginTimeout: "3 seconds" }))
      yield* io(() => peer.next(isLogin))
      yield* TestClock.adjust("1 second")
      yield* io(() => peer.next(isLogin, 1))
      yield* TestClock.adjust("2 seconds")
      const exit = yield* Fiber.await(fiber)
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error._tag).toBe("RconUnreachable")
    })
  )

  it.scoped("sends the keep-alive after 15 s of quiet; the first one is the reference vector", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      yield* connect(peer)
      yield* TestClock.adjust("14 seconds")
      expect(peer.received.filter(isCommand())).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      const keepAlive = yield* io(() => peer.next(isCommand("")))
      expect(BattlEyePacket.toHex(keepAlive.raw)).toBe("42 45 be dc c2 58 ff 01 00")
      // And again 15 s later, never more often while idle.
      yield* TestClock.adjust("14 seconds")
      expect(peer.received.filter(isCommand())).toHaveLength(1)
      yield* TestClock.adjust("1 second")
      yield* io(() => peer.next(isCommand(""), peer.received.indexOf(keepAlive) + 1))
      expect(peer.received.filter(isCommand())).toHaveLength(2)
    })
  )

  it.scoped("reassembles a multi-part reply arriving out of order, with a repeated part", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const text = Array.from({ length: 100 }, (_, i) => `${i}   10.0.0.${i}:2304  50  ${"a".repeat(32)}(OK) Player${i}`).join("\n")
      peer.onCommand = (seq, command, reply) => {
        if (command !== "players") return defaultOnCommand(seq, command, reply)
        const parts = [...BattlEyePacket.commandReplyPackets(seq, text, 512)]
        expect(parts.length).toBeGreaterThan(5)
        reply([parts[2]!, ...parts.slice(3).reverse(), parts[2]!, parts[0]!, parts[1]!])
      }
      const client = yield* connect(peer)
      expect(yield* client.command("players")).toBe(text)
    })
  )

  it.scoped("1,000 concurrent commands, answered in shuffled order, none lost or mismatched", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      let outstanding = 0
      let maxOutstanding = 0
      let batch: Array<() => void> = []
      peer.onCommand = (seq, text, reply) => {
        outstanding++
        maxOutstanding = Math.max(maxOutstanding, outstanding)
        batch.push(() => {
          outstanding--
          reply([BattlEyePacket.commandReply(seq, `echo:${text}`)])
        })
        if (batch.length === 1) {
          setTimeout(() => {
            const due = batch
            batch = []
            // A fixed shuffle: reverse, then interleave halves.
            due.reverse()
            const half = Math.ceil(due.length / 2)
            for (let i = 0; i < half; i++) {
              due[i]!()
              due[i + half]?.()
            }
          }, 2)
        }
      }
      const client = yield* connect(peer, { maxInFlight: 100 })
      const results = yield* Effect.forEach(
        Array.from({ length: 1000 }, (_, i) => i),
        (i) => client.command(`say -1 message ${i}`),
        { concurrency: "unbounded" }
      )
      results.forEach((result, i) => expect(result).toBe(`echo:say -1 message ${i}`))
      expect(maxOutstanding).toBeLessThanOrEqual(100)
      expect(maxOutstanding).toBeGreaterThan(1)
    })
  )

  it.scoped("a command times out; its late reply is dropped and the next command is not confused by it", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      let heldSeq = -1
      peer.onCommand = (seq, text, reply) => {
        if (text === "slow") {
          heldSeq = seq
          return
        }
        defaultOnCommand(seq, text, reply)
      }
      const client = yield* connect(peer)
      const slow = yield* Effect.fork(client.command("slow", { timeout: "2 seconds" }))
      yield* io(() => peer.next(isCommand("slow")))
      yield* TestClock.adjust("2 seconds")
      const error = yield* Effect.flip(Fiber.join(slow))
      expect(error).toMatchObject({ _tag: "RconTimeout", command: "slow", timeoutMs: 2000 })
      // The late reply arrives now; the next command uses another sequence number and gets its own reply.
      peer.sendTo(peer.client(), BattlEyePacket.commandReply(heldSeq, "late reply"))
      expect(yield* client.command("next")).toBe("echo:next")
      const next = peer.received.find(isCommand("next"))
      expect(next?.packet?._tag === "Command" && next.packet.seq).not.toBe(heldSeq)
    })
  )

  it.scoped("a queued command whose time-out passes is withdrawn and never sent", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      let release: (() => void) | undefined
      peer.onCommand = (seq, text, reply) => {
        if (text === "first") release = () => reply([BattlEyePacket.commandReply(seq, "done")])
        else defaultOnCommand(seq, text, reply)
      }
      const client = yield* connect(peer, { maxInFlight: 1 })
      const first = yield* Effect.fork(client.command("first", { timeout: "10 seconds" }))
      yield* io(() => peer.next(isCommand("first")))
      // Only one command may be on the wire: "second" waits in the queue, and gives up there.
      const second = yield* Effect.fork(client.command("second", { timeout: "1 second" }))
      yield* TestClock.adjust("1 second")
      expect((yield* Effect.flip(Fiber.join(second)))._tag).toBe("RconTimeout")
      release!()
      expect(yield* Fiber.join(first)).toBe("done")
      expect(yield* client.command("third")).toBe("echo:third")
      expect(peer.received.filter(isCommand("second"))).toHaveLength(0)
    })
  )

  it.scoped("acknowledges server messages and delivers each once when the server repeats it", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const client = yield* connect(peer)
      const messages = yield* client.subscribe
      const to = peer.client()
      const first = "Player #0 Bravo17 (76.108.91.78:2304) connected"
      const second = "Player #0 Bravo17 disconnected"
      // The server repeats seq 0 three times (its acks "got lost"), then sends seq 1 twice, then seq 2.
      for (const [seq, text] of [[0, first], [0, first], [0, first], [1, second], [1, second], [2, "(Global) Bravo17: hi"]] as const) {
        peer.sendTo(to, BattlEyePacket.serverMessage(seq, text))
      }
      const got = yield* messages.pipe(Stream.take(3), Stream.runCollect)
      expect(Chunk.toReadonlyArray(got)).toEqual([first, second, "(Global) Bravo17: hi"])
      // Every copy was acknowledged with its own seq.
      yield* io(() => peer.next(isAck(2)))
      expect(peer.received.filter(isAck(0))).toHaveLength(3)
      expect(peer.received.filter(isAck(1))).toHaveLength(2)
      expect(BattlEyePacket.toHex(peer.received.find(isAck(0))!.raw)).toBe(BattlEyePacket.toHex(BattlEyePacket.ack(0)))
    })
  )

  it.scoped("after 30 s of silence it reconnects with a new socket; waiting commands fail, new ones wait", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const client = yield* connect(peer)
      const firstClient = peer.client()
      peer.silent = true
      const stranded = yield* Effect.fork(client.command("lost", { timeout: "60 seconds" }))
      yield* io(() => peer.next(isCommand("lost")))
      yield* TestClock.adjust("15 seconds") // keep-alive, unanswered
      yield* io(() => peer.next(isCommand("")))
      yield* TestClock.adjust("15 seconds") // 30 s of silence: the session is lost
      const error = yield* Effect.flip(Fiber.join(stranded))
      expect(error._tag).toBe("RconConnectionLost")
      const loginIndex = peer.received.length
      yield* io(() => peer.next(isLogin, loginIndex - 1))
      expect((yield* client.state).status).toBe("reconnecting")
      // A command issued now waits for the new session.
      const waiting = yield* Effect.fork(client.command("after"))
      // The server comes back; the next login attempt (after the backoff) succeeds.
      peer.silent = false
      yield* TestClock.adjust("1 second")
      yield* waitForState(client, "connected", 1)
      expect(yield* Fiber.join(waiting)).toBe("echo:after")
      expect(peer.client().port).not.toBe(firstClient.port)
    })
  )

  it.scoped("backs off between failed reconnect attempts, each with a new socket", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const client = yield* connect(peer, { loginTimeout: "1 second", keepAliveInterval: "10 seconds", silenceTimeout: "10 seconds" })
      peer.silent = true
      /** Login attempts = distinct source ports that sent a login. */
      const attempts = () => new Set(peer.received.filter(isLogin).map((r) => r.from.port)).size
      const attemptsReach = (n: number) => io(() => peer.next(() => attempts() >= n))
      yield* TestClock.adjust("10 seconds") // silence: attempt 2 starts at once
      yield* attemptsReach(2)
      yield* TestClock.adjust("1 second") // attempt 2 times out; backoff 500 ms
      yield* TestClock.adjust("499 millis")
      expect(attempts()).toBe(2)
      yield* TestClock.adjust("1 millis")
      yield* attemptsReach(3)
      yield* TestClock.adjust("1 second") // attempt 3 times out; backoff 1 s
      yield* TestClock.adjust("999 millis")
      expect(attempts()).toBe(3)
      yield* TestClock.adjust("1 millis")
      yield* attemptsReach(4)
      const state = yield* client.state
      expect(state.status).toBe("reconnecting")
      expect(state.lastError).toContain("no reply to the login")
    })
  )

  it.scoped("close fails waiting commands, ends the message stream and refuses new commands", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      peer.onCommand = () => undefined
      const client = yield* connect(peer)
      const stream = yield* Effect.fork(Stream.runCollect(client.messages))
      const waiting = yield* Effect.fork(client.command("never answered"))
      yield* io(() => peer.next(isCommand("never answered")))
      yield* client.close
      expect((yield* Effect.flip(Fiber.join(waiting)))._tag).toBe("RconClosed")
      expect((yield* Effect.flip(client.command("later")))._tag).toBe("RconClosed")
      yield* Fiber.join(stream)
      expect((yield* client.state).status).toBe("closed")
      yield* client.close // idempotent
    })
  )

  it.scoped("a reply to an unknown sequence number or a corrupt datagram is ignored", () =>
    Effect.gen(function* () {
      const peer = yield* makePeer()
      const client = yield* connect(peer)
      const corrupt = Buffer.from(BattlEyePacket.commandReply(0, "bad"))
      corrupt[2] = corrupt[2]! ^ 1
      peer.sendTo(peer.client(), corrupt)
      peer.sendTo(peer.client(), BattlEyePacket.commandReply(77, "stray"))
      const result = yield* Effect.either(client.command("fine"))
      expect(Either.getOrUndefined(result)).toBe("echo:fine")
    })
  )
})
