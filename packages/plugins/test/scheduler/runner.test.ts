/**
 * The runner on TestClock: the kernel, the scheduler plugin and fake
 * servers in-process; the clock only moves when a test moves it.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus, ServerDeleted } from "@garrison/runtime"
import { Effect, Queue, TestClock } from "effect"
import { Scheduler, ScheduledJobInput } from "../../src/scheduler/index.js"
import { type Fleet, makeFleet, settle, startRuntime, tempDataDir } from "./support.js"

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

/** Moves the clock to `iso`, lets everything run, and returns what the servers were asked meanwhile. */
const advanceTo = (fleet: Fleet, iso: string) =>
  Effect.gen(function* () {
    yield* at(iso)
    yield* settle
    return yield* fleet.takeCalls
  }).pipe(Effect.map((chunk) => [...chunk].map((c) => ({ at: c.at, op: c.op, arg: c.arg }))))

/** A fresh data directory, the fleet and a started runtime at `start`. */
const setUp = (statuses: Parameters<typeof makeFleet>[0], start: string) =>
  Effect.gen(function* () {
    yield* at(start)
    const fleet = yield* makeFleet(statuses)
    const dataDir = tempDataDir()
    const runtime = yield* startRuntime(fleet, dataDir)
    yield* Effect.addFinalizer(() => runtime.stop)
    const scheduler = yield* Effect.provide(Scheduler, runtime.context)
    return { fleet, dataDir, runtime, scheduler }
  })

const restartJob = new ScheduledJobInput({ kind: "restart", cron: "0 4 * * *", timeZone: "UTC", warnings: [1, 15, 5] })

