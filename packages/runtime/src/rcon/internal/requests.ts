/**
 * The BattlEye client's hot-path bookkeeping, as plain mutable structures:
 * which sequence byte belongs to which waiting command, multi-part
 * reassembly, commands queued for a free slot, their deadlines, and
 * de-duplication of repeated server messages. No Effect here: the client
 * resumes one waiting fiber per reply.
 */
import type * as Effect from "effect/Effect"
import type { RconCommandError } from "../RconClient.js"

export interface PendingRequest {
  readonly command: string
  /** Resumes the waiting fiber (`Effect.async`); a no-op for keep-alives nobody waits for. */
  readonly resume: (result: Effect.Effect<string, RconCommandError>) => void
  /** `Clock` milliseconds after which the command fails with a time-out. */
  readonly deadline: number
  readonly timeoutMs: number
  /** The sequence byte while on the wire, else -1. */
  seq: number
  /** Set once the request is resumed (reply, time-out, loss, close) or abandoned. */
  done: boolean
  /** Parts received so far, by index; set by the first part. */
  parts: Array<Buffer | undefined> | undefined
  received: number
}

/**
 * 256 sequence slots of one session. A slot is busy while its command is on
 * the wire; after a time-out it stays reserved ("tombstoned") for a while,
 * so a late reply to the old command is dropped instead of answering a new one.
 */
export class RequestTable {
  private readonly slots: Array<PendingRequest | undefined> = new Array<PendingRequest | undefined>(256).fill(undefined)
  private readonly reservedUntil = new Float64Array(256)
  private next = 0
  private busy = 0

  get inFlight(): number {
    return this.busy
  }

  /** Picks the next free sequence byte for the request; undefined only when all 256 are on the wire. */
  allocate(request: PendingRequest, now: number): number | undefined {
    if (this.busy >= 256) return undefined
    let fallback = -1
    for (let i = 0; i < 256; i++) {
      const seq = (this.next + i) & 0xff
      if (this.slots[seq] !== undefined) continue
      if (this.reservedUntil[seq]! <= now) return this.occupy(seq, request)
      if (fallback < 0 || this.reservedUntil[seq]! < this.reservedUntil[fallback]!) fallback = seq
    }
    // Every free slot is tombstoned: reuse the one whose tombstone ends first.
    return fallback < 0 ? undefined : this.occupy(fallback, request)
  }

  private occupy(seq: number, request: PendingRequest): number {
    this.slots[seq] = request
    this.reservedUntil[seq] = 0
    this.next = (seq + 1) & 0xff
    this.busy++
    request.seq = seq
    return seq
  }

  /** Removes and returns the request answered by a single-packet reply (undefined for a stray reply). */
  take(seq: number): PendingRequest | undefined {
    const request = this.slots[seq]
    if (request === undefined) {
      // Late reply to a timed-out command: its slot is free again.
      this.reservedUntil[seq] = 0
      return undefined
    }
    this.slots[seq] = undefined
    this.busy--
    request.seq = -1
    return request
  }

  /**
   * Records one part of a multi-part reply. When every index has arrived (in
   * any order, repeats ignored) returns the request and the whole reply.
   */
  addPart(
    seq: number,
    count: number,
    index: number,
    data: Buffer
  ): { readonly request: PendingRequest; readonly data: Buffer } | undefined {
    const request = this.slots[seq]
    if (request === undefined) return undefined
    if (request.parts === undefined || request.parts.length !== count) {
      request.parts = new Array<Buffer | undefined>(count).fill(undefined)
      request.received = 0
    }
    if (request.parts[index] !== undefined) return undefined
    request.parts[index] = data
    request.received++
    if (request.received < count) return undefined
    const whole = Buffer.concat(request.parts as Array<Buffer>)
    this.take(seq)
    return { request, data: whole }
  }

  /** Frees the request's slot (time-out or cancel); the slot stays reserved until `reserveUntil`. */
  release(request: PendingRequest, reserveUntil: number): void {
    const seq = request.seq
    if (seq < 0 || this.slots[seq] !== request) return
    this.slots[seq] = undefined
    this.busy--
    this.reservedUntil[seq] = reserveUntil
    request.seq = -1
  }

  /** Empties the table, returning the requests that were on the wire. */
  drain(): Array<PendingRequest> {
    const requests: Array<PendingRequest> = []
    for (let seq = 0; seq < 256; seq++) {
      const request = this.slots[seq]
      this.slots[seq] = undefined
      this.reservedUntil[seq] = 0
      if (request === undefined) continue
      request.seq = -1
      requests.push(request)
    }
    this.busy = 0
    return requests
  }
}

/** Commands waiting for a session or a free slot, first in first out; finished ones are skipped. */
export class WaitQueue {
  private items: Array<PendingRequest | undefined> = []
  private head = 0

  get isEmpty(): boolean {
    return this.head >= this.items.length
  }

  push(request: PendingRequest): void {
    this.items.push(request)
  }

