/**
 * The map and version a running server shows: read from its engine log
 * (RPT) when the RCON session opens, not only at the next status sample
 * (every 10 s by default). The first sample runs as the process spawns,
 * before the server has written those lines: waiting for the next one left
 * `map` and `version` null in the status and the list for a whole interval.
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually } from "@garrison/testkit/core"
import { Deferred, Duration, Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fakeRcon, playersReply, quietPoller, rconSettings, setup, sleepersUntil, tempInstall } from "./support.js"

const RPT_HEAD = ["Version 1.26.159040", "", "12:00:00.100 Mission: dayzOffline.chernarusplus", "12:00:00.200 World: chernarusplus"]

describe("ServerActor: map and version while running", () => {
  it.scoped("show once the RCON session opens, without waiting for the next status sample", () =>
    Effect.gen(function* () {
      const installDir = tempInstall()
      const opened = yield* Deferred.make<void>()
      const connect = fakeRcon(() => playersReply([]))
      const { actor } = yield* setup(
        { installDir, rcon: rconSettings },
        { connectRcon: (settings) => Effect.zipRight(Deferred.await(opened), connect(settings)), options: quietPoller }
      )
      yield* actor.start
      // The first sample ran (the poller sleeps until its next one, a day on): the log had nothing yet.
      yield* eventually(sleepersUntil(Duration.toMillis(Duration.days(1))), (n) => n >= 1, 10_000, "the first status sample")
      expect((yield* actor.state).map).toBeUndefined()

      // The server writes its log head, then opens RCon (a real one does so after loading the world).
      Fs.mkdirSync(NodePath.join(installDir, "profiles"))
      Fs.writeFileSync(NodePath.join(installDir, "profiles", "DayZServer_x64_2026-01-01_12-00-00.RPT"), RPT_HEAD.map((l) => `${l}\n`).join(""))
      yield* Deferred.succeed(opened, undefined)

      const shown = yield* eventually(actor.state, (s) => s.map !== undefined && s.version !== undefined, 10_000, "map and version")
      expect([shown.map, shown.version]).toEqual(["chernarusplus", "1.26.159040"])
    })
  )
})
