/**
 * The command flow on real files, with the wait on the `TestClock`: the
 * command file written atomically, the response matched by id and removed,
 * the time-out (504 message, the command withdrawn), a late response logged
 * and dropped, bad response files (not JSON, another id, a link, a pipe)
 * dropped without harm, stale files cleared at start, the mod folder
 * deleted and made again, the queue's bound, and a burst of commands
 * against a mod that takes 10 per poll.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, TestClock } from "effect"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { AgentModError, AgentTimedOut, AgentUnavailable } from "../src/contract/Errors.js"
import * as Channel from "../src/server/CommandChannel.js"
import { captureLogs, fakeMod, profilesFolder, until, writeAtomic } from "./support.js"

const options = (root: string, overrides: Partial<Channel.ChannelOptions> = {}): Channel.ChannelOptions => ({
  root,
  commandSuffix: ".json",
  responseSuffix: ".json",
  timeoutMs: 10_000,
  pollIntervalMs: 1_000,
  maxPending: 10_000,
  modStaleAfterMs: 10_000,
  heartbeatFile: "heartbeat.json",
  ...overrides
})

/** The files in a folder, but temporary ones (a name starting with "."). */
const files = (dir: string) => (Fs.existsSync(dir) ? Fs.readdirSync(dir).filter((n) => !n.startsWith(".")).sort() : [])

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("CommandChannel", () => {
  it.scoped("writes the command atomically, returns the mod's data, and removes the response file", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root))
      const mod = fakeMod(root)
      yield* Effect.addFinalizer(() => Effect.sync(mod.stop))
      const result = yield* channel.run("player.heal", { platformId: "76561198012345678" })
      expect(result.data).toEqual({ echo: { platformId: "76561198012345678" } })
      expect(result.id).toMatch(UUID)
      expect(mod.seen).toEqual([{ id: result.id, action: "player.heal", params: { platformId: "76561198012345678" }, timestamp: expect.any(Number) }])
      yield* until(() => files(mod.responses).length === 0, 10_000, "the response file removed")
      expect(files(mod.commands)).toEqual([])
      expect(channel.queueDir).toBe(NodePath.join(root, "commands"))
    })
  )

  it.scoped("answers the mod's ok:false as AgentModError with its reason", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root))
      const mod = fakeMod(root, () => ({ ok: false, error: "player 76561198012345678 is not online" }))
      yield* Effect.addFinalizer(() => Effect.sync(mod.stop))
      const exit = yield* Effect.exit(channel.run("player.heal", { platformId: "76561198012345678" }))
      expect(exit).toEqual(Exit.fail(new AgentModError({ error: "player 76561198012345678 is not online", id: mod.seen[0]!.id })))
    })
  )

  it.scoped("times out on the clock: 'Command timed out after 10000ms', the command withdrawn; a late response is logged and dropped", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const commands = NodePath.join(root, "commands")
      const channel = yield* Channel.make(options(root))
      const fiber = yield* Effect.fork(channel.run("world.sunny", {}))
      yield* until(() => files(commands).length === 1, 10_000, "the command file")
      const id = files(commands)[0]!.replace(/\.json$/, "")
      yield* TestClock.adjust("9999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const exit = yield* Fiber.await(fiber)
      expect(exit).toEqual(Exit.fail(new AgentTimedOut({ error: "Command timed out after 10000ms", id })))
      // Withdrawn before the mod took it: it can never run late.
      expect(files(commands)).toEqual([])
      expect(logs.lines.some((l) => l.includes(`command ${id} (world.sunny) timed out after 10000 ms; withdrawn before the mod took it`))).toBe(true)

      // A mod that had taken it answers anyway: logged, dropped, the file removed.
      yield* TestClock.adjust("2500 millis")
      writeAtomic(NodePath.join(root, "responses", `${id}.json`), JSON.stringify({ id, ok: true, data: {} }))
      yield* until(() => files(NodePath.join(root, "responses")).length === 0, 10_000, "the late response removed")
      yield* until(() => logs.lines.some((l) => l.includes(`response to command ${id} arrived 2500 ms after its time-out; dropped`)), 10_000, "the log line")
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("withdraws the command of a caller that went away", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const commands = NodePath.join(root, "commands")
      const channel = yield* Channel.make(options(root))
      const fiber = yield* Effect.fork(channel.run("world.sunny", {}))
      yield* until(() => files(commands).length === 1, 10_000, "the command file")
      yield* Fiber.interrupt(fiber)
      expect(files(commands)).toEqual([])
      expect(yield* channel.liveness).toMatchObject({ pending: 0 })
    })
  )

  it.scoped("drops a response that is not JSON or names another id, without harm; the command waits for its own", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const commands = NodePath.join(root, "commands")
      const responses = NodePath.join(root, "responses")
      const channel = yield* Channel.make(options(root))
      const fiber = yield* Effect.fork(channel.run("player.info", { platformId: "76561198012345678" }))
      yield* until(() => files(commands).length === 1, 10_000, "the command file")
      const id = files(commands)[0]!.replace(/\.json$/, "")

      // Not JSON: given a moment (a mod may still be writing it), then dropped.
      Fs.writeFileSync(NodePath.join(responses, `${id}.json`), "{ not json")
      // (Two polls: the first read may come from the watcher or from the first poll.)
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("1 second")
      yield* until(() => files(responses).length === 0, 10_000, "the bad file dropped")
      yield* until(() => logs.lines.some((l) => l.includes(`response file ${id}.json dropped: not a JSON object`)), 10_000, "the log line")

      // Another id inside: dropped at once.
      writeAtomic(NodePath.join(responses, `${id}.json`), JSON.stringify({ id: "someone-else", ok: true }))
      yield* until(() => files(responses).length === 0, 10_000, "the mismatched file dropped")
      expect(logs.lines.some((l) => l.includes(`its id "someone-else" is not the file's (${id})`))).toBe(true)
      expect(fiber.unsafePoll()).toBeNull()

      // Its own answer still gets through.
      writeAtomic(NodePath.join(responses, `${id}.json`), JSON.stringify({ id, ok: true, data: { name: "Alice" } }))
      expect(yield* Fiber.join(fiber)).toEqual({ id, data: { name: "Alice" } })
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("drops a response that is a symbolic link or a pipe without reading through it or waiting on it", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const responses = NodePath.join(root, "responses")
      const commands = NodePath.join(root, "commands")
      const channel = yield* Channel.make(options(root))
      const fiber = yield* Effect.fork(channel.run("player.info", { platformId: "76561198012345678" }))
      yield* until(() => files(commands).length === 1, 10_000, "the command file")
      const id = files(commands)[0]!.replace(/\.json$/, "")
      // A link to a file that would answer the command: not followed.
      const elsewhere = NodePath.join(profilesFolder(), "answer.json")
      Fs.writeFileSync(elsewhere, JSON.stringify({ id, ok: true, data: { name: "Mallory" } }))
      Fs.symlinkSync(elsewhere, NodePath.join(responses, `${id}.json`))
      yield* until(() => logs.lines.some((l) => l.includes(`response file ${id}.json dropped: a symbolic link`)), 10_000, "the link dropped")
      yield* until(() => files(responses).length === 0, 10_000, "the link removed")
      expect(Fs.existsSync(elsewhere)).toBe(true)
      // A pipe nobody writes to: opened without waiting, dropped.
      execFileSync("mkfifo", [NodePath.join(responses, `${id}.json`)])
      yield* until(() => logs.lines.some((l) => l.includes(`response file ${id}.json dropped: not a regular file`)), 10_000, "the pipe dropped")
      yield* until(() => files(responses).length === 0, 10_000, "the pipe removed")
      expect(fiber.unsafePoll()).toBeNull()
      // Its own answer still gets through.
      writeAtomic(NodePath.join(responses, `${id}.json`), JSON.stringify({ id, ok: true, data: { name: "Alice" } }))
      expect(yield* Fiber.join(fiber)).toEqual({ id, data: { name: "Alice" } })
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("clears stale command and response files at start, and only those", () => {
    const logs = captureLogs()
    return Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      for (const dir of ["commands", "responses"]) Fs.mkdirSync(NodePath.join(root, dir), { recursive: true })
      Fs.writeFileSync(NodePath.join(root, "commands", "old-1.json"), "{}")
      Fs.writeFileSync(NodePath.join(root, "commands", "old-2.json"), "{}")
      Fs.writeFileSync(NodePath.join(root, "commands", ".agent-old-3.tmp"), "{}")
      Fs.writeFileSync(NodePath.join(root, "responses", "old-1.json"), "{}")
      Fs.writeFileSync(NodePath.join(root, "commands", "README.txt"), "not ours")
      Fs.writeFileSync(NodePath.join(root, "players.json"), "{}")
      yield* Channel.make(options(root))
      expect(Fs.readdirSync(NodePath.join(root, "commands"))).toEqual(["README.txt"])
      expect(Fs.readdirSync(NodePath.join(root, "responses"))).toEqual([])
      expect(files(root)).toEqual(["commands", "players.json", "responses"])
      expect(logs.lines.some((l) => l.includes("cleared 3 stale command file(s) and 1 stale response file(s)"))).toBe(true)
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("survives the mod folder being deleted, by the agent's next command or by the mod making it again", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root))
      const mod = fakeMod(root)
      yield* Effect.addFinalizer(() => Effect.sync(mod.stop))
      expect((yield* channel.run("data.server-info", { n: 1 })).data).toEqual({ echo: { n: 1 } })

      // Deleted: the next command makes the folders again.
      Fs.rmSync(root, { recursive: true, force: true })
      expect((yield* channel.run("data.server-info", { n: 2 })).data).toEqual({ echo: { n: 2 } })

      // Deleted, and made again by someone else before the next command: the new folder is watched.
      Fs.rmSync(root, { recursive: true, force: true })
      yield* until(() => !Fs.existsSync(root), 10_000)
      Fs.mkdirSync(NodePath.join(root, "commands"), { recursive: true })
      Fs.mkdirSync(NodePath.join(root, "responses"), { recursive: true })
      expect((yield* channel.run("data.server-info", { n: 3 })).data).toEqual({ echo: { n: 3 } })
    })
  )

  it.scoped("stopping answers every waiting command with AgentUnavailable, withdraws it, and refuses new ones", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const commands = NodePath.join(root, "commands")
      const channel = yield* Channel.make(options(root))
      const first = yield* Effect.fork(channel.run("world.sunny", {}))
      const second = yield* Effect.fork(channel.run("world.wipe-ai", {}))
      yield* until(() => files(commands).length === 2, 10_000, "both command files")
      expect(yield* channel.stop).toBe(2)
      const stopping = new AgentUnavailable({ error: "The agent is stopping; the command was withdrawn" })
      expect(yield* Fiber.await(first)).toEqual(Exit.fail(stopping))
      expect(yield* Fiber.await(second)).toEqual(Exit.fail(stopping))
      expect(files(commands)).toEqual([])
      expect(yield* Effect.exit(channel.run("world.sunny", {}))).toEqual(Exit.fail(stopping))
      expect(files(commands)).toEqual([])
    })
  )

  it.scoped("refuses a command beyond the bound of waiting ones with AgentUnavailable", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root, { maxPending: 2 }))
      yield* Effect.fork(channel.run("world.sunny", {}))
      yield* Effect.fork(channel.run("world.sunny", {}))
      yield* until(() => files(NodePath.join(root, "commands")).length === 2, 10_000)
      const exit = yield* Effect.exit(channel.run("world.sunny", {}))
      expect(exit).toEqual(Exit.fail(new AgentUnavailable({ error: "Too many commands waiting (2); try again shortly" })))
    })
  )

  it.scoped("answers 1,000 concurrent commands against a mod that takes 10 per poll, each with its own response", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root))
      // A mod that answers at most 10 command files per 10 ms poll, oldest first.
      const commands = NodePath.join(root, "commands")
      const timer = setInterval(() => {
        const names = files(commands).filter((n) => !n.startsWith("."))
        for (const name of names.slice(0, 10)) {
          const command = JSON.parse(Fs.readFileSync(NodePath.join(commands, name), "utf8")) as { id: string; params: { n: number } }
          writeAtomic(NodePath.join(root, "responses", `${command.id}.json`), JSON.stringify({ id: command.id, ok: true, data: { n: command.params.n } }))
          Fs.rmSync(NodePath.join(commands, name))
        }
      }, 10)
      yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(timer)))
      const results = yield* Effect.all(
        Array.from({ length: 1_000 }, (_, n) => Effect.map(channel.run("world.time", { n }), (r) => ({ n, r }))),
        { concurrency: "unbounded" }
      )
      const mismatched = results.filter(({ n, r }) => (r.data as { n: number }).n !== n)
      expect(results).toHaveLength(1_000)
      expect(mismatched).toEqual([])
      expect(new Set(results.map(({ r }) => r.id)).size).toBe(1_000)
      expect(yield* channel.liveness).toMatchObject({ pending: 0 })
    })
  )

  it.scoped("reports whether the mod answers: the age of the last response and of the mod's heartbeat", () =>
    Effect.gen(function* () {
      const root = NodePath.join(profilesFolder(), "Garrison")
      const channel = yield* Channel.make(options(root))
      expect(yield* channel.liveness).toEqual({ answering: false, lastResponseAgeMs: null, heartbeatAgeMs: null, pending: 0, oldestPendingMs: null })
      const mod = fakeMod(root)
      yield* Effect.addFinalizer(() => Effect.sync(mod.stop))
      yield* channel.run("data.server-info", {})
      expect(yield* channel.liveness).toMatchObject({ answering: true, lastResponseAgeMs: 0 })
      yield* TestClock.adjust("10001 millis")
      expect(yield* channel.liveness).toMatchObject({ answering: false, lastResponseAgeMs: 10_001, heartbeatAgeMs: null })
      Fs.writeFileSync(NodePath.join(root, "heartbeat.json"), "{}")
      const live = yield* channel.liveness
      expect(live.answering).toBe(true)
      expect(live.heartbeatAgeMs).toBeLessThan(5_000)
    })
  )
})
