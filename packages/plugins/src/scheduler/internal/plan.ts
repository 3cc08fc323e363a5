/**
 * Which moments (runs and warnings) come next: plain functions over time in
 * epoch milliseconds, so the runner and the API agree and tests need no clock.
 */
import * as Either from "effect/Either"
import { compile, nextRunAfter } from "./cron.js"

export interface PlannedJob {
  readonly id: string
  readonly cron: string
  readonly timeZone: string
  /** Minutes before each run. */
  readonly warnings: ReadonlyArray<number>
}

/** A run (`warning` undefined) or the warning `warning` minutes before a run. */
export interface Moment {
  readonly jobId: string
  readonly at: number
  readonly warning: number | undefined
}

const MINUTE = 60_000

/**
 * Every moment of one job strictly after `after`, one per kind. The next
 * "m minutes before" warning is the run after `after + m` minus m, which
 * also holds when warnings reach back past the previous run.
 */
export const momentsAfter = (job: PlannedJob, after: number): ReadonlyArray<Moment> => {
  const compiled = compile(job.cron, job.timeZone)
  // A row that no longer compiles (edited by hand) is ignored rather than stopping every other job.
  if (Either.isLeft(compiled)) return []
  const cron = compiled.right
  const moments: Array<Moment> = []
  const run = nextRunAfter(cron, after)
  if (run !== undefined) moments.push({ jobId: job.id, at: run, warning: undefined })
  for (const minutes of job.warnings) {
    const target = nextRunAfter(cron, after + minutes * MINUTE)
    if (target !== undefined) moments.push({ jobId: job.id, at: target - minutes * MINUTE, warning: minutes })
  }
  return moments
}

/** All moments at the earliest time strictly after `after`, across jobs; empty when nothing is planned. */
export const earliestAfter = (jobs: ReadonlyArray<PlannedJob>, after: number): ReadonlyArray<Moment> => {
  let earliest: Array<Moment> = []
  for (const job of jobs) {
    for (const moment of momentsAfter(job, after)) {
      const current = earliest[0]
      if (current === undefined || moment.at < current.at) earliest = [moment]
      else if (moment.at === current.at) earliest.push(moment)
    }
  }
  return earliest
}

export interface Upcoming {
  readonly nextRun: number | undefined
  /** The warnings still to come before `nextRun`, earliest first. */
  readonly warnings: ReadonlyArray<{ readonly minutes: number; readonly at: number }>
}

/** What the API shows: the next run after `now` and its remaining warnings. */
export const upcoming = (job: PlannedJob, now: number): Upcoming => {
  const compiled = compile(job.cron, job.timeZone)
  if (Either.isLeft(compiled)) return { nextRun: undefined, warnings: [] }
  const nextRun = nextRunAfter(compiled.right, now)
  if (nextRun === undefined) return { nextRun, warnings: [] }
  const warnings = [...job.warnings]
    .sort((a, b) => b - a)
    .map((minutes) => ({ minutes, at: nextRun - minutes * MINUTE }))
    .filter((warning) => warning.at > now)
  return { nextRun, warnings }
}
