/**
 * Cron expressions through croner, used only as a calculator: a `Cron`
 * built without a callback never starts a timer, so `Clock` (and TestClock)
 * alone decides when Garrison acts.
 */
import { Cron } from "croner"
import * as Either from "effect/Either"
import { InvalidScheduledJob } from "../errors.js"
import { errorMessage } from "@garrison/runtime"

/** IANA names ("Europe/Berlin", "UTC", "Etc/GMT+5"); not raw offsets, which DST would make wrong. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/

export const checkTimeZone = (timeZone: string): Either.Either<string, InvalidScheduledJob> => {
  const invalid = new InvalidScheduledJob({ field: "timeZone", message: `timeZone: "${timeZone}" is not an IANA time zone` })
  if (!IANA_NAME.test(timeZone)) return Either.left(invalid)
  return Either.try({
    try: () => new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone,
    catch: () => invalid
  }).pipe(Either.map(() => timeZone))
}

/** Five fields (minute hour day month weekday) or a nickname such as `@daily`; no seconds field, so no job floods a server. */
const fieldCount = (expression: string) => expression.trim().split(/\s+/).length

export const compile = (expression: string, timeZone: string): Either.Either<Cron, InvalidScheduledJob> =>
  Either.flatMap(checkTimeZone(timeZone), () => {
    const trimmed = expression.trim()
    if (!trimmed.startsWith("@") && fieldCount(trimmed) !== 5) {
      return Either.left(
        new InvalidScheduledJob({ field: "cron", message: "cron: expected five fields (minute hour day month weekday) or a nickname like @daily" })
      )
    }
    return Either.try({
      try: () => new Cron(trimmed, { timezone: timeZone }),
      catch: (error) =>
        new InvalidScheduledJob({ field: "cron", message: `cron: ${errorMessage(error)}` })
    })
  })

/** The first run strictly after `after` (epoch ms), or undefined when the expression never matches again. */
export const nextRunAfter = (cron: Cron, after: number): number | undefined => {
  const next = cron.nextRun(new Date(after))
  return next === null ? undefined : next.getTime()
}

/** Compiles and checks that the expression matches at least once after `now` (`0 0 31 2 *` never does). */
export const validate = (expression: string, timeZone: string, now: number): Either.Either<Cron, InvalidScheduledJob> =>
  Either.flatMap(compile(expression, timeZone), (cron) =>
    nextRunAfter(cron, now) === undefined
      ? Either.left(new InvalidScheduledJob({ field: "cron", message: "cron: the expression never matches" }))
      : Either.right(cron)
  )
