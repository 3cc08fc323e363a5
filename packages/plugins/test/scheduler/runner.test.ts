/**
 * The runner on TestClock: the kernel, the scheduler plugin and fake
 * servers in-process; the clock only moves when a test moves it.
 *
 * The clock moves one planned moment at a time, and only once the runner
 * has done with the last one: it sleeps again until the next moment the
 * scheduler lists, and each firing due has left its trace (a run its
 * `ScheduledJobRan` event, a warning to a running server its broadcast).
 * So every firing happens and is recorded at its own time on either engine
 * (PostgreSQL's round trips take real time, where SQLite answered within a
 * few yields), with no wall-clock pause deciding anything.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus, ServerDeleted } from "@garrison/runtime"
import { auditRecorder, eventually, sleepingUntil } from "@garrison/testkit"
import { Clock, Effect, Queue, TestClock } from "effect"
import { Scheduler, ScheduledJobInput } from "../../src/scheduler/index.js"
import { type Fleet, makeFleet, startRuntime, tempDataDir } from "./support.js"

type SchedulerShape = Effect.Effect.Success<typeof Scheduler>

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

interface Moment {
  readonly at: number
  readonly serverId: string
  /** A run (which always publishes `ScheduledJobRan`), or a warning (a broadcast, to a running server only). */
  readonly run: boolean
}

/** What the runner plans after `now`, as the scheduler lists it: every enabled job's next run and its warnings, earliest first. */
const planned = (fleet: Fleet, scheduler: SchedulerShape, now: number) =>
  Effect.map(Effect.orDie(Effect.forEach([...fleet.servers.keys()], (id) => scheduler.list(id))), (lists) =>
    lists
      .flat()
      .filter((job) => job.enabled)
      .flatMap((job): ReadonlyArray<Moment> => [
        ...(job.nextRunAt === null ? [] : [{ at: Date.parse(job.nextRunAt), serverId: job.serverId, run: true }]),
        ...job.nextWarnings.map((w) => ({ at: Date.parse(w.at), serverId: job.serverId, run: false }))
      ])
      .filter((moment) => moment.at > now)
      .sort((a, b) => a.at - b.at)
  )

/**
 * Waits until the runner is idle: asleep until the earliest planned moment (or, with nothing planned, waiting
 * for a change). Answers the plan.
 */
const settled = (fleet: Fleet, scheduler: SchedulerShape) =>
  Effect.gen(function* () {
    const plan = yield* planned(fleet, scheduler, yield* Clock.currentTimeMillis)
    const next = plan[0]
    if (next !== undefined) yield* sleepingUntil(next.at)
    return plan
  })

/** The traces a firing leaves when done: `ScheduledJobRan` events, and the commands each server was sent. */
const traces = (fleet: Fleet) =>
  Effect.map(Queue.size(fleet.ran), (ran) => ({ ran, commands: new Map([...fleet.servers].map(([id, s]) => [id, s.commands.length])) }))

/**
 * Moves the clock to `iso` one planned moment at a time (see the top), and returns what the servers were asked
 * meanwhile.
 */
const advanceTo = (fleet: Fleet, scheduler: SchedulerShape, iso: string) =>
  Effect.gen(function* () {
    const target = Date.parse(iso)
    for (;;) {
      const plan = yield* settled(fleet, scheduler)
      const next = plan[0]
      if (next === undefined || next.at > target) break
      const due = plan.filter((moment) => moment.at === next.at)
      const before = yield* traces(fleet)
      yield* TestClock.setTime(next.at)
      const runs = due.filter((moment) => moment.run).length
      const broadcasts = (id: string) =>
        due.filter((m) => !m.run && m.serverId === id && fleet.servers.get(id)?.status === "running" && fleet.servers.get(id)?.rconFails !== true).length
      yield* eventually(
        traces(fleet),
        (now) => now.ran >= before.ran + runs && [...now.commands].every(([id, n]) => n >= (before.commands.get(id) ?? 0) + broadcasts(id)),
        10_000,
        `the firings due at ${new Date(next.at).toISOString()}`
      )
    }
    if ((yield* Clock.currentTimeMillis) < target) yield* TestClock.setTime(target)
    return yield* fleet.takeCalls
  }).pipe(Effect.map((chunk) => [...chunk].map((c) => ({ at: c.at, op: c.op, arg: c.arg }))))

