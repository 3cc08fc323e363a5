/**
 * BattlEye RCon client over UDP (`node:dgram`), the protocol DayZ speaks.
 *
 * - Login with the password; a refusal fails `connect` with
 *   `RconLoginRefused`, no answer with `RconUnreachable`.
 * - Commands run concurrently, each under its own sequence byte (at most
 *   `maxInFlight` on the wire; more wait their turn), and are matched to
 *   their replies by that byte; multi-part replies are reassembled in any
 *   order. Each command has a time-out; a timed-out sequence byte is not
 *   reused for a while, so its late reply cannot answer another command.
 * - Server messages are acknowledged at once, de-duplicated (the server
 *   repeats unacknowledged ones) and published on `messages`.
 * - When nothing has been sent for `keepAliveInterval` an empty command
 *   keeps the session alive (the server drops clients silent for 45 s).
 * - After `silenceTimeout` without a packet from the server, or a socket
 *   error, the session is lost: commands on the wire fail with
 *   `RconConnectionLost`, and a new socket logs in again on the `reconnect`
 *   schedule; commands issued meanwhile wait for it (within their time-out).
 *
 * Time comes from `Clock` (keep-alive, silence, time-outs, backoff), so tests
 * drive it with `TestClock`. Datagrams and the request bookkeeping are plain
 * functions and structures; Effect is entered once per command (one
 * `Effect.async` resumed by the reply), and two background fibers handle
 * time (time-outs; keep-alive, silence and reconnects).
 */
import * as Dgram from "node:dgram"
import { isIPv6 } from "node:net"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as BattlEyePacket from "./BattlEyePacket.js"
import { Deadlines, MessageDeduplicator, type PendingRequest, RequestTable, WaitQueue } from "./internal/requests.js"
import {
  type CommandOptions,
  RconClosed,
  type RconClient,
  type RconCommandError,
  type RconConnectError,
  RconConnectionLost,
  type RconConnectionState,
  RconLoginRefused,
  RconTimeout,
  RconUnreachable
} from "./RconClient.js"

export interface BattlEyeOptions {
  readonly host: string
  readonly port: number
  readonly password: string
  /** Per-command time-out, from the call to the whole reply. Default 5 s. */
  readonly commandTimeout?: Duration.DurationInput
  /** How long to wait for the login reply (the login is resent every second). Default 5 s. */
  readonly loginTimeout?: Duration.DurationInput
  /**
   * Send an empty command when nothing was sent for this long. Default 15 s;
   * keep it at most 30 s (the server drops clients silent for 45 s) and well
   * under `silenceTimeout`.
   */
  readonly keepAliveInterval?: Duration.DurationInput
  /** No packet from the server for this long means the session is lost. Default 30 s. */
  readonly silenceTimeout?: Duration.DurationInput
  /** Delays between reconnect attempts. Default: exponential from 500 ms, doubling, capped at 30 s, forever. */
  readonly reconnect?: Schedule.Schedule<unknown, RconConnectError>
  /** Commands on the wire at once (1 to 255). Default 128. */
  readonly maxInFlight?: number
  /** A server message repeated with the same seq and text within this window is dropped. Default 15 s. */
  readonly duplicateWindow?: Duration.DurationInput
  /** Messages kept for a slow subscriber before its oldest are dropped. Default 4096. */
  readonly messageBuffer?: number
}

export const defaultReconnectSchedule: Schedule.Schedule<unknown, RconConnectError> = Schedule.exponential(
  "500 millis",
  2
).pipe(Schedule.union(Schedule.spaced("30 seconds")))

interface Session {
  readonly socket: Dgram.Socket
  readonly requests: RequestTable
  readonly dedup: MessageDeduplicator
  lastSent: number
  lastReceived: number
  onLogin: ((accepted: boolean) => void) | undefined
  closed: boolean
}

/** How long a socket error waits before it ends the session, so replies already received are not lost with it. */
const SOCKET_ERROR_GRACE_MS = 50

const closeSocket = (socket: Dgram.Socket): void => {
  try {
    socket.close()
  } catch {
    // Already closed.
  }
}

const millis = (input: Duration.DurationInput | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.decode(input))

