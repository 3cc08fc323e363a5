/**
 * `ServerFileSync` on TestClock: the write at start, N changes in a burst
 * written once after the debounce, the wake-up at the next expiry with no
 * one acting, bytes already there not rewritten, a folder named twice
 * written once, a failing folder reported without stopping the others, and
 * the start hook writing every registered file (or refusing the start,
 * naming the file).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { eventually, sleepingUntil, sleepsOnTestClock } from "@garrison/testkit/core"
import { Context, Effect, Option, Queue, TestClock } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as GeneratedFile from "../../src/files/GeneratedFile.js"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { ServerFileSync } from "../../src/files/ServerFileSync.js"
import { BeforeServerStart, Hooks } from "../../src/kernel/Hooks.js"

const made: Array<string> = []
afterAll(() => {
  for (const dir of made) Fs.rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-filesync-"))
  made.push(dir)
  return dir
}

/** Real time passes (file I/O runs on promises) while the TestClock stands still: wait for what the files show. */
const until = (check: () => boolean) => Effect.asVoid(eventually(Effect.sync(check), (done) => done))

/** The writer has gone back to waiting at least `n` times: it has nothing more to write until something wakes it. */
const waitedAtLeast = (handle: GeneratedFile.GeneratedFileHandle, n: number) => Effect.asVoid(eventually(handle.waits, (waits) => waits >= n))

/** Local files that count the writes per folder. */
const countingFiles = () => {
  const writes = new Map<string, number>()
  const filesFor = (dir: string): ServerFiles.ServerFiles => {
    const files = ServerFiles.local(dir)
    return {
      ...files,
      write: (path, data, options) => Effect.tap(files.write(path, data, options), () => Effect.sync(() => void writes.set(dir, (writes.get(dir) ?? 0) + 1)))
    }
  }
  return { filesFor, writes: (dir: string) => writes.get(dir) ?? 0 }
}

const read = (dir: string, name = "gen.txt") => {
  const path = NodePath.join(dir, name)
  return Fs.existsSync(path) ? Fs.readFileSync(path, "utf8") : undefined
}