describe("scheduler runner", () => {
  it.scoped("warns at 15, 5 and 1 minutes before a restart, then restarts with reason schedule", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("alpha", restartJob)
      expect(job.warnings).toEqual([15, 5, 1])
      expect(job.nextRunAt).toBe("2025-01-06T04:00:00.000Z")
      expect(job.nextWarnings.map((w) => [w.minutes, w.at])).toEqual([
        [15, "2025-01-06T03:45:00.000Z"],
        [5, "2025-01-06T03:55:00.000Z"],
        [1, "2025-01-06T03:59:00.000Z"]
      ])

      expect(yield* advanceTo(fleet, "2025-01-06T03:44:59.999Z")).toEqual([])
      expect(yield* advanceTo(fleet, "2025-01-06T03:45:00.000Z")).toEqual([
        { at: "2025-01-06T03:45:00.000Z", op: "rcon", arg: "say -1 Server restart in 15 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, "2025-01-06T03:55:00.000Z")).toEqual([
        { at: "2025-01-06T03:55:00.000Z", op: "rcon", arg: "say -1 Server restart in 5 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, "2025-01-06T03:59:00.000Z")).toEqual([
        { at: "2025-01-06T03:59:00.000Z", op: "rcon", arg: "say -1 Server restart in 1 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual([
        { at: "2025-01-06T04:00:00.000Z", op: "restart", arg: "schedule" }
      ])

      const event = yield* Queue.take(fleet.ran)
      expect(event).toMatchObject({ serverId: "alpha", jobId: job.id, kind: "restart", ok: true, dueAt: "2025-01-06T04:00:00.000Z" })
      expect(event.error).toBeUndefined()
      expect(event.skipped).toBeUndefined()
      const [after] = yield* scheduler.list("alpha")
      expect(after).toMatchObject({ lastRunAt: "2025-01-06T04:00:00.000Z", lastResult: "ok", nextRunAt: "2025-01-07T04:00:00.000Z" })
    }))

  it.scoped("the warning text is configurable with a {minutes} placeholder", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:00:00.000Z")
      yield* scheduler.create(
        "alpha",
        new ScheduledJobInput({ kind: "stop", cron: "0 4 * * *", warnings: [10], message: "Wartung in {minutes} Min. ({minutes})" })
      )
      expect(yield* advanceTo(fleet, "2025-01-06T03:50:00.000Z")).toEqual([
        { at: "2025-01-06T03:50:00.000Z", op: "rcon", arg: "say -1 Wartung in 10 Min. (10)" }
      ])
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual([{ at: "2025-01-06T04:00:00.000Z", op: "stop", arg: undefined }])
    }))

  it.scoped("a stopped server gets no warnings and is not restarted (nor started)", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ beta: "stopped" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("beta", restartJob)
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual([])
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: job.id, ok: true, skipped: "server not running" })
      expect(fleet.servers.get("beta")?.status).toBe("stopped")
      const [after] = yield* scheduler.list("beta")
      expect(after).toMatchObject({ lastRunAt: "2025-01-06T04:00:00.000Z", lastResult: "skipped: server not running" })
    }))

  it.scoped("without the rollout plugin, which provides ScheduledUpdates, an apply-updates run fails saying what to load", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ beta: "stopped" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("beta", new ScheduledJobInput({ kind: "apply-updates", cron: "0 4 * * *", timeZone: "UTC" }))
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual([])
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: job.id, ok: false })
      const [after] = yield* scheduler.list("beta")
      expect(after?.lastResult).toContain("applying pending updates needs the rollout plugin (PLUGINS)")
    }))

  it.scoped("disabled jobs do not fire; toggling enables and disables", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create(
        "alpha",
        new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "hello", enabled: false })
      )
      expect(job.nextRunAt).toBeNull()
      expect(yield* advanceTo(fleet, "2025-01-06T03:35:00.000Z")).toEqual([])

      const enabled = yield* scheduler.toggle("alpha", job.id)
      expect(enabled).toMatchObject({ enabled: true, nextRunAt: "2025-01-06T03:40:00.000Z" })
      expect(yield* advanceTo(fleet, "2025-01-06T03:40:00.000Z")).toEqual([
        { at: "2025-01-06T03:40:00.000Z", op: "rcon", arg: "say -1 hello" }
      ])

      expect((yield* scheduler.toggle("alpha", job.id)).enabled).toBe(false)
      expect(yield* advanceTo(fleet, "2025-01-06T04:30:00.000Z")).toEqual([])
    }))

  it.scoped("replacing a job re-plans the sleeping runner, earlier or later", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "lock", cron: "0 4 * * *" }))
      yield* settle
      // Earlier than what the runner sleeps towards.
      yield* scheduler.replace("alpha", job.id, new ScheduledJobInput({ kind: "lock", cron: "30 3 * * *" }))
      expect(yield* advanceTo(fleet, "2025-01-06T03:30:00.000Z")).toEqual([{ at: "2025-01-06T03:30:00.000Z", op: "lock", arg: undefined }])
      // Later: nothing at 04:00 any more.
      yield* scheduler.replace("alpha", job.id, new ScheduledJobInput({ kind: "unlock", cron: "0 5 * * *" }))
      expect(yield* advanceTo(fleet, "2025-01-06T04:30:00.000Z")).toEqual([])
      expect(yield* advanceTo(fleet, "2025-01-06T05:00:00.000Z")).toEqual([{ at: "2025-01-06T05:00:00.000Z", op: "unlock", arg: undefined }])
      // Deleted: nothing the next day.
      yield* scheduler.remove("alpha", job.id)
      expect(yield* advanceTo(fleet, "2025-01-07T06:00:00.000Z")).toEqual([])
    }))

  it.scoped("missed runs during downtime are not replayed: after a restart nothing fires until the next due time", () =>
    Effect.gen(function* () {
      yield* at("2025-01-06T03:00:00.000Z")
      const fleet = yield* makeFleet({ alpha: "running" })
      const dataDir = tempDataDir()

      const first = yield* startRuntime(fleet, dataDir)
      const scheduler = yield* Effect.provide(Scheduler, first.context)
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "restart", cron: "0 * * * *", warnings: [5] }))
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "tick" }))
      yield* first.stop

      // Ten hours of downtime: about sixty messages, ten restarts and their warnings were due.
      yield* at("2025-01-06T13:07:00.000Z")
      const second = yield* startRuntime(fleet, dataDir)
      yield* Effect.addFinalizer(() => second.stop)
      yield* settle
      expect(yield* fleet.takeCalls.pipe(Effect.map((c) => [...c]))).toEqual([])
      expect(yield* Queue.size(fleet.ran)).toBe(0)
      const jobs = yield* Effect.provide(Scheduler, second.context).pipe(Effect.flatMap((s) => s.list("alpha")))
      expect(jobs.map((j) => j.lastRunAt)).toEqual([null, null])

      expect(yield* advanceTo(fleet, "2025-01-06T13:10:00.000Z")).toEqual([{ at: "2025-01-06T13:10:00.000Z", op: "rcon", arg: "say -1 tick" }])
      expect(yield* advanceTo(fleet, "2025-01-06T13:55:00.000Z")).toEqual([
        { at: "2025-01-06T13:20:00.000Z", op: "rcon", arg: "say -1 tick" },
        { at: "2025-01-06T13:30:00.000Z", op: "rcon", arg: "say -1 tick" },
        { at: "2025-01-06T13:40:00.000Z", op: "rcon", arg: "say -1 tick" },
        { at: "2025-01-06T13:50:00.000Z", op: "rcon", arg: "say -1 tick" },
        { at: "2025-01-06T13:55:00.000Z", op: "rcon", arg: "say -1 Server restart in 5 minute(s)" }
      ])
    }))

  it.scoped("a failing firing is reported and never stops the loop; kick-all kicks everyone listed", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:31:00.000Z")
      const alpha = fleet.servers.get("alpha")!
      alpha.playersReply = [
        "Players on server:",
        "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
        "--------------------------------------------------",
        "0   10.0.0.1:2304     63   80a5885ebe2420bab5e158a310fcbc7d(OK) Bravo17",
        "3   10.0.0.2:2304     40   90a5885ebe2420bab5e158a310fcbc7d(OK) Charlie (Lobby)",
        "(2 players in total)"
      ].join("\n")
      const rcon = yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "rcon", cron: "0 * * * *", command: "#shutdown" }))
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "kick-all", cron: "30 * * * *", reason: "maintenance" }))

      alpha.rconFails = true
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual([])
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: rcon.id, kind: "rcon", ok: false, error: "RCON timed out" })
      expect((yield* scheduler.list("alpha")).find((j) => j.id === rcon.id)?.lastResult).toBe("failed: RCON timed out")

      alpha.rconFails = false
      expect(yield* advanceTo(fleet, "2025-01-06T04:30:00.000Z")).toEqual([
        { at: "2025-01-06T04:30:00.000Z", op: "rcon", arg: "kick 0 maintenance" },
        { at: "2025-01-06T04:30:00.000Z", op: "rcon", arg: "kick 3 maintenance" }
      ])
      expect(yield* advanceTo(fleet, "2025-01-06T05:00:00.000Z")).toEqual([{ at: "2025-01-06T05:00:00.000Z", op: "rcon", arg: "#shutdown" }])
    }))

  it.scoped("removeServerJobs deletes one server's jobs, answers how many, and the runner never fires them", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running", beta: "running" }, "2025-01-06T03:00:00.000Z")
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "alpha" }))
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "restart", cron: "0 4 * * *", warnings: [5] }))
      yield* scheduler.create("beta", new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "beta" }))
      yield* settle

      expect(yield* scheduler.removeServerJobs("alpha")).toBe(2)
      expect(yield* scheduler.removeServerJobs("alpha")).toBe(0)
      expect(yield* scheduler.list("alpha")).toEqual([])
      expect((yield* scheduler.list("beta")).map((j) => j.message)).toEqual(["beta"])
      // The runner was sleeping towards 03:10, when both messages were due: only beta's comes.
      expect(yield* advanceTo(fleet, "2025-01-06T04:00:00.000Z")).toEqual(
        ["03:10", "03:20", "03:30", "03:40", "03:50", "04:00"].map((hm) => ({
          at: `2025-01-06T${hm}:00.000Z`,
          op: "rcon",
          arg: "say -1 beta"
        }))
      )
      const ran = [...(yield* Queue.takeAll(fleet.ran))]
      expect(ran.length).toBe(6)
      expect(ran.every((event) => event.serverId === "beta")).toBe(true)
    }))

  it.scoped("on ServerDeleted the plugin drops that server's jobs (the fake actor is still there) and keeps the others'", () =>
    Effect.gen(function* () {
      const { fleet, runtime, scheduler } = yield* setUp({ alpha: "running", beta: "running" }, "2025-01-06T03:00:00.000Z")
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "stop", cron: "0 4 * * *", warnings: [15] }))
      yield* scheduler.create("beta", new ScheduledJobInput({ kind: "lock", cron: "0 4 * * *" }))
      yield* settle

      const bus = yield* Effect.provide(EventBus, runtime.context)
      yield* bus.publish(new ServerDeleted({ serverId: "alpha", name: "Alpha" }))
      yield* settle
      expect(yield* scheduler.list("alpha")).toEqual([])
      expect((yield* scheduler.list("beta")).map((j) => j.kind)).toEqual(["lock"])

      // No warning at 03:45 and no stop at 04:00 for alpha; beta's lock still runs.
      expect(yield* advanceTo(fleet, "2025-01-06T03:45:00.000Z")).toEqual([])
      expect(yield* advanceTo(fleet, "2025-01-07T05:00:00.000Z")).toEqual([
        { at: "2025-01-06T04:00:00.000Z", op: "lock", arg: undefined },
        { at: "2025-01-07T04:00:00.000Z", op: "lock", arg: undefined }
      ])
      expect(fleet.servers.get("alpha")?.status).toBe("running")
      expect([...(yield* Queue.takeAll(fleet.ran))].map((event) => event.serverId)).toEqual(["beta", "beta"])
    }))
})
