/**
 * Install and update jobs as `GET /api/mods/install-status` shows them:
 * kept in memory while they run and for an hour after they end (a restart
 * of the controller forgets finished ones; a running one is interrupted
 * with the controller and leaves the server's files as they were).
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { randomUUID } from "node:crypto"
import { type Mod, ModJob } from "../contract/Api.js"

/** How long an ended job stays listed. */
export const ENDED_JOB_TTL = Duration.hours(1)

type Fields = Partial<Pick<ModJob, "state" | "percent" | "bytes" | "totalBytes" | "message">>

export interface JobHandle {
  readonly id: string
  readonly progress: (fields: Fields) => Effect.Effect<void>
  readonly done: (mod: Mod, message: string) => Effect.Effect<void>
  readonly failed: (error: string) => Effect.Effect<void>
}

export const makeJobs = Effect.gen(function* () {
  const jobs = yield* SubscriptionRef.make<ReadonlyMap<string, ModJob>>(new Map())
  const endings = new Map<string, Deferred.Deferred<ModJob>>()
  const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

  const set = (id: string, f: (job: ModJob) => ModJob) =>
    SubscriptionRef.update(jobs, (all) => {
      const job = all.get(id)
      if (job === undefined) return all
      const next = new Map(all)
      next.set(id, f(job))
      return next
    })

  const end = (id: string, fields: Partial<ModJob>) =>
    Effect.gen(function* () {
      const endedAt = yield* iso
      yield* set(id, (job) => new ModJob({ ...job, ...fields, endedAt }))
      const job = (yield* SubscriptionRef.get(jobs)).get(id)
      const ending = endings.get(id)
      endings.delete(id)
      if (job !== undefined && ending !== undefined) yield* Deferred.succeed(ending, job)
    })

  return {
    begin: (kind: ModJob["kind"], serverId: string, workshopId: string) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const job = new ModJob({
          id,
          kind,
          serverId,
          workshopId,
          state: "queued",
          percent: 0,
          bytes: 0,
          totalBytes: null,
          message: "waiting for SteamCMD",
          error: null,
          startedAt: yield* iso,
          endedAt: null,
          mod: null
        })
        endings.set(id, yield* Deferred.make<ModJob>())
        yield* SubscriptionRef.update(jobs, (all) => new Map(all).set(id, job))
        const handle: JobHandle = {
          id,
          progress: (fields) => set(id, (current) => new ModJob({ ...current, ...fields })),
          done: (mod, message) => end(id, { state: "done", percent: 100, mod, message }),
          failed: (error) => end(id, { state: "failed", error, message: error })
        }
        return { job, handle }
      }),
    /** Running jobs and those ended within the hour, newest first. */
    list: Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const all = yield* SubscriptionRef.get(jobs)
      const kept = [...all.values()].filter((job) => job.endedAt === null || now - Date.parse(job.endedAt) < Duration.toMillis(ENDED_JOB_TTL))
      // Only a prune is a change (followers see every change).
      if (kept.length < all.size) yield* SubscriptionRef.set(jobs, new Map(kept.map((job) => [job.id, job])))
      return kept.sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    }),
    /** The job once it ended (at once when it has). */
    awaitEnd: (id: string) =>
      Effect.suspend(() => {
        const ending = endings.get(id)
        if (ending !== undefined) return Deferred.await(ending)
        return Effect.flatMap(SubscriptionRef.get(jobs), (all) => {
          const job = all.get(id)
          return job === undefined ? Effect.dieMessage(`no mod job ${id}`) : Effect.succeed(job)
        })
      }),
    /**
     * Every change of the jobs (the running ones and those ended in the
     * hour, newest first), from now, until none runs: what
     * `GET /api/mods/install-status/events` streams.
     */
    follow: Stream.unwrap(
      Effect.map(SubscriptionRef.get(jobs), (now) => {
        const running = (all: ReadonlyMap<string, ModJob>) => [...all.values()].some((job) => job.endedAt === null)
        const listed = (all: ReadonlyMap<string, ModJob>) => [...all.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        return running(now)
          ? jobs.changes.pipe(Stream.takeUntil((all) => !running(all)), Stream.map(listed))
          : Stream.make(listed(now))
      })
    ),
    /** Whether a job for this server and item is queued or running. */
    active: (serverId: string, workshopId: string) =>
      Effect.map(SubscriptionRef.get(jobs), (all) => [...all.values()].some((j) => j.serverId === serverId && j.workshopId === workshopId && j.endedAt === null))
  }
})

export type Jobs = Effect.Effect.Success<typeof makeJobs>
