/**
 * Mod jobs across a restart of the controller: the hour's ended jobs are
 * still listed, and a job the controller was cut off in (a stop, or a
 * crash that never wrote its end) shows as `interrupted`, having left the
 * server's files as they were.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { fakeInstall, tempDir } from "@garrison/testkit"
import { Effect, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { INTERRUPTED, makeJobs } from "../../src/mods/internal/jobs.js"
import { ADMIN, call, createServer, fakeSteam, installed, MODDER, modsController, webApi } from "./support.js"

const CF = "1559212036"
const COT = "1564026768"

interface Job {
  readonly id: string
  readonly state: string
  readonly error: string | null
  readonly endedAt: string | null
}
const jobs = Effect.map(call("GET", "/api/mods/install-status", { as: ADMIN }), (r) => (r.body as { items: ReadonlyArray<Job> }).items)

describe("mod jobs across a restart", () => {
  it.scopedLive("a job the controller stopped under is interrupted after the restart; an ended one is still listed", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      steam.publish(COT, { name: "COT" })
      const api = yield* webApi
      const dataDir = tempDir("garrison-mods-data-")
      const install = fakeInstall()
      const first = yield* Effect.scoped(
        Effect.gen(function* () {
          const serverId = yield* createServer(install)
          const done = yield* installed(serverId, { workshopId: COT })
          steam.slow()
          const started = yield* call("POST", `/api/servers/${serverId}/mods/install`, { as: MODDER, json: { workshopId: CF } })
          expect(started.status, started.text).toBe(202)
          return { serverId, done: done.id, cut: (started.body as Job).id }
        }).pipe(Effect.provide(modsController(steam, api.url, { dataDir }).layer))
      )
      yield* Effect.scoped(
        Effect.gen(function* () {
          const listed = yield* jobs
          expect(listed.find((job) => job.id === first.cut)).toMatchObject({ state: "interrupted", error: INTERRUPTED })
          expect(listed.find((job) => job.id === first.cut)?.endedAt).not.toBeNull()
          expect(listed.find((job) => job.id === first.done)).toMatchObject({ state: "done" })
          const mods = (yield* call("GET", `/api/servers/${first.serverId}/mods`, { as: ADMIN })).body as { items: ReadonlyArray<{ name: string }> }
          expect(mods.items.map((mod) => mod.name)).toEqual(["@cot"])
          expect(Fs.existsSync(NodePath.join(install, "@cf"))).toBe(false)
        }).pipe(Effect.provide(modsController(steam, api.url, { dataDir }).layer))
      )
    }))

  it.scoped("a job a crash cut off (no end written) is interrupted when the jobs are read again; ended jobs go after an hour", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const before = yield* makeJobs(sql)
      const running = yield* before.begin("install", "server-1", CF)
      const ended = yield* before.begin("update", "server-1", COT)
      yield* running.handle.progress({ state: "downloading", percent: 40 })
      yield* ended.handle.failed("SteamCMD could not download it")
      // The controller dies here: nothing more is written. The next one reads the jobs again.
      yield* TestClock.adjust("1 minute")
      const after = yield* makeJobs(sql)
      const listed = yield* after.list
      expect(listed.find((job) => job.id === running.job.id)).toMatchObject({
        state: "interrupted",
        error: INTERRUPTED,
        endedAt: new Date(60_000).toISOString()
      })
      expect(listed.find((job) => job.id === ended.job.id)).toMatchObject({ state: "failed", error: "SteamCMD could not download it" })
      expect(yield* after.active("server-1", CF)).toBe(false)
      yield* TestClock.adjust("1 hour")
      expect(yield* (yield* makeJobs(sql)).list).toEqual([])
    }).pipe(Effect.provide(modsController(fakeSteam(), "http://127.0.0.1:9").layer)))
})
