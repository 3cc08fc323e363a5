/**
 * ban.txt sync on the bare runtime: expiry on TestClock (no one acts, the
 * file follows), the start hook writing the file, the owner's own lines
 * surviving, and the DayZ ID form.
 */
import { describe, expect, it } from "@effect/vitest"
import { BeforeServerStart, Hooks, PlayerIds } from "@garrison/runtime"
import { Chunk, ConfigProvider, Effect, Layer, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BAN_BLOCK_BEGIN, BAN_BLOCK_END, Bans, BanSync } from "../../src/bans/index.js"
import { banFileWhen, type Fleet, makeFleet, readBanFile, server, sleepingUntil, sleepsOnTestClock, startRuntime, tempDir } from "./support.js"

const STEAM64 = "76561198012345678"
const OTHER = "76561198000000001"
/** Who bans: an operator (its id and name, as the routes pass the caller). */
const OP = { id: "op", name: "op" }

const setUp = (fleet: Fleet, dataDir?: string) =>
  Effect.gen(function* () {
    const runtime = yield* startRuntime(fleet, dataDir)
    yield* Effect.addFinalizer(() => runtime.stop)
    const bans = yield* Effect.provide(Bans, runtime.context)
    const sync = yield* Effect.provide(BanSync, runtime.context)
    const hooks = yield* Effect.provide(Hooks, runtime.context)
    return { bans, sync, hooks }
  })

describe("ban.txt sync", () => {
  it.scoped("an expired ban leaves every ban.txt when its time passes, with no one acting", () =>
    Effect.gen(function* () {
      const noon = Date.parse("2025-03-01T12:00:00.000Z")
      const expiry = Date.parse("2025-03-01T13:00:00.000Z")
      const fleet = makeFleet({ alpha: "running", bravo: "stopped" })
      const dataDir = tempDir("garrison-bans-data-")
      // The bans are added on a kernel of their own, on a test clock of its own: its sync worker's
      // sleeps (some cut short by the adds) stay off this test's clock.
      yield* Effect.gen(function* () {
        yield* TestClock.setTime(noon)
        const seeding = yield* startRuntime(fleet, dataDir)
        const bans = yield* Effect.provide(Bans, seeding.context)
        yield* bans.add({ platformId: STEAM64, playerName: "A", reason: "r", expiresAt: "2025-03-01T13:00:00Z" }, OP)
        yield* bans.add({ platformId: OTHER, playerName: "B", reason: "r" }, OP)
        yield* seeding.stop
      }).pipe(Effect.provide(TestClock.live(TestClock.makeData(noon, Chunk.empty()))))

      yield* TestClock.setTime(noon)
      const { bans } = yield* setUp(fleet, dataDir)
      for (const name of ["alpha", "bravo"]) {
        const text = yield* banFileWhen(server(fleet, name), (t) => t.includes(STEAM64) && t.includes(OTHER))
        expect(text).toBe(`${BAN_BLOCK_BEGIN}\n${OTHER}\n${STEAM64}\n${BAN_BLOCK_END}\n`)
      }
      // Nobody acts from here on: the worker's sleeps on this clock are until the expiry, which it
      // takes once it has synced. Then the adjusts below are sure to wake it.
      yield* sleepingUntil(expiry)
      yield* TestClock.adjust("59 minutes")
      // A minute early it still sleeps until the expiry and nothing else (a sleep that fired leaves the list;
      // one a wake-up cut short may stay listed, at the same time), so nothing rewrote the file.
      expect(new Set(yield* sleepsOnTestClock)).toEqual(new Set([expiry]))
      expect(readBanFile(server(fleet, "alpha"))).toContain(STEAM64)
      yield* TestClock.adjust("1 minute")
      for (const name of ["alpha", "bravo"]) {
        const text = yield* banFileWhen(server(fleet, name), (t) => !t.includes(STEAM64))
        expect(text).toBe(`${BAN_BLOCK_BEGIN}\n${OTHER}\n${BAN_BLOCK_END}\n`)
      }
      // Expired, not deleted: still listed, as expired.
      const expired = yield* bans.list({ status: "expired" })
      expect(expired.items.map((b) => b.platformId)).toEqual([STEAM64])
      // And a new ban for that player is allowed again.
      yield* bans.add({ platformId: STEAM64, playerName: "A", reason: "again" }, OP)
    })
  )

  it.scoped("the start hook writes ban.txt, keeping the owner's lines byte for byte", () =>
    Effect.gen(function* () {
      const fleet = makeFleet({ alpha: "stopped" })
      const alpha = server(fleet, "alpha")
      const { bans, hooks } = yield* setUp(fleet)
      yield* bans.add({ platformId: STEAM64, playerName: "A", reason: "r" }, OP)
      // The sync worker writes the add on a fiber of its own (after a database read, which on PostgreSQL takes
      // real time): once it has, nothing is left to write, and the owner's edit below is the file's last.
      yield* banFileWhen(alpha, (t) => t.includes(STEAM64))
      expect(readBanFile(alpha)).toBe(`${BAN_BLOCK_BEGIN}\n${STEAM64}\n${BAN_BLOCK_END}\n`)
      // Someone (the owner) rewrites the file by hand while the controller runs.
      const owner = "// my own bans\r\n76561197960265739 \t\r\n\xe9 latin1 comment\r\n"
      const trailer = "// after the block\r\n76561197960265740"
      Fs.writeFileSync(NodePath.join(alpha.installDir, "ban.txt"), Buffer.from(`${owner}${BAN_BLOCK_BEGIN}\r\nstale\r\n${BAN_BLOCK_END}\r\n${trailer}`, "latin1"))
      yield* hooks.run(BeforeServerStart, { serverId: "alpha", name: "alpha", installDir: alpha.installDir })
      const bytes = Fs.readFileSync(NodePath.join(alpha.installDir, "ban.txt"))
      expect(bytes.equals(Buffer.from(`${owner}${BAN_BLOCK_BEGIN}\r\n${STEAM64}\r\n${BAN_BLOCK_END}\r\n${trailer}`, "latin1"))).toBe(true)

      // A folder that cannot take the file fails the start with the reason.
      const result = yield* Effect.either(
        hooks.run(BeforeServerStart, { serverId: "ghost", name: "ghost", installDir: NodePath.join(alpha.installDir, "missing") })
      )
      expect(result._tag).toBe("Left")
    })
  )

  it.scoped("BAN_FILE_ID_FORM=dayz writes DayZ IDs", () =>
    Effect.gen(function* () {
      const fleet = makeFleet({ alpha: "stopped" })
      const { bans, sync } = yield* setUp(fleet)
      expect(sync.idForm).toBe("dayz")
      yield* bans.add({ platformId: STEAM64, playerName: "A", reason: "r" }, OP)
      const dayz = PlayerIds.toDayzId(STEAM64 as PlayerIds.Steam64)
      expect(dayz).toBe("yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=")
      const text = yield* banFileWhen(server(fleet, "alpha"), (t) => t.includes(dayz))
      expect(text).toBe(`${BAN_BLOCK_BEGIN}\n${dayz}\n${BAN_BLOCK_END}\n`)
    }).pipe(Effect.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["BAN_FILE_ID_FORM", "dayz"]])))))
  )
})
