/**
 * A player's history as the companion mod answers `player.details`
 * (`{action, provider, data}`), in plain words: names, time played, first
 * and last seen as dates, kills and deaths. The mod owns the shape, so
 * fields it adds beyond the known ones are listed under their own names,
 * and times are read whether the mod sends epoch milliseconds, epoch
 * seconds or ISO text.
 */
import { Fragment } from "react"
import { formatUptime } from "@dashboard/ui/data.js"

/** A time the mod sent, as a local date; undefined when it is not one. */
export const dateOf = (value: unknown): string | undefined => {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    // Seconds since 1970 are below 10^11 until the year 5138; milliseconds are above it since 1973.
    return new Date(value < 1e11 ? value * 1000 : value).toLocaleString()
  }
  if (typeof value === "string" && value !== "" && !Number.isNaN(Date.parse(value))) return new Date(value).toLocaleString()
  return undefined
}

/** `longestKill` → "Longest kill". */
const labelOf = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const plain = (value: unknown): string => {
  if (value === null || value === undefined || value === "") return "—"
  if (typeof value === "boolean") return value ? "yes" : "no"
  if (typeof value === "number") return value.toLocaleString()
  if (typeof value === "string") return value
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(plain).join(", ")
  return Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${labelOf(key)}: ${plain(inner)}`)
    .join("; ")
}

/** The fields people look for first, in this order, with how each reads. */
const KNOWN: ReadonlyArray<readonly [key: string, label: string, show: (value: unknown) => string]> = [
  ["name", "Name", plain],
  ["names", "Names used", plain],
  ["online", "Online now", plain],
  ["platformId", "Steam64", plain],
  ["dayzId", "DayZ ID", plain],
  ["guid", "BattlEye GUID", plain],
  ["firstSeen", "First seen", (v) => dateOf(v) ?? plain(v)],
  ["lastSeen", "Last seen", (v) => dateOf(v) ?? plain(v)],
  ["sessions", "Sessions", plain],
  ["playtimeSeconds", "Time played", (v) => (typeof v === "number" ? formatUptime(v) : plain(v))],
  ["kills", "Kills", plain],
  ["deaths", "Deaths", plain],
  ["headshots", "Headshots", plain],
  ["longestKill", "Longest kill", (v) => (typeof v === "number" ? `${v.toLocaleString()} m` : plain(v))]
]

/** The mod's `data` object out of the action's answer (or the answer itself when it is bare). */
const dataOf = (answer: unknown): Record<string, unknown> | undefined => {
  if (typeof answer !== "object" || answer === null) return undefined
  const data = (answer as { readonly data?: unknown }).data
  const fields = typeof data === "object" && data !== null && !Array.isArray(data) ? data : answer
  return fields as Record<string, unknown>
}

export const PlayerDetails = ({ answer }: { readonly answer: unknown }) => {
  const data = dataOf(answer)
  if (data === undefined) return <p className="muted">The mod answered no details.</p>
  const known = new Set(KNOWN.map(([key]) => key))
  const rest = Object.keys(data).filter((key) => !known.has(key))
  return (
    <dl className="kv" aria-label="Player details">
      {KNOWN.filter(([key]) => key in data).map(([key, label, show]) => (
        <Fragment key={key}>
          <dt>{label}</dt>
          <dd>{show(data[key])}</dd>
        </Fragment>
      ))}
      {rest.map((key) => (
        <Fragment key={key}>
          <dt>{labelOf(key)}</dt>
          <dd>{/(At|Time|Seen|Date)$/.test(key) ? (dateOf(data[key]) ?? plain(data[key])) : plain(data[key])}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
