/**
 * `GET /api/servers/:id/console`: the ring of recent RCON server messages
 * fed by published `ConsoleLine` events, and the live server-sent-events
 * stream, read in-process from the response body.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConsoleLine, EventBus, ServerDeleted } from "@garrison/runtime"
import { Effect, Fiber, Stream, TestClock } from "effect"
import { makeConsoleBuffer } from "../../src/logs/index.js"
import { sleepingUntil } from "@garrison/testkit"
import { eventually, FakeServers, get, logsController, VIEWER } from "./support.js"

interface ConsoleBody {
  readonly items: ReadonlyArray<{ at: string; text: string }>
  readonly nextCursor: string | null
  readonly total: number
}

const publish = (serverId: string, text: string, at = 0) =>
  Effect.flatMap(EventBus, (bus) => bus.publish(new ConsoleLine({ serverId, at, text })))

const consoleOf = (query = "", serverId = "s1") =>
  Effect.map(get(`/api/servers/${serverId}/console${query}`), (reply) => {
    expect(reply.status).toBe(200)
    return reply.body as ConsoleBody
  })

/**
 * Opens the stream and collects its non-empty SSE lines (data or comment) until `until` says stop
 * or the stream ends; `seen` lets a test watch them arrive.
 */
const readEvents = (
  query: string,
  accept: string | undefined,
  until: (lines: ReadonlyArray<string>) => boolean,
  serverId = "s1",
  seen: Array<string> = []
) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.bearerToken(HttpClientRequest.get(`/api/servers/${serverId}/console${query}`), `test:${VIEWER}`)
    if (accept !== undefined) request = HttpClientRequest.setHeader(request, "accept", accept)
    const response = yield* HttpClient.execute(request)
    expect(response.status).toBe(200)
    expect(response.headers["content-type"]).toContain("text/event-stream")
    yield* response.stream.pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.filter((line) => line.length > 0),
      Stream.tap((line) => Effect.sync(() => void seen.push(line))),
      Stream.takeUntil(() => until(seen)),
      Stream.runDrain
    )
    return seen
  }).pipe(Effect.scoped)

/**
 * Waits until a stream's first heartbeat has arrived: the response subscribes to the bus before it
 * sends anything, so from then on every published line reaches it.
 */
const subscribed = (seen: ReadonlyArray<string>) =>
  eventually(
    Effect.sync(() => seen[0]),
    (first) => first === ": heartbeat"
  )

/** Waits until some fiber sleeps on the TestClock until `at` (ms), so an `adjust` past it wakes that fiber. */
const texts = (lines: ReadonlyArray<string>) =>
  lines.filter((l) => l.startsWith("data: ")).map((l) => (JSON.parse(l.slice(6)) as { text: string }).text)

