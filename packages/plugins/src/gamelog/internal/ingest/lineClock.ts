/**
 * The instant of an admin-log line. Lines carry only `HH:MM:SS`; the date
 * comes from the file's `AdminLog started on <date> at <time>` header, else
 * from the `DayZServer_x64_<YYYY-MM-DD_HH-MM-SS>.ADM` name, else from the
 * file's modification day. A time more than an hour before the previous
 * line's is the next day (a server running past midnight). Times are the
 * game host's local time, read in the controller's time zone (the agent
 * and the controller share the host, or their zone): see README.
 */

export interface LineClockState {
  /** `YYYY-MM-DD` the current day-0 belongs to, or null until known. */
  readonly logDate: string | null
  /** Seconds of day of the last timed line, or null. */
  readonly lastSeconds: number | null
  /** Days past `logDate` (midnights crossed). */
  readonly dayShift: number
}

export const initialClock = (logDate: string | null): LineClockState => ({ logDate, lastSeconds: null, dayShift: 0 })

const STAMP = /(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})/

/** The date in a log file's name (`DayZServer_x64_2026-11-21_18-00-00.ADM`), or null. */
export const dateOfFileName = (name: string): string | null => {
  const match = STAMP.exec(name)
  return match === null ? null : `${match[1]}-${match[2]}-${match[3]}`
}

/** The time in a log file's name as epoch ms (local time), or null: orders a folder's files. */
export const stampOfFileName = (name: string): number | null => {
  const match = STAMP.exec(name)
  if (match === null) return null
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number]
  const at = new Date(y, mo - 1, d, h, mi, s).getTime()
  return Number.isFinite(at) ? at : null
}

/** A day back across midnight only when the clock went back more than this. */
const ROLLOVER_SECONDS = 3600

/** The last day's midnight (epoch ms), and whether the day is 24 hours long: a line's instant is then one addition. */
let lastDay: { readonly logDate: string; readonly dayShift: number; readonly midnight: number; readonly plain: boolean } | undefined

const instantOf = (logDate: string, dayShift: number, seconds: number): number => {
  let day = lastDay
  if (day === undefined || day.logDate !== logDate || day.dayShift !== dayShift) {
    const [y, m, d] = logDate.split("-").map(Number) as [number, number, number]
    const midnight = new Date(y, m - 1, d + dayShift).getTime()
    // A day the clocks change on (23 or 25 hours) is computed line by line.
    day = lastDay = { logDate, dayShift, midnight, plain: new Date(y, m - 1, d + dayShift + 1).getTime() - midnight === 86_400_000 }
  }
  if (day.plain) return day.midnight + seconds * 1000
  const [y, m, d] = logDate.split("-").map(Number) as [number, number, number]
  return new Date(y, m - 1, d + dayShift, 0, 0, seconds).getTime()
}

/** Moves the clock to a line at `seconds` of day; answers the line's epoch ms. Changes `clock` in place (it runs once a line). */
export const advance = (clock: MutableLineClock, seconds: number, fallbackDate: string): number => {
  if (clock.logDate === null) clock.logDate = fallbackDate
  if (clock.lastSeconds !== null && seconds < clock.lastSeconds - ROLLOVER_SECONDS) clock.dayShift++
  clock.lastSeconds = seconds
  return instantOf(clock.logDate, clock.dayShift, seconds)
}

/** A clock a read moves line by line: a copy of the cursor's, stored back with the cursor. */
export type MutableLineClock = { -readonly [K in keyof LineClockState]: LineClockState[K] }

/** A header names the date from here on: day 0 again. */
export const restart = (date: string, seconds: number): LineClockState => ({ logDate: date, lastSeconds: seconds, dayShift: 0 })

/** `YYYY-MM-DD` of an instant, local time. */
export const localDate = (ms: number): string => {
  const d = new Date(ms)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`
}
