/**
 * Install and update jobs as `GET /api/mods/install-status` shows them:
 * listed while they run and for an hour after they end. Progress lives in
 * memory; each job's start and end are also rows of `mod_jobs`, so a
 * restart keeps the hour's ended jobs, and a job the controller was cut
 * off in (a crash, a stop) shows as `interrupted` instead of vanishing. An
 * interrupted job left the server's files as they were: mods are swapped
 * in by renames at the very end (`folders.ts`).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { randomUUID } from "node:crypto"
import { type Mod, ModJob } from "../contract/Api.js"
import { type ModStoreError, storeError } from "../errors.js"

/** How long an ended job stays listed. */
export const ENDED_JOB_TTL = Duration.hours(1)

type Fields = Partial<Pick<ModJob, "state" | "percent" | "bytes" | "totalBytes" | "message">>

export interface JobHandle {
  readonly id: string
  readonly progress: (fields: Fields) => Effect.Effect<void>
  /** The end, shown and awaited at once; `ModStoreError` when its row could not be written (a restart would not find it ended). */
  readonly done: (mod: Mod, message: string) => Effect.Effect<void, ModStoreError>
  readonly failed: (error: string) => Effect.Effect<void, ModStoreError>
  /** The controller is stopping under it (a restart finds the jobs a crash cut off the same way). */
  readonly interrupted: Effect.Effect<void, ModStoreError>
}

const JobJson = Schema.parseJson(ModJob)
const encodeJob = Schema.encodeSync(JobJson)
const decodeJob = Schema.decodeUnknownOption(JobJson)

/** What an interrupted job says. */
export const INTERRUPTED = "the controller stopped while this job ran; the server's files were left as they were"

/**
 * The jobs of the last hour from `mod_jobs`: one left running by the last
 * controller becomes `interrupted` (stored so), older rows are removed.
 */
const recoverJobs = (sql: SqlClient.SqlClient, now: number) =>
  Effect.gen(function* () {
    const since = new Date(now - Duration.toMillis(ENDED_JOB_TTL)).toISOString()
    yield* sql`DELETE FROM mod_jobs WHERE ended_at IS NOT NULL AND ended_at < ${since}`
    const rows = yield* sql<{ readonly id: string; readonly job: string }>`SELECT id, job FROM mod_jobs`
    const recovered = new Map<string, ModJob>()
    const endedAt = new Date(now).toISOString()
    for (const row of rows) {
      const stored = decodeJob(row.job)
      if (stored._tag === "None") continue
      const job = stored.value.endedAt === null ? new ModJob({ ...stored.value, state: "interrupted", error: INTERRUPTED, message: INTERRUPTED, endedAt }) : stored.value
      if (job !== stored.value) yield* sql`UPDATE mod_jobs SET job = ${encodeJob(job)}, ended_at = ${endedAt} WHERE id = ${row.id}`
      recovered.set(job.id, job)
    }
    return recovered
  }).pipe(Effect.mapError(storeError("recover the mod jobs")))

export const makeJobs = (sql: SqlClient.SqlClient) => Effect.gen(function* () {
  const recovered = yield* recoverJobs(sql, yield* Clock.currentTimeMillis)
  const jobs = yield* SubscriptionRef.make<ReadonlyMap<string, ModJob>>(recovered)
  const endings = new Map<string, Deferred.Deferred<ModJob>>()
  const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
  /** A job's row: written when it begins and when it ends (progress stays in memory). */
  const store = (job: ModJob) =>
    sql`INSERT INTO mod_jobs (id, job, ended_at) VALUES (${job.id}, ${encodeJob(job)}, ${job.endedAt})
      ON CONFLICT (id) DO UPDATE SET job = excluded.job, ended_at = excluded.ended_at`.pipe(Effect.asVoid, Effect.mapError(storeError("record a mod job")))

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
      if (job === undefined) return
      // Whoever awaits the job hears of its end even when its row cannot be written.
      yield* store(job).pipe(Effect.ensuring(ending === undefined ? Effect.void : Deferred.succeed(ending, job)))
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
        yield* store(job)
        endings.set(id, yield* Deferred.make<ModJob>())
        yield* SubscriptionRef.update(jobs, (all) => new Map(all).set(id, job))
        const handle: JobHandle = {
          id,
          progress: (fields) => set(id, (current) => new ModJob({ ...current, ...fields })),
          done: (mod, message) => end(id, { state: "done", percent: 100, mod, message }),
          failed: (error) => end(id, { state: "failed", error, message: error }),
          interrupted: end(id, { state: "interrupted", error: INTERRUPTED, message: INTERRUPTED })
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

export type Jobs = Effect.Effect.Success<ReturnType<typeof makeJobs>>
