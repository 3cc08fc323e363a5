/**
 * A duration as a person types it where the API asks for a time ("ban for
 * 7 days"): a number and a unit, `30m`, `12h`, `7d`, `2w`, or several in a
 * row (`1d12h`, `2w 3d`). Units: `m` minutes, `h` hours, `d` days, `w`
 * weeks; upper case and spaces are fine. Months and years have no fixed
 * length, so they are not units: give days, or a date.
 */
import * as Option from "effect/Option"

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** Up to six digits per part: nothing a person types overflows, and nothing overflows by accident. */
const WHOLE = /^(?:\d{1,6}[mhdw])+$/
const PART = /(\d{1,6})([mhdw])/g

/** How a message names the form, for "expected ... or <this>". */
export const DURATION_EXAMPLES = "a duration from now such as 30m, 12h, 7d or 2w"

/** Milliseconds of `text` when it is a duration; None when it is not shaped like one (so the caller can try a date). */
export const readUserDuration = (text: string): Option.Option<number> => {
  const compact = text.replace(/\s+/g, "").toLowerCase()
  if (!WHOLE.test(compact)) return Option.none()
  let total = 0
  for (const [, amount, unit] of compact.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!
  return Option.some(total)
}
