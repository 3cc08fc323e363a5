/**
 * Safe rollouts on the real servers plugin (fake processes), the real mods
 * plugin (a small steamcmd.sh, the stand-in's Web API) and the TestClock
 * for the warnings and the check window: downloads come first, warnings
 * follow the policy, the server is stopped, updated and started, and a
 * version that crashes in the check window is rolled back and held. The
 * rows written on the rollout's operation, long after the request, name who
 * started it by id and name (a scheduled one: the marker "scheduler").
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, eventually, fakeFleet, fakeInstall, realSleep, testController } from "@garrison/testkit"
import { Effect, LogLevel, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { publishItemVersion } from "@garrison/example-sim-steamcmd"
import { ModsPlugin } from "../../src/mods/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { PlatformPlugin } from "../../src/platform/index.js"
import { RolloutPlugin } from "../../src/rollout/index.js"
import { SchedulerPlugin } from "../../src/scheduler/index.js"
import { UpdatesPlugin } from "../../src/updates/index.js"
import { ADMIN, call, fakeSteam, type FakeSteam, installed, webApi } from "../mods/support.js"

const CF = "1559212036"
const COT = "1564026768"
const OPERATOR = "ops:mods.view,mods.install,server.restart,server.start,server.stop,server.view"

interface Status {
  readonly state: string
  readonly phase: string
  readonly warningsSent: ReadonlyArray<number>
  readonly error: string | null
  readonly log: ReadonlyArray<string>
  readonly mods: ReadonlyArray<{ readonly workshopId: string }>
}

const controller = (steam: FakeSteam, apiUrl: string) => {
  const fleet = fakeFleet()
  const audit = auditRecorder()
  const layer = testController([audit.plugin, fleet.plugin, NotificationsPlugin, PlatformPlugin, ModsPlugin, UpdatesPlugin, RolloutPlugin, SchedulerPlugin], {
    dataPrefix: "garrison-rollout-",
    logLevel: LogLevel.Error,
    // The test polls the status in real time while the TestClock stands still: no rate limit.
    config: { STEAMCMD_PATH: steam.path, STEAM_WEB_API_URL: apiUrl, RATE_LIMIT_API: "off" }
  })
  return { audit, fleet, layer }
}

/** `[actor, actorName]` of each audit row of `action` (and, given, whose details match). */
const actorsOf = (audit: ReturnType<typeof auditRecorder>, action: string, details: Record<string, unknown> = {}) =>
  audit.rows
    .filter((row) => row.action === action && Object.entries(details).every(([key, value]) => row.details?.[key] === value))
    .map((row) => [row.actor, row.actorName])

const status = (id: string) => Effect.map(call("GET", `/api/servers/${id}/rollout/status`, { as: OPERATOR }), (r) => r.body as Status)
const until = (id: string, check: (s: Status) => boolean) => eventually(status(id), check, 10_000)
/** Moves the TestClock a second at a time (the check window's pace) until `check` holds. */
const advancingUntil = (id: string, check: (s: Status) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1_000; i++) {
      const now = yield* status(id)
      if (check(now)) return now
      yield* TestClock.adjust("1 second")
      yield* realSleep(5)
    }
    return yield* Effect.dieMessage(`not reached: ${JSON.stringify(yield* status(id))}`)
  })
/** The notifications a viewer of the server sees, oldest first. */
const notices = Effect.map(call("GET", "/api/notifications?limit=200", { as: "viewer:server.view" }), (r) =>
  [...(r.body as { items: ReadonlyArray<{ level: string; title: string; message: string }> }).items].reverse()
)
const serverState = (id: string) => Effect.map(call("GET", `/api/servers/${id}/status`, { as: OPERATOR }), (r) => (r.body as { status: string }).status)
const pbo = (dir: string, folder: string) => Fs.readFileSync(NodePath.join(dir, folder, "addons", "data.pbo"), "utf8")