/** A fresh data directory, the fleet and a started runtime at `start`. */
const setUp = (statuses: Parameters<typeof makeFleet>[0], start: string) =>
  Effect.gen(function* () {
    yield* at(start)
    const fleet = yield* makeFleet(statuses)
    const dataDir = tempDataDir()
    const audit = auditRecorder()
    const runtime = yield* startRuntime(fleet, dataDir, [audit.plugin])
    yield* Effect.addFinalizer(() => runtime.stop)
    const scheduler = yield* Effect.provide(Scheduler, runtime.context)
    return { fleet, dataDir, runtime, scheduler, audit }
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

      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:44:59.999Z")).toEqual([])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:45:00.000Z")).toEqual([
        { at: "2025-01-06T03:45:00.000Z", op: "rcon", arg: "say -1 Server restart in 15 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:55:00.000Z")).toEqual([
        { at: "2025-01-06T03:55:00.000Z", op: "rcon", arg: "say -1 Server restart in 5 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:59:00.000Z")).toEqual([
        { at: "2025-01-06T03:59:00.000Z", op: "rcon", arg: "say -1 Server restart in 1 minute(s)" }
      ])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual([
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
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:50:00.000Z")).toEqual([
        { at: "2025-01-06T03:50:00.000Z", op: "rcon", arg: "say -1 Wartung in 10 Min. (10)" }
      ])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual([{ at: "2025-01-06T04:00:00.000Z", op: "stop", arg: undefined }])
    }))

  it.scoped("a stopped server gets no warnings and is not restarted (nor started)", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ beta: "stopped" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("beta", restartJob)
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual([])
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: job.id, ok: true, skipped: "server not running" })
      expect(fleet.servers.get("beta")?.status).toBe("stopped")
      const [after] = yield* scheduler.list("beta")
      expect(after).toMatchObject({ lastRunAt: "2025-01-06T04:00:00.000Z", lastResult: "skipped: server not running" })
    }))

  it.scoped("without the rollout plugin, which provides ScheduledUpdates, an apply-updates run fails saying what to load", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ beta: "stopped" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("beta", new ScheduledJobInput({ kind: "apply-updates", cron: "0 4 * * *", timeZone: "UTC" }))
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual([])
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
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:35:00.000Z")).toEqual([])

      const enabled = yield* scheduler.toggle("alpha", job.id)
      expect(enabled).toMatchObject({ enabled: true, nextRunAt: "2025-01-06T03:40:00.000Z" })
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:40:00.000Z")).toEqual([
        { at: "2025-01-06T03:40:00.000Z", op: "rcon", arg: "say -1 hello" }
      ])

      expect((yield* scheduler.toggle("alpha", job.id)).enabled).toBe(false)
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:30:00.000Z")).toEqual([])
    }))

  it.scoped("replacing a job re-plans the sleeping runner, earlier or later", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running" }, "2025-01-06T03:00:00.000Z")
      const job = yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "lock", cron: "0 4 * * *" }))
      // The runner sleeps towards 04:00.
      yield* settled(fleet, scheduler)
      // Earlier than what the runner sleeps towards.
      yield* scheduler.replace("alpha", job.id, new ScheduledJobInput({ kind: "lock", cron: "30 3 * * *" }))
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:30:00.000Z")).toEqual([{ at: "2025-01-06T03:30:00.000Z", op: "lock", arg: undefined }])
      // Later: nothing at 04:00 any more.
      yield* scheduler.replace("alpha", job.id, new ScheduledJobInput({ kind: "unlock", cron: "0 5 * * *" }))
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:30:00.000Z")).toEqual([])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T05:00:00.000Z")).toEqual([{ at: "2025-01-06T05:00:00.000Z", op: "unlock", arg: undefined }])
      // Deleted: nothing the next day.
      yield* scheduler.remove("alpha", job.id)
      expect(yield* advanceTo(fleet, scheduler, "2025-01-07T06:00:00.000Z")).toEqual([])
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
      const again = yield* Effect.provide(Scheduler, second.context)
      // The runner planned from now: it sleeps towards 13:10, the next message, having fired nothing.
      expect((yield* settled(fleet, again))[0]?.at).toBe(Date.parse("2025-01-06T13:10:00.000Z"))
      expect(yield* fleet.takeCalls.pipe(Effect.map((c) => [...c]))).toEqual([])
      expect(yield* Queue.size(fleet.ran)).toBe(0)
      const jobs = yield* again.list("alpha")
      expect(jobs.map((j) => j.lastRunAt)).toEqual([null, null])

      expect(yield* advanceTo(fleet, again, "2025-01-06T13:10:00.000Z")).toEqual([{ at: "2025-01-06T13:10:00.000Z", op: "rcon", arg: "say -1 tick" }])
      expect(yield* advanceTo(fleet, again, "2025-01-06T13:55:00.000Z")).toEqual([
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
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual([])
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: rcon.id, kind: "rcon", ok: false, error: "RCON timed out" })
      expect((yield* scheduler.list("alpha")).find((j) => j.id === rcon.id)?.lastResult).toBe("failed: RCON timed out")

      alpha.rconFails = false
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:30:00.000Z")).toEqual([
        { at: "2025-01-06T04:30:00.000Z", op: "rcon", arg: "kick 0 maintenance" },
        { at: "2025-01-06T04:30:00.000Z", op: "rcon", arg: "kick 3 maintenance" }
      ])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T05:00:00.000Z")).toEqual([{ at: "2025-01-06T05:00:00.000Z", op: "rcon", arg: "#shutdown" }])
    }))

  it.scoped("each action run writes one audit row: actor scheduler, server.<kind>, success or failure, the job and its maker; a skipped run none", () =>
    Effect.gen(function* () {
      const { audit, fleet, scheduler } = yield* setUp({ alpha: "running", beta: "stopped" }, "2025-01-06T03:00:00.000Z")
      const alice = { id: "u-1", name: "alice" }
      const restart = yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "restart", cron: "0 4 * * *" }), alice)
      yield* scheduler.create("beta", new ScheduledJobInput({ kind: "restart", cron: "0 4 * * *" }), alice)
      const message = yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "message", cron: "5 4 * * *", message: "Vote for us" }))

      yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")
      // Both runs were recorded (their events); beta's was skipped (stopped), so only alpha's restart acted.
      expect((yield* Queue.takeAll(fleet.ran)).length).toBe(2)
      expect(audit.rows).toEqual([
        {
          actor: "scheduler",
          actorName: null,
          ip: null,
          action: "server.restart",
          target: "alpha",
          result: "success",
          details: {
            jobId: restart.id,
            kind: "restart",
            cron: "0 4 * * *",
            timeZone: "UTC",
            dueAt: "2025-01-06T04:00:00.000Z",
            createdBy: { id: "u-1", name: "alice" }
          }
        }
      ])

      fleet.servers.get("alpha")!.rconFails = true
      yield* advanceTo(fleet, scheduler, "2025-01-06T04:05:00.000Z")
      expect(yield* Queue.take(fleet.ran)).toMatchObject({ jobId: message.id, ok: false })
      expect(audit.rows).toHaveLength(2)
      expect(audit.rows[1]).toMatchObject({
        actor: "scheduler",
        action: "server.message",
        target: "alpha",
        result: "failure",
        details: { jobId: message.id, kind: "message", createdBy: null, error: "RCON timed out" }
      })
    }))

  it.scoped("removeServerJobs deletes one server's jobs, answers how many, and the runner never fires them", () =>
    Effect.gen(function* () {
      const { fleet, scheduler } = yield* setUp({ alpha: "running", beta: "running" }, "2025-01-06T03:00:00.000Z")
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "alpha" }))
      yield* scheduler.create("alpha", new ScheduledJobInput({ kind: "restart", cron: "0 4 * * *", warnings: [5] }))
      yield* scheduler.create("beta", new ScheduledJobInput({ kind: "message", cron: "*/10 * * * *", message: "beta" }))
      // The runner sleeps towards 03:10, when the three were planned.
      yield* settled(fleet, scheduler)

      expect(yield* scheduler.removeServerJobs("alpha")).toBe(2)
      expect(yield* scheduler.removeServerJobs("alpha")).toBe(0)
      expect(yield* scheduler.list("alpha")).toEqual([])
      expect((yield* scheduler.list("beta")).map((j) => j.message)).toEqual(["beta"])
      // The runner was sleeping towards 03:10, when both messages were due: only beta's comes.
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T04:00:00.000Z")).toEqual(
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
      // The runner sleeps towards 03:45, alpha's warning.
      expect((yield* settled(fleet, scheduler))[0]?.at).toBe(Date.parse("2025-01-06T03:45:00.000Z"))

      const bus = yield* Effect.provide(EventBus, runtime.context)
      yield* bus.publish(new ServerDeleted({ serverId: "alpha", name: "Alpha" }))
      // The plugin's handler runs on a fiber of its own.
      expect(yield* eventually(Effect.orDie(scheduler.list("alpha")), (jobs) => jobs.length === 0, 10_000, "alpha's jobs dropped")).toEqual([])
      expect((yield* scheduler.list("beta")).map((j) => j.kind)).toEqual(["lock"])

      // No warning at 03:45 and no stop at 04:00 for alpha; beta's lock still runs.
      expect(yield* advanceTo(fleet, scheduler, "2025-01-06T03:45:00.000Z")).toEqual([])
      expect(yield* advanceTo(fleet, scheduler, "2025-01-07T05:00:00.000Z")).toEqual([
        { at: "2025-01-06T04:00:00.000Z", op: "lock", arg: undefined },
        { at: "2025-01-07T04:00:00.000Z", op: "lock", arg: undefined }
      ])
      expect(fleet.servers.get("alpha")?.status).toBe("running")
      expect([...(yield* Queue.takeAll(fleet.ran))].map((event) => event.serverId)).toEqual(["beta", "beta"])
    }))
})
