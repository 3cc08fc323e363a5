import { describe, expect, it } from "@effect/vitest"
import { Deadlines, MessageDeduplicator, type PendingRequest, RequestTable, WaitQueue } from "../../src/rcon/internal/requests.js"

const request = (command: string, deadline = 0): PendingRequest => ({
  command,
  resume: () => undefined,
  deadline,
  timeoutMs: 1000,
  seq: -1,
  done: false,
  parts: undefined,
  received: 0
})

describe("RequestTable", () => {
  it("hands out sequence numbers in order, wrapping at 256, skipping busy ones", () => {
    const table = new RequestTable()
    const seqs = Array.from({ length: 256 }, (_, i) => table.allocate(request(`c${i}`), 0))
    expect(seqs).toEqual(Array.from({ length: 256 }, (_, i) => i))
    expect(table.allocate(request("full"), 0)).toBeUndefined()
    expect(table.take(5)?.command).toBe("c5")
    expect(table.allocate(request("again"), 0)).toBe(5)
  })

  it("keeps a timed-out slot reserved until its tombstone expires or the late reply arrives", () => {
    const table = new RequestTable()
    const slow = request("slow")
    expect(table.allocate(slow, 0)).toBe(0)
    table.release(slow, 5000)
    expect(table.allocate(request("next"), 100)).toBe(1)
    // Wrapping around, slot 0 is skipped while reserved...
    for (let i = 2; i < 256; i++) table.allocate(request(`c${i}`), 100)
    for (let i = 1; i < 256; i++) table.take(i)
    expect(table.allocate(request("after wrap"), 100)).toBe(1)
    // ...and free again once the late reply came in.
    expect(table.take(0)).toBeUndefined()
    for (let i = 2; i < 256; i++) expect(table.allocate(request(`d${i}`), 100)).toBe(i)
    expect(table.allocate(request("zero"), 100)).toBe(0)
  })

  it("reassembles parts in any order, ignoring repeats", () => {
    const table = new RequestTable()
    const r = request("players")
    const seq = table.allocate(r, 0)!
    expect(table.addPart(seq, 3, 2, Buffer.from("c"))).toBeUndefined()
    expect(table.addPart(seq, 3, 0, Buffer.from("a"))).toBeUndefined()
    expect(table.addPart(seq, 3, 0, Buffer.from("X"))).toBeUndefined()
    const whole = table.addPart(seq, 3, 1, Buffer.from("b"))
    expect(whole?.request).toBe(r)
    expect(whole?.data.toString()).toBe("abc")
    expect(table.inFlight).toBe(0)
  })
})

describe("WaitQueue and Deadlines", () => {
  it("the queue is first in first out and skips finished requests", () => {
    const queue = new WaitQueue()
    const [a, b, c] = [request("a"), request("b"), request("c")]
    queue.push(a)
    queue.push(b)
    queue.push(c)
    b.done = true
    expect(queue.shift()).toBe(a)
    expect(queue.shift()).toBe(c)
    expect(queue.shift()).toBeUndefined()
    expect(queue.isEmpty).toBe(true)
  })

  it("deadlines in order and out of order both come due at the right time", () => {
    const deadlines = new Deadlines()
    const late = request("late", 5000)
    const later = request("later", 6000)
    const early = request("early", 1000) // a shorter custom time-out
    const finished = request("finished", 500)
    deadlines.push(late)
    deadlines.push(later)
    deadlines.push(early)
    deadlines.push(finished)
    finished.done = true
    expect(deadlines.peekDeadline()).toBe(1000)
    expect(deadlines.popDue(999)).toEqual([])
    expect(deadlines.popDue(1000)).toEqual([early])
    expect(deadlines.peekDeadline()).toBe(5000)
    expect(deadlines.popDue(10_000)).toEqual([late, later])
    expect(deadlines.peekDeadline()).toBeUndefined()
  })
})

describe("MessageDeduplicator", () => {
  it("drops a repeat of the same seq and text within the window, not a new text or a late reuse", () => {
    const dedup = new MessageDeduplicator(10_000)
    expect(dedup.isRepeat(0, "a", 0)).toBe(false)
    expect(dedup.isRepeat(0, "a", 2_000)).toBe(true)
    expect(dedup.isRepeat(0, "a", 10_000)).toBe(true)
    expect(dedup.isRepeat(0, "b", 10_500)).toBe(false) // the seq wrapped around with another message
    expect(dedup.isRepeat(0, "b", 30_000)).toBe(false) // same text, long after: a new message
  })
})