describe("console", () => {
  it("a ring keeps the newest lines per server, oldest first", () => {
    const buffer = makeConsoleBuffer(3)
    Effect.runSync(
      Effect.forEach([1, 2, 3, 4, 5], (i) => buffer.push(new ConsoleLine({ serverId: "a", at: i, text: `a${i}` })), { discard: true })
    )
    Effect.runSync(buffer.push(new ConsoleLine({ serverId: "b", at: 9, text: "b1" })))
    expect(Effect.runSync(buffer.recent("a")).map((l) => l.text)).toEqual(["a3", "a4", "a5"])
    expect(Effect.runSync(buffer.recent("a", 2)).map((l) => l.text)).toEqual(["a4", "a5"])
    expect(Effect.runSync(buffer.recent("b")).map((l) => l.text)).toEqual(["b1"])
    expect(Effect.runSync(buffer.recent("c"))).toEqual([])
    // Numbered as they arrive (a1 is 1): pages of the newest lines before a number, down to the oldest kept.
    const page = (limit: number, before?: number) => {
      const { lines, ...rest } = Effect.runSync(buffer.page("a", limit, before))
      return { texts: lines.map((l) => l.text), ...rest }
    }
    expect(page(2)).toEqual({ texts: ["a4", "a5"], first: 4, more: true, kept: 3 })
    expect(page(2, 4)).toEqual({ texts: ["a3"], first: 3, more: false, kept: 3 })
    expect(page(2, 2)).toEqual({ texts: [], first: 3, more: false, kept: 3 })

    expect(Effect.runSync(buffer.forget("a"))).toBe(true)
    expect(Effect.runSync(buffer.forget("a"))).toBe(false)
    expect(Effect.runSync(buffer.recent("a"))).toEqual([])
    expect(Effect.runSync(buffer.recent("b")).map((l) => l.text)).toEqual(["b1"])
  })

  it.scoped("ServerDeleted frees that server's ring; other servers keep theirs", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.add("s2")
    return Effect.gen(function* () {
      yield* publish("s1", "one", 1000)
      yield* publish("s2", "two", 2000)
      yield* eventually(consoleOf("", "s2"), (b) => b.items.length === 1)
      yield* eventually(consoleOf(), (b) => b.items.length === 1)

      const bus = yield* EventBus
      yield* bus.publish(new ServerDeleted({ serverId: "s1", name: "Server s1" }))
      yield* eventually(consoleOf(), (b) => b.items.length === 0)
      expect((yield* consoleOf("", "s2")).items).toEqual([{ at: new Date(2000).toISOString(), text: "two" }])
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("ServerDeleted ends that server's open console streams; another server's stream stays open", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.add("s2")
    return Effect.gen(function* () {
      const bus = yield* EventBus
      const s2Seen: Array<string> = []
      const s2Reader = yield* Effect.fork(
        readEvents("?stream=1", undefined, (lines) => lines.some((l) => l.startsWith("data: ")), "s2", s2Seen)
      )
      const s1Seen: Array<string> = []
      const s1Reader = yield* Effect.fork(readEvents("?stream=1", undefined, () => false, "s1", s1Seen))
      yield* subscribed(s2Seen)
      yield* subscribed(s1Seen)

      yield* bus.publish(new ServerDeleted({ serverId: "s1", name: "Server s1" }))
      // The response body ends: the reader's stream completes without an error.
      const s1Lines = yield* Fiber.join(s1Reader)
      expect(s1Lines[0]).toBe(": heartbeat")
      expect(s1Lines.filter((l) => l.startsWith("data: "))).toEqual([])

      // s2's stream heard the same event and stays open: a line published now still reaches it.
      expect(s2Reader.unsafePoll()).toBeNull()
      yield* publish("s2", "still here")
      const s2Lines = yield* Fiber.join(s2Reader)
      expect(texts(s2Lines)).toEqual(["still here"])
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("recent RCON server messages come from published ConsoleLine events, per server, last 1000", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.add("s2")
    return Effect.gen(function* () {
      expect(yield* consoleOf()).toEqual({ items: [], nextCursor: null, total: 0 })
      yield* publish("s1", "Player #0 Survivor (127.0.0.1:2304) connected", 1000)
      yield* publish("s2", "elsewhere", 1500)
      yield* publish("s1", "(Global) Survivor: hello", 2000)
      const body = yield* eventually(consoleOf(), (b) => b.items.length === 2)
      expect(body.items).toEqual([
        { at: new Date(1000).toISOString(), text: "Player #0 Survivor (127.0.0.1:2304) connected" },
        { at: new Date(2000).toISOString(), text: "(Global) Survivor: hello" }
      ])
      expect((yield* consoleOf("?limit=1")).items.map((l) => l.text)).toEqual(["(Global) Survivor: hello"])

      // In batches: the bus drops the oldest events queued for a handler that is far behind.
      for (let i = 0; i < 1100; i++) {
        yield* publish("s1", `line ${i}`, 3000 + i)
        if (i % 100 === 99) yield* eventually(consoleOf("?limit=1"), (b) => b.items[0]?.text === `line ${i}`)
      }
      const full = yield* consoleOf()
      expect(full.items).toHaveLength(1000)
      expect(full.items[0]?.text).toBe("line 100")
      expect([full.nextCursor, full.total]).toEqual([null, 1000])

      // Paging back: each page the newest lines before the previous one, oldest first, until the ring's oldest.
      const newest = yield* consoleOf("?limit=400")
      expect([newest.items[0]?.text, newest.items[399]?.text, newest.total]).toEqual(["line 700", "line 1099", 1000])
      const older = yield* consoleOf(`?limit=400&cursor=${newest.nextCursor}`)
      expect([older.items[0]?.text, older.items[399]?.text]).toEqual(["line 300", "line 699"])
      const oldest = yield* consoleOf(`?limit=400&cursor=${older.nextCursor}`)
      expect([oldest.items.length, oldest.items[0]?.text, oldest.nextCursor]).toEqual([200, "line 100", null])
      expect((yield* get("/api/servers/s1/console?limit=1001")).status).toBe(400)
      expect((yield* get("/api/servers/s1/console?cursor=bm90LWEtY3Vyc29y")).status).toBe(400)
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("Accept: text/event-stream streams this server's lines live as server-sent events", () => {
    const servers = new FakeServers()
    servers.add("s1")
    return Effect.gen(function* () {
      const seen: Array<string> = []
      const reader = yield* Effect.fork(
        readEvents("", "text/event-stream", (lines) => lines.some((l) => l.startsWith("data: ")), "s1", seen)
      )
      yield* subscribed(seen)
      // Another server's line first: were it let through, it would be the first data line.
      yield* publish("s2", "not for s1")
      yield* publish("s1", "say -1 Restart in 5 minutes")
      yield* Fiber.join(reader)
      // `tick` sends the first heartbeat at once: the client knows the stream is open.
      expect(seen[0]).toBe(": heartbeat")
      const data = seen.filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)) as { text: string; at: string })
      expect(data).toEqual([{ at: new Date(0).toISOString(), text: "say -1 Restart in 5 minutes" }])
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("?stream=1 streams too, with a heartbeat comment every 15 s", () => {
    const servers = new FakeServers()
    servers.add("s1")
    return Effect.gen(function* () {
      const seen: Array<string> = []
      const reader = yield* Effect.fork(readEvents("?stream=1", undefined, (lines) => lines.length >= 3, "s1", seen))
      // The first heartbeat comes at once (the test clock stands at 0); the next is due at 15 s.
      yield* subscribed(seen)
      yield* sleepingUntil(15_000)
      yield* TestClock.adjust("14999 millis")
      // A line published now is a marker: it arrives with no heartbeat before it.
      yield* publish("s1", "marker", 14_999)
      yield* eventually(
        Effect.sync(() => seen.length),
        (n) => n >= 2
      )
      expect(seen).toEqual([": heartbeat", `data: ${JSON.stringify({ at: new Date(14_999).toISOString(), text: "marker" })}`])
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(reader)
      expect(seen).toEqual([
        ": heartbeat",
        `data: ${JSON.stringify({ at: new Date(14_999).toISOString(), text: "marker" })}`,
        ": heartbeat"
      ])
    }).pipe(Effect.provide(logsController(servers)))
  })
})