/** Connects and logs in; the client closes with the scope (or earlier with `close`). */
export const connect = (options: BattlEyeOptions): Effect.Effect<RconClient, RconConnectError, Scope.Scope> =>
  Effect.gen(function* () {
    const { host, port, password } = options
    const commandTimeoutMs = millis(options.commandTimeout, 5_000)
    const loginTimeoutMs = millis(options.loginTimeout, 5_000)
    const keepAliveMs = Math.max(1, millis(options.keepAliveInterval, 15_000))
    const silenceMs = Math.max(1, millis(options.silenceTimeout, 30_000))
    const duplicateWindowMs = millis(options.duplicateWindow, 15_000)
    const maxInFlight = Math.min(255, Math.max(1, Math.floor(options.maxInFlight ?? 128)))
    const reconnectSchedule = options.reconnect ?? defaultReconnectSchedule

    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    const messages = yield* PubSub.sliding<string>(options.messageBuffer ?? 4096)
    /** Reasons a session was lost, raised by socket callbacks, consumed by the watchdog. */
    const lost = yield* Queue.unbounded<string>()
    const state = yield* SubscriptionRef.make<RconConnectionState>({
      status: "reconnecting",
      since: now(),
      reconnects: 0,
      lastError: undefined
    })

    let session: Session | undefined
    let closed = false
    const waiting = new WaitQueue()
    const deadlines = new Deadlines()
    /** The deadline the reaper sleeps until, and how to wake it earlier. */
    let reaperTarget = Number.POSITIVE_INFINITY
    let wakeReaper = Deferred.unsafeMake<void>(FiberId.none)
    const fibers: Array<Fiber.RuntimeFiber<void>> = []

    const setState = (patch: Partial<RconConnectionState>) =>
      SubscriptionRef.update(state, (current) => ({
        ...current,
        ...patch,
        since: patch.status !== undefined && patch.status !== current.status ? now() : current.since
      }))

    const send = (s: Session, packet: Buffer): void => {
      s.lastSent = now()
      s.socket.send(packet)
    }

    const finish = (request: PendingRequest, exit: Exit.Exit<string, RconCommandError>): void => {
      if (request.done) return
      request.done = true
      request.resume(exit)
    }

    /** Puts waiting commands on the wire while the session has room. */
    const pump = (): void => {
      const s = session
      if (s === undefined || s.closed) return
      while (s.requests.inFlight < maxInFlight) {
        const request = waiting.shift()
        if (request === undefined) return
        const seq = s.requests.allocate(request, now())
        if (seq === undefined) {
          waiting.unshift(request)
          return
        }
        send(s, BattlEyePacket.command(seq, request.command))
      }
    }

    const answered = (request: PendingRequest | undefined, data: Buffer): void => {
      if (request === undefined) return
      finish(request, Exit.succeed(data.toString("utf8")))
      pump()
    }

    /** Time-out or cancel: frees the slot (reserved against a late reply) and lets the next command go. */
    const abandon = (request: PendingRequest, error: RconCommandError | undefined): void => {
      const s = session
      if (request.seq >= 0 && s !== undefined) s.requests.release(request, now() + request.timeoutMs)
      if (error !== undefined) finish(request, Exit.fail(error))
      else request.done = true
      pump()
    }

    const onDatagram = (s: Session, datagram: Buffer): void => {
      if (s.closed) return
      // Fast path: a single-packet command reply (the common case) without building a packet object.
      if (
        datagram.length >= 9 &&
        datagram[7] === BattlEyePacket.TYPE_COMMAND &&
        (datagram.length < 12 || datagram[9] !== 0x00) &&
        BattlEyePacket.packetType(datagram) === BattlEyePacket.TYPE_COMMAND
      ) {
        s.lastReceived = now()
        answered(s.requests.take(datagram[8]!), datagram.subarray(9))
        return
      }
      const packet = BattlEyePacket.decodeServerPacket(datagram)
      if (packet === undefined) return
      s.lastReceived = now()
      switch (packet._tag) {
        case "CommandReply":
          answered(s.requests.take(packet.seq), packet.data)
          return
        case "CommandPart": {
          const whole = s.requests.addPart(packet.seq, packet.count, packet.index, packet.data)
          if (whole !== undefined) answered(whole.request, whole.data)
          return
        }
        case "ServerMessage": {
          // Acknowledge every copy: a lost ack is why the server repeats.
          s.socket.send(BattlEyePacket.ack(packet.seq))
          const text = packet.data.toString("utf8")
          if (!s.dedup.isRepeat(packet.seq, text, now())) messages.unsafeOffer(text)
          return
        }
        case "LoginReply":
          s.onLogin?.(packet.accepted)
          return
      }
    }

    const unreachable = (message: string) => new RconUnreachable({ host, port, message })

    const openSocket = Effect.async<Dgram.Socket, RconUnreachable>((resume) => {
      const socket = Dgram.createSocket(isIPv6(host) ? "udp6" : "udp4")
      const onError = (error: Error) => {
        closeSocket(socket)
        resume(Effect.fail(unreachable(error.message)))
      }
      socket.once("error", onError)
      socket.connect(port, host, () => {
        socket.off("error", onError)
        resume(Effect.succeed(socket))
      })
      return Effect.sync(() => closeSocket(socket))
    })

    /** A fresh socket, logged in; closed again if the login fails. */
    const openSession: Effect.Effect<Session, RconConnectError> = Effect.gen(function* () {
      const socket = yield* openSocket
      const s: Session = {
        socket,
        requests: new RequestTable(),
        dedup: new MessageDeduplicator(duplicateWindowMs),
        lastSent: now(),
        lastReceived: now(),
        onLogin: undefined,
        closed: false
      }
      socket.on("message", (datagram) => onDatagram(s, datagram))
      socket.on("error", (error) => {
        // Linux reports a pending ICMP error (ECONNREFUSED once the server closed) before datagrams
        // already queued on the socket, such as the reply to `#shutdown`: let those be read first.
        setTimeout(() => {
          if (!s.closed && s === session) lost.unsafeOffer(`socket error: ${error.message}`)
        }, SOCKET_ERROR_GRACE_MS).unref()
      })
      const reply = yield* Deferred.make<boolean>()
      s.onLogin = (accepted) => Deferred.unsafeDone(reply, Exit.succeed(accepted))
      // UDP may drop the login: resend it every second until answered.
      const resendLogin = Effect.sync(() => send(s, BattlEyePacket.login(password))).pipe(
        Effect.repeat(Schedule.spaced("1 second")),
        Effect.zipRight(Effect.never)
      )
      const accepted = yield* Effect.race(Deferred.await(reply), resendLogin).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(loginTimeoutMs),
          onTimeout: () =>
            unreachable(`no reply to the login within ${loginTimeoutMs} ms (server down, wrong port, or RCon disabled)`)
        }),
        Effect.onError(() =>
          Effect.sync(() => {
            s.closed = true
            closeSocket(socket)
          })
        )
      )
      s.onLogin = undefined
      if (!accepted) {
        s.closed = true
        closeSocket(socket)
        return yield* new RconLoginRefused({ host, port, message: "the server refused the RCon password" })
      }
      s.lastReceived = now()
      return s
    })

    /** Ends a session: its commands on the wire fail with `error`; waiting ones stay queued. */
    const endSession = (s: Session, error: (command: string) => RconCommandError) => {
      s.closed = true
      closeSocket(s.socket)
      for (const request of s.requests.drain()) finish(request, Exit.fail(error(request.command)))
    }

    const shutdown = Effect.gen(function* () {
      if (closed) return
      closed = true
      const s = session
      session = undefined
      if (s !== undefined) endSession(s, (command) => new RconClosed({ command }))
      for (const request of waiting.drain()) finish(request, Exit.fail(new RconClosed({ command: request.command })))
      deadlines.clear()
      yield* PubSub.shutdown(messages)
      yield* Queue.shutdown(lost)
      yield* setState({ status: "closed" })
    })

    const reconnect = (reason: string) =>
      Effect.gen(function* () {
        const old = session
        session = undefined
        if (old !== undefined) endSession(old, (command) => new RconConnectionLost({ command, message: reason }))
        yield* setState({ status: "reconnecting", lastError: reason })
        const attempt = openSession.pipe(
          Effect.tapError((error) => setState({ lastError: `${reason}; reconnect failed: ${error.message}` }))
        )
        const fresh = yield* Effect.retry(attempt, reconnectSchedule).pipe(Effect.option)
        if (Option.isNone(fresh)) return yield* shutdown
        session = fresh.value
        yield* Queue.takeAll(lost)
        yield* SubscriptionRef.update(state, (current) => ({
          ...current,
          status: "connected" as const,
          since: now(),
          reconnects: current.reconnects + 1
        }))
        pump()
      })

    /** Keep-alive, silence detection and reconnects. */
    const watchdog: Effect.Effect<void> = Effect.gen(function* () {
      while (!closed) {
        const s = session
        if (s === undefined) return
        const t = now()
        if (t - s.lastReceived >= silenceMs) {
          yield* reconnect(`no packet from the server for ${Math.round((t - s.lastReceived) / 1000)} s`)
          continue
        }
        if (t - s.lastSent >= keepAliveMs) {
          // An empty command; nobody waits for its reply, which only refreshes `lastReceived`.
          submit("", commandTimeoutMs, ignore)
          s.lastSent = t
        }
        const wait = Math.max(1, Math.min(s.lastReceived + silenceMs, s.lastSent + keepAliveMs) - now())
        const signal = yield* Queue.take(lost).pipe(Effect.timeoutOption(Duration.millis(wait)))
        if (Option.isSome(signal) && !closed) yield* reconnect(signal.value)
      }
    })

    /** Fails commands whose deadline passed; sleeps until the next deadline or until woken by an earlier one. */
    const reaper: Effect.Effect<void> = Effect.gen(function* () {
      while (!closed) {
        const t = now()
        for (const request of deadlines.popDue(t)) {
          abandon(request, new RconTimeout({ command: request.command, timeoutMs: request.timeoutMs }))
        }
        const next = deadlines.peekDeadline()
        reaperTarget = next ?? Number.POSITIVE_INFINITY
        wakeReaper = Deferred.unsafeMake<void>(FiberId.none)
        if (next === undefined) yield* Deferred.await(wakeReaper)
        else yield* Effect.raceFirst(Effect.sleep(Duration.millis(Math.max(1, next - t))), Deferred.await(wakeReaper))
      }
    })

    const ignore = (): void => undefined

    /** Queues a command (sent at once when there is room) and returns its pending record. */
    const submit = (
      text: string,
      timeoutMs: number,
      resume: (result: Effect.Effect<string, RconCommandError>) => void
    ): PendingRequest => {
      const request: PendingRequest = {
        command: text,
        resume,
        deadline: now() + timeoutMs,
        timeoutMs,
        seq: -1,
        done: false,
        parts: undefined,
        received: 0
      }
      deadlines.push(request)
      if (request.deadline < reaperTarget) {
        reaperTarget = request.deadline
        Deferred.unsafeDone(wakeReaper, Exit.void)
      }
      const s = session
      if (waiting.isEmpty && s !== undefined && !s.closed && s.requests.inFlight < maxInFlight) {
        // Room on the wire and nobody ahead: send at once.
        const seq = s.requests.allocate(request, now())
        if (seq !== undefined) {
          send(s, BattlEyePacket.command(seq, text))
          return request
        }
      }
      waiting.push(request)
      pump()
      return request
    }

    const command = (text: string, commandOptions?: CommandOptions): Effect.Effect<string, RconCommandError> =>
      Effect.async<string, RconCommandError>((resume) => {
        if (closed) {
          resume(Effect.fail(new RconClosed({ command: text })))
          return
        }
        const request = submit(text, millis(commandOptions?.timeout, commandTimeoutMs), resume)
        // Already on the wire: the server runs it whatever the caller does, so an interrupted caller
        // just stops listening; the slot frees itself on the reply or the deadline. (No canceler keeps
        // the hot path free of interruption bookkeeping.) Still queued: an interrupted caller withdraws it.
        if (request.seq >= 0) return
        return Effect.sync(() => abandon(request, undefined))
      })

    const close = Effect.gen(function* () {
      yield* Fiber.interruptAll(fibers)
      yield* shutdown
    })

    session = yield* openSession
    yield* setState({ status: "connected" })
    fibers.push(yield* Effect.forkDaemon(watchdog), yield* Effect.forkDaemon(reaper))
    yield* Effect.addFinalizer(() => close)

    const client: RconClient = {
      protocol: "battleye",
      command,
      messages: Stream.fromPubSub(messages),
      subscribe: Stream.fromPubSub(messages, { scoped: true }),
      state: SubscriptionRef.get(state),
      stateChanges: state.changes,
      close
    }
    return client
  })