/** A server with CF and COT installed, a newer CF published and found by a check. */
const serverWithDueUpdate = (steam: FakeSteam, apiDir: string) =>
  Effect.gen(function* () {
    steam.publish(CF, { name: "CF" })
    steam.publish(COT, { name: "COT" })
    yield* call("POST", "/api/platform/credentials/save", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })
    const dir = fakeInstall()
    const id = String(((yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })).body as { id: string }).id)
    // Fake processes answer no RCON: without RCON settings the check watches the process alone (the end-to-end test has RCON).
    expect((yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { rcon: null } })).status).toBe(200)
    expect((yield* installed(id, { workshopId: CF })).state).toBe("done")
    expect((yield* installed(id, { workshopId: COT })).state).toBe("done")
    publishItemVersion(apiDir, CF, { timeUpdated: 1800000000 })
    steam.publish(CF, { name: "CF", version: 2 })
    expect((yield* call("POST", `/api/servers/${id}/mods/check-updates`, { as: OPERATOR })).status).toBe(200)
    return { id, dir }
  })

describe("rollouts", () => {
  it.scoped("download first, warn at 15, 5 and 1 minutes, stop, put the new version on, start and check it", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { audit, layer, fleet } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id, dir } = yield* serverWithDueUpdate(steam, api.dir)
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: OPERATOR })).status).toBe(200)
        const downloadsBefore = steam.runs().length

        const started = yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: {} })
        expect(started.status).toBe(202)
        expect(started.body).toMatchObject({ state: "running", mods: [{ workshopId: CF }] })
        // The download happens while the server still runs; then the first warning goes out at once.
        yield* until(id, (s) => s.warningsSent.length === 1)
        expect(steam.runs().length).toBe(downloadsBefore + 1)
        expect(yield* serverState(id)).toBe("running")
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 1`)
        // Nothing else may start or stop the server meanwhile, except a stop, which would cancel.
        expect((yield* call("POST", `/api/servers/${id}/restart`, { as: OPERATOR })).status).toBe(409)

        yield* TestClock.adjust("10 minutes")
        yield* until(id, (s) => s.warningsSent.length === 2)
        yield* TestClock.adjust("4 minutes")
        yield* until(id, (s) => s.warningsSent.length === 3)
        expect((yield* status(id)).warningsSent).toEqual([15, 5, 1])
        const firstProcess = fleet.launcher.processes.at(-1)!
        yield* TestClock.adjust("1 minute")
        yield* until(id, (s) => s.phase === "checking")
        // The old process was stopped and a new one runs the new version.
        expect(firstProcess.signals.length).toBeGreaterThan(0)
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 2`)
        expect(pbo(dir, ".garrison/previous/@cf")).toBe(`item ${CF} version 1`)
        const done = yield* advancingUntil(id, (s) => s.state !== "running")
        expect(done).toMatchObject({ state: "done", error: null })
        expect(yield* serverState(id)).toBe("running")
        const mods = (yield* call("GET", `/api/servers/${id}/mods`, { as: OPERATOR })).body as { items: ReadonlyArray<{ workshopId: string; pendingUpdate: unknown }> }
        expect(mods.items.every((m) => m.pendingUpdate === null)).toBe(true)
        // The rows name who asked by id and name (a test caller's id is its name): the install jobs' (done beside
        // their requests), and the rollout's, written on the server actor's operation where no caller can be read.
        expect(actorsOf(audit, "mods.install")).toEqual([["max", "max"], ["max", "max"]])
        expect(actorsOf(audit, "mods.update", { rollout: true })).toEqual([["ops", "ops"]])
        // (The status says done just before that row is written: waited for.)
        expect(yield* eventually(Effect.sync(() => actorsOf(audit, "rollout.done")), (rows) => rows.length > 0)).toEqual([["ops", "ops"]])
        // Whoever may view the server is told, once: the mod put on, and the rollout done.
        const told = yield* eventually(notices, (n) => n.some((x) => x.title === "Main: rollout done"))
        expect(told.filter((x) => x.title === "Main: rollout done")).toHaveLength(1)
        expect(told.find((x) => x.title === "Main: rollout done")?.message).toContain("1 mod (@cf)")
        // Nothing is due any more.
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: {} })).status).toBe(409)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a version that crashes in the check window is rolled back, the server runs the previous one, and that version is held", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { audit, layer, fleet } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id, dir } = yield* serverWithDueUpdate(steam, api.dir)
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: OPERATOR })).status).toBe(200)
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: { now: true } })).status).toBe(202)
        yield* until(id, (s) => s.phase === "checking")
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 2`)
        // The new version dies 30 s in.
        yield* TestClock.adjust("30 seconds")
        expect(yield* fleet.launcher.crash(1)).toBe(true)
        yield* advancingUntil(id, (s) => s.phase === "checking" && s.log.some((line) => line.includes("rolled back")))
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 1`)
        const ended = yield* advancingUntil(id, (s) => s.state !== "running")
        expect(ended.state).toBe("rolled-back")
        expect(ended.error).toContain("crashed within the check window")
        expect(ended.log.at(-1)).toContain("runs the previous versions again")
        expect(yield* serverState(id)).toBe("running")
        expect(yield* eventually(Effect.sync(() => actorsOf(audit, "rollout.rolled-back")), (rows) => rows.length > 0)).toEqual([["ops", "ops"]])
        // The crash is the rollout's to handle, and its notification says so (not "the watchdog restarts it"); the rollback follows with its reason.
        const told = yield* eventually(notices, (n) => n.some((x) => x.title === "Main: rollout rolled back"))
        const crash = told.filter((x) => x.title.startsWith("Main crashed"))
        expect(crash.map((x) => x.title)).toEqual(["Main crashed during a rollout"])
        expect(crash[0]?.message).toContain("The rollout running on it handles this, not the watchdog")
        expect(told.some((x) => x.message.includes("watchdog restarts"))).toBe(false)
        const rolledBack = told.filter((x) => x.title === "Main: rollout rolled back")
        expect(rolledBack).toHaveLength(1)
        expect(rolledBack[0]).toMatchObject({ level: "warning" })
        expect(rolledBack[0]?.message).toContain("crashed within the check window")
        expect(rolledBack[0]?.message).toContain("the server runs them again")

        const mods = (yield* call("GET", `/api/servers/${id}/mods`, { as: OPERATOR })).body as {
          items: ReadonlyArray<{ workshopId: string; heldUpdate: string | null; pendingUpdate: unknown }>
        }
        const cf = mods.items.find((m) => m.workshopId === CF)!
        expect(cf.heldUpdate).toBe(new Date(1800000000 * 1000).toISOString())
        expect(cf.pendingUpdate).not.toBeNull()
        // Held: the next rollout has nothing due until a newer version is published.
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: {} })).status).toBe(409)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a stop during the warnings cancels the rollout before anything changed; a stopped server is updated and stays stopped", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { layer } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id, dir } = yield* serverWithDueUpdate(steam, api.dir)
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: OPERATOR })).status).toBe(200)
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: {} })).status).toBe(202)
        yield* until(id, (s) => s.warningsSent.length === 1)
        expect((yield* call("POST", `/api/servers/${id}/stop`, { as: OPERATOR })).status).toBe(200)
        expect(yield* until(id, (s) => s.state !== "running")).toMatchObject({ state: "cancelled" })
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 1`)

        // Stopped now: the rollout puts the version on at once and leaves the server stopped.
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: {} })).status).toBe(202)
        expect(yield* until(id, (s) => s.state !== "running")).toMatchObject({ state: "done" })
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 2`)
        expect(yield* serverState(id)).toBe("stopped")
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("the policy: defaults, set and read back, bad values refused; unknown mods and missing rights refused", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { layer } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id } = yield* serverWithDueUpdate(steam, api.dir)
        expect((yield* call("GET", `/api/servers/${id}/rollout/policy`, { as: OPERATOR })).body).toMatchObject({ warnings: [15, 5, 1], lock: true, checkWindowSeconds: 120 })
        const policy = { warnings: [2], warningMessage: "Restart in {minutes}!", kickMessage: "Updating", lock: false, checkWindowSeconds: 30 }
        expect((yield* call("PUT", `/api/servers/${id}/rollout/policy`, { as: OPERATOR, json: policy })).body).toEqual(policy)
        expect((yield* call("GET", `/api/servers/${id}/rollout/policy`, { as: OPERATOR })).body).toEqual(policy)
        for (const bad of [{ ...policy, warnings: [0] }, { ...policy, checkWindowSeconds: 5 }, { ...policy, kickMessage: "a\nb" }]) {
          expect((yield* call("PUT", `/api/servers/${id}/rollout/policy`, { as: OPERATOR, json: bad })).status).toBe(400)
        }
        const unknown = yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: { mods: ["42"] } })
        expect(unknown.status).toBe(400)
        expect(unknown.text).toContain("not installed")
        expect((yield* call("POST", `/api/servers/${id}/rollout`, { as: "m:mods.install", json: {} })).status).toBe(403)
        expect((yield* call("GET", `/api/servers/nope/rollout/status`, { as: OPERATOR })).status).toBe(404)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a scheduled apply-updates job checks the workshop and rolls out only what is due", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { audit, layer } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id, dir } = yield* serverWithDueUpdate(steam, api.dir)
        // The check in the job finds it again: the pending record is not what makes it run.
        expect((yield* call("DELETE", `/api/servers/${id}/mods/updates/${CF}`, { as: OPERATOR })).status).toBe(204)
        const job = yield* call("POST", `/api/servers/${id}/scheduler`, { as: OPERATOR, json: { kind: "apply-updates", cron: "0 4 * * *" } })
        expect(job.status).toBe(201)
        yield* TestClock.adjust("4 hours")
        expect(yield* until(id, (s) => s.state === "done")).toMatchObject({ mods: [{ workshopId: CF }] })
        expect(pbo(dir, "@cf")).toBe(`item ${CF} version 2`)
        // No principal behind the scheduler's rollout: its rows keep the marker, with no name.
        expect(actorsOf(audit, "mods.update", { rollout: true })).toEqual([["scheduler", null]])
        // The run itself: one row, the scheduler's, naming the job and who made it.
        const runs = audit.rows.filter((row) => row.action === "server.apply-updates")
        expect(runs).toHaveLength(1)
        expect(runs[0]).toMatchObject({
          actor: "scheduler",
          actorName: null,
          target: id,
          result: "success",
          details: { jobId: (job.body as { id: string }).id, kind: "apply-updates", createdBy: { id: "ops", name: "ops" } }
        })
        // A day later nothing is due: the job runs and skips.
        yield* TestClock.adjust("24 hours")
        const jobs = yield* eventually(
          call("GET", `/api/servers/${id}/scheduler`, { as: OPERATOR }),
          (r) => ((r.body as { items: ReadonlyArray<{ lastResult: string | null }> }).items[0]?.lastResult ?? "").includes("no update due")
        )
        expect((jobs.body as { items: ReadonlyArray<{ lastResult: string }> }).items[0]?.lastResult).toBe("skipped: no update due")
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a mod is installed into a running server only through a rollout, and comes off again when the server fails", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const api = yield* webApi
      const { layer, fleet } = controller(steam, api.url)
      yield* Effect.gen(function* () {
        const { id, dir } = yield* serverWithDueUpdate(steam, api.dir)
        expect((yield* call("DELETE", `/api/servers/${id}/mods/uninstall/${COT}`, { as: OPERATOR })).status).toBe(204)
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: OPERATOR })).status).toBe(200)
        const refused = yield* call("POST", `/api/servers/${id}/mods/install`, { as: OPERATOR, json: { workshopId: COT } })
        expect(refused.status).toBe(409)
        expect(refused.text).toContain("rollout")
        const unknown = yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: { install: [{ workshopId: "42" }] } })
        expect(unknown.status).toBe(400)

        const started = yield* call("POST", `/api/servers/${id}/rollout`, { as: OPERATOR, json: { mods: [], install: [{ workshopId: COT }], now: true } })
        expect(started.status).toBe(202)
        expect(started.body).toMatchObject({ mods: [{ workshopId: COT, install: true, name: "Community Online Tools" }] })
        yield* until(id, (s) => s.phase === "checking")
        expect(Fs.existsSync(NodePath.join(dir, "@cot", "meta.cpp"))).toBe(true)
        // The server dies in the window: the new mod comes off again.
        expect(yield* fleet.launcher.crash(1)).toBe(true)
        expect(yield* advancingUntil(id, (s) => s.state !== "running")).toMatchObject({ state: "rolled-back" })
        expect(Fs.existsSync(NodePath.join(dir, "@cot"))).toBe(false)
        const list = (yield* call("GET", `/api/servers/${id}/mods`, { as: OPERATOR })).body as { items: ReadonlyArray<{ workshopId: string }>; launch: { mod: string } }
        expect(list.items.map((m) => m.workshopId)).toEqual([CF])
        expect(list.launch.mod).toBe("@cf")
      }).pipe(Effect.provide(layer))
    }))
})