  /** Puts a request back at the front (it could not be sent after all). */
  unshift(request: PendingRequest): void {
    if (this.head > 0) this.items[--this.head] = request
    else this.items.unshift(request)
  }

  /** The next request still waiting, or undefined. */
  shift(): PendingRequest | undefined {
    while (this.head < this.items.length) {
      const request = this.items[this.head]
      this.items[this.head++] = undefined
      if (request !== undefined && !request.done) {
        this.compact()
        return request
      }
    }
    this.items = []
    this.head = 0
    return undefined
  }

  drain(): Array<PendingRequest> {
    const rest = this.items.slice(this.head).filter((r): r is PendingRequest => r !== undefined && !r.done)
    this.items = []
    this.head = 0
    return rest
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
  }
}

/**
 * Requests by deadline. Most commands share one time-out, so their
 * deadlines arrive in order: those go to a FIFO (O(1)); any that would
 * break the order (a shorter custom time-out) go to a heap. Finished
 * requests are dropped lazily.
 */
export class Deadlines {
  private fifo: Array<PendingRequest | undefined> = []
  private head = 0
  private readonly heap = new DeadlineHeap()

  push(request: PendingRequest): void {
    const tail = this.fifo.length > this.head ? this.fifo[this.fifo.length - 1] : undefined
    if (tail === undefined || tail.deadline <= request.deadline) this.fifo.push(request)
    else this.heap.push(request)
  }

  private fifoHead(): PendingRequest | undefined {
    while (this.head < this.fifo.length && this.fifo[this.head]!.done) this.fifo[this.head++] = undefined
    if (this.head >= this.fifo.length) {
      this.fifo = []
      this.head = 0
      return undefined
    }
    if (this.head > 4096 && this.head * 2 > this.fifo.length) {
      this.fifo = this.fifo.slice(this.head)
      this.head = 0
    }
    return this.fifo[this.head]
  }

  /** The earliest deadline of a request still waiting, or undefined. */
  peekDeadline(): number | undefined {
    const a = this.fifoHead()?.deadline
    const b = this.heap.peekDeadline()
    return a === undefined ? b : b === undefined ? a : Math.min(a, b)
  }

  /** Removes and returns every unfinished request whose deadline is at or before `now`. */
  popDue(now: number): Array<PendingRequest> {
    const due = this.heap.popDue(now)
    for (let head = this.fifoHead(); head !== undefined && head.deadline <= now; head = this.fifoHead()) {
      this.fifo[this.head++] = undefined
      due.push(head)
    }
    return due
  }

  clear(): void {
    this.fifo = []
    this.head = 0
    this.heap.clear()
  }
}

/** A binary min-heap of requests by deadline; finished requests are dropped lazily. */
export class DeadlineHeap {
  private readonly heap: Array<PendingRequest> = []

  get size(): number {
    return this.heap.length
  }

  push(request: PendingRequest): void {
    const heap = this.heap
    heap.push(request)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heap[parent]!.deadline <= request.deadline) break
      heap[i] = heap[parent]!
      i = parent
    }
    heap[i] = request
  }

  /** The earliest deadline of a request still waiting, or undefined. */
  peekDeadline(): number | undefined {
    while (this.heap.length > 0 && this.heap[0]!.done) this.pop()
    return this.heap[0]?.deadline
  }

  /** Removes and returns every unfinished request whose deadline is at or before `now`. */
  popDue(now: number): Array<PendingRequest> {
    const due: Array<PendingRequest> = []
    while (this.heap.length > 0 && (this.heap[0]!.done || this.heap[0]!.deadline <= now)) {
      const request = this.pop()!
      if (!request.done) due.push(request)
    }
    return due
  }

  clear(): void {
    this.heap.length = 0
  }

  private pop(): PendingRequest | undefined {
    const heap = this.heap
    const top = heap[0]
    const last = heap.pop()
    if (heap.length === 0 || last === undefined) return top
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= heap.length) break
      const right = left + 1
      const child = right < heap.length && heap[right]!.deadline < heap[left]!.deadline ? right : left
      if (heap[child]!.deadline >= last.deadline) break
      heap[i] = heap[child]!
      i = child
    }
    heap[i] = last
    return top
  }
}

/**
 * The server repeats a message (same seq, same text) until acknowledged,
 * up to 5 times within 10 s. A message is a repeat when the same seq carried
 * the same text within `windowMs` of its first delivery; a seq reused after
 * wrapping around carries a new text or comes later.
 */
export class MessageDeduplicator {
  private readonly texts: Array<string | undefined> = new Array<string | undefined>(256).fill(undefined)
  private readonly times = new Float64Array(256)

  constructor(private readonly windowMs: number) {}

  /** True when this message was already delivered; records it otherwise. */
  isRepeat(seq: number, text: string, now: number): boolean {
    if (this.texts[seq] === text && now - this.times[seq]! <= this.windowMs) return true
    this.texts[seq] = text
    this.times[seq] = now
    return false
  }
}
