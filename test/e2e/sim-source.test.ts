/**
 * The simulator in Source RCON mode (TCP), driven by Garrison's Source
 * client (`rcon-client`) through the same `RconClient` interface.
 *
 * Needs the build (`npx tsc -b`).
 */
import { describe, expect, it } from "@effect/vitest"
import { connectRcon, parsePlayers } from "@garrison/runtime"
import { Effect, Option, Stream } from "effect"
import { afterAll } from "vitest"
import { HOST } from "../support/controller.js"
import { installSim, killAllSims, launchSim, readAdm, type SimInstall, stopSim, waitFor, waitForSimExit } from "../support/sim.js"

const installs: Array<SimInstall> = []
afterAll(() => {
  killAllSims()
  for (const install of installs) install.remove()
})

const sourceSim = (settings: Record<string, string | number> = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const install = await installSim()
      installs.push(install)
      return await launchSim(install, { settings: { rcon: "source", ...settings } })
    }),
    (sim) => Effect.promise(() => stopSim(sim))
  )

describe("simulated server over Source RCON", () => {
  it.scopedLive("refuses a wrong password; runs commands; kicks; shuts down", () =>
    Effect.gen(function* () {
      const sim = yield* sourceSim({ players: 3, joinInterval: 0 })
      const options = { protocol: "source" as const, host: HOST, port: sim.install.rconPort, password: sim.install.rconPassword }
      const refused = yield* Effect.flip(connectRcon({ ...options, password: "nope" }))
      expect(refused._tag).toBe("RconLoginRefused")

      const client = yield* connectRcon(options)
      expect(client.protocol).toBe("source")
      yield* Effect.promise(() => waitFor(() => readAdm(sim.install).split("is connected").length - 1 === 3, 10_000))
      const list = parsePlayers(yield* client.command("players"))
      expect(list.map((p) => p.slot)).toEqual([0, 1, 2])
      expect(yield* client.command("kick 1 bye")).toBe("")
      expect(parsePlayers(yield* client.command("players")).map((p) => p.slot)).toEqual([0, 2])
      expect(yield* client.command("#lock")).toBe("")
      expect(yield* client.command("whatever")).toBe("Unknown command")
      // Sequential commands from several fibers all get their own replies.
      const replies = yield* Effect.forEach(["players", "bans", "nope"], (c) => client.command(c), { concurrency: "unbounded" })
      expect(replies[0]).toContain("Players on server:")
      expect(replies[1]).toContain("GUID Bans:")
      expect(replies[2]).toBe("Unknown command")

      expect(yield* client.command("#shutdown")).toBe("")
      const ended = yield* Effect.promise(() => waitForSimExit(sim, 10_000))
      expect(ended?.code).toBe(0)
      yield* client.close
      expect((yield* client.state).status).toBe("closed")
      // Source RCON has no server messages: the stream simply ends on close.
      expect(Option.isNone(yield* Stream.runHead(client.messages))).toBe(true)
    })
  )
})