describe("ServerFileSync", () => {
  it.scoped("writes at start, then once per burst of changes after the debounce, and not again while nothing changed", () =>
    Effect.gen(function* () {
      const a = tempDir()
      const b = tempDir()
      const { filesFor, writes } = countingFiles()
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([a, b, a]), filesFor })
      let content = "v1"
      const signal = yield* Queue.unbounded<void>()
      const handle = yield* sync.register({
        path: "gen.txt",
        owner: "test",
        render: () => Effect.sync(() => GeneratedFile.whole(content)),
        changed: Queue.take(signal),
        debounce: "1 second"
      })
      yield* until(() => writes(a) === 1 && writes(b) === 1)
      expect([read(a), read(b)]).toEqual(["v1", "v1"])
      // Back to waiting after its first write: nothing more until something wakes it.
      yield* waitedAtLeast(handle, 1)
      // A folder named twice (two entries on one install) was written once.
      expect([writes(a), writes(b)]).toEqual([1, 1])

      content = "v2"
      yield* Queue.offerAll(signal, [undefined, undefined, undefined, undefined, undefined])
      yield* sleepingUntil(1000)
      // Still gathering: nothing written until the debounce has passed.
      expect(read(a)).toBe("v1")
      yield* TestClock.adjust("1 second")
      yield* until(() => writes(a) === 2 && writes(b) === 2)
      expect([read(a), read(b)]).toEqual(["v2", "v2"])
      yield* waitedAtLeast(handle, 2)
      expect([writes(a), writes(b)]).toEqual([2, 2])

      // The handle's own signal works the same way.
      content = "v3"
      yield* handle.changed
      yield* handle.changed
      yield* sleepingUntil(2000)
      yield* TestClock.adjust("1 second")
      yield* until(() => writes(a) === 3 && writes(b) === 3)
      expect([read(a), read(b)]).toEqual(["v3", "v3"])
      yield* waitedAtLeast(handle, 3)
      expect([writes(a), writes(b)]).toEqual([3, 3])

      // A sync with nothing new writes nothing.
      const report = yield* handle.syncAll
      expect(report).toMatchObject({ path: "gen.txt", folders: 2, written: 0, unchanged: 2, failed: [] })
      expect([writes(a), writes(b)]).toEqual([3, 3])
    })
  )

  it.scoped("wakes at the next expiry with no one acting", () =>
    Effect.gen(function* () {
      const start = Date.parse("2026-03-01T12:00:00.000Z")
      yield* TestClock.setTime(start)
      const expiry = start + 60 * 60 * 1000
      const dir = tempDir()
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([dir]) })
      yield* sync.register({
        path: "gen.txt",
        owner: "test",
        render: (now) => Effect.succeed(GeneratedFile.whole(now < expiry ? "a;b" : "b")),
        nextChange: (now) => Effect.succeed(now < expiry ? Option.some(expiry) : Option.none())
      })
      yield* until(() => read(dir) === "a;b")
      yield* sleepingUntil(expiry)
      yield* TestClock.adjust("59 minutes")
      // Still asleep until the expiry (a minute away): nothing was written meanwhile.
      expect(yield* sleepsOnTestClock).toContain(expiry)
      expect(read(dir)).toBe("a;b")
      yield* TestClock.adjust("1 minute")
      yield* until(() => read(dir) === "b")
    })
  )

  it.scoped("an explicit sync moves the expiry wake-up too (an entry added with an earlier expiry)", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(0)
      const dir = tempDir()
      let expiries: ReadonlyArray<number> = []
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([dir]) })
      const handle = yield* sync.register({
        path: "gen.txt",
        owner: "test",
        render: (now) => Effect.succeed(GeneratedFile.whole(expiries.filter((at) => at > now).join(";"))),
        nextChange: (now) => Effect.succeed(Option.fromNullable(expiries.filter((at) => at > now).sort((x, y) => x - y)[0]))
      })
      yield* until(() => read(dir) === "")
      expiries = [60_000]
      yield* handle.syncAll
      expect(read(dir)).toBe("60000")
      yield* sleepingUntil(60_000)
      yield* TestClock.adjust("1 minute")
      yield* until(() => read(dir) === "")
    })
  )

  it.scoped("a folder that cannot be written is reported and logged; the others are written regardless", () =>
    Effect.gen(function* () {
      const good = tempDir()
      const blocked = tempDir()
      Fs.mkdirSync(NodePath.join(blocked, "gen.txt"))
      const missing = NodePath.join(tempDir(), "gone")
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([blocked, missing, good]) })
      const handle = yield* sync.register({ path: "gen.txt", owner: "test", render: () => Effect.succeed(GeneratedFile.whole("x", 1)) })
      const report = yield* handle.syncAll
      expect(read(good)).toBe("x")
      expect(report.entries).toBe(1)
      expect(report.failed).toEqual([
        { installDir: blocked, message: "gen.txt is not a regular file" },
        { installDir: missing, message: "gen.txt cannot be reached: its server folder does not exist" }
      ])
    })
  )

  it.scoped("a merged file keeps the owner's bytes, and one that cannot be read is not replaced", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const outside = tempDir()
      Fs.writeFileSync(NodePath.join(dir, "gen.txt"), "owner line\n")
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([dir]) })
      const handle = yield* sync.register({
        path: "gen.txt",
        owner: "test",
        render: () =>
          Effect.succeed(GeneratedFile.merged((existing) => Buffer.concat([Buffer.from(existing).subarray(0, 11), Buffer.from("ours\n")])))
      })
      yield* until(() => read(dir) === "owner line\nours\n")
      Fs.rmSync(NodePath.join(dir, "gen.txt"))
      Fs.writeFileSync(NodePath.join(outside, "target"), "outside\n")
      Fs.symlinkSync(NodePath.join(outside, "target"), NodePath.join(dir, "gen.txt"))
      const report = yield* handle.syncAll
      expect(report.failed).toEqual([{ installDir: dir, message: "gen.txt is a symbolic link" }])
      expect(Fs.readFileSync(NodePath.join(outside, "target"), "utf8")).toBe("outside\n")
    })
  )

  it.scoped("before a start, every registered file is written into that folder; one that cannot be refuses the start, naming it", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const sync = yield* ServerFileSync.make({ folders: Effect.succeed([]) })
      yield* sync.register({ path: "one.txt", owner: "first", render: () => Effect.succeed(GeneratedFile.whole("1")) })
      yield* sync.register({ path: "two.txt", owner: "second", render: () => Effect.succeed(GeneratedFile.whole("2")) })
      const hooks = Hooks.make()
      hooks.register("servers", ServerFileSync.beforeServerStart, Context.make(ServerFileSync, sync) as Context.Context<never>)
      yield* hooks.run(BeforeServerStart, { serverId: "s", name: "s", installDir: dir })
      expect([read(dir, "one.txt"), read(dir, "two.txt")]).toEqual(["1", "2"])

      const other = tempDir()
      Fs.mkdirSync(NodePath.join(other, "two.txt"))
      const refused = yield* Effect.flip(hooks.run(BeforeServerStart, { serverId: "s", name: "s", installDir: other }))
      expect(refused.message).toContain("second: two.txt is not a regular file")
      // The other file was still written.
      expect(read(other, "one.txt")).toBe("1")
      const error = yield* Effect.flip(sync.writeFolder(other))
      expect(error).toMatchObject({ path: "two.txt", owner: "second", installDir: other })
    })
  )
})
