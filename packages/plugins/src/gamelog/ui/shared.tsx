/**
 * What the game-log pages share: the servers the caller may see (names for
 * ids, and a picker), and how kills, distances, ages and playtime read.
 */
import { type ReactNode, useMemo } from "react"
import { api } from "@dashboard/api/client.js"
import { useResource } from "@dashboard/ui/data.js"
import type { Kill } from "../contract/Api.js"
import type { StreamState } from "./useEventStream.js"

export interface ServerChoice {
  readonly id: string
  readonly name: string
}

/** The servers the caller may see (`GET /api/servers` answers only those), and each one's name by id. */
export const useServers = () => {
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const list = useMemo<ReadonlyArray<ServerChoice>>(() => (servers.data?.items ?? []).map((s) => ({ id: s.id, name: s.name })), [servers.data])
  const nameOf = useMemo(() => {
    const names = new Map(list.map((s) => [s.id, s.name]))
    return (id: string | null | undefined) => (id === null || id === undefined ? "—" : (names.get(id) ?? id))
  }, [list])
  return { list, nameOf, loaded: servers.data !== undefined }
}

/** A server `<select>`; `anyLabel` names the empty choice (every visible server), or leave it out to require one. */
export const ServerSelect = ({
  servers,
  value,
  onChange,
  anyLabel,
  label = "Server"
}: {
  readonly servers: ReadonlyArray<ServerChoice>
  readonly value: string
  readonly onChange: (serverId: string) => void
  readonly anyLabel?: string
  readonly label?: string
}) => (
  <label>
    {label}
    <select value={value} onChange={(e) => onChange(e.target.value)}>
      {anyLabel !== undefined && <option value="">{anyLabel}</option>}
      {anyLabel === undefined && value === "" && <option value="">Choose a server…</option>}
      {servers.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </select>
  </label>
)

export const KIND_LABELS: Record<string, string> = {
  player: "Player",
  zombie: "Infected",
  animal: "Animal",
  environment: "Environment",
  suicide: "Suicide"
}

/** `24.4 m`, or `—`. */
export const formatDistance = (metres: number | null | undefined): string => (metres === null || metres === undefined ? "—" : `${metres.toFixed(1)} m`)

/** Who or what killed: a player's name, the creature or cause, or "suicide". */
export const killerOf = (kill: Kill): string => (kill.killerKind === "suicide" ? "Suicide" : (kill.name ?? KIND_LABELS[kill.killerKind] ?? kill.killerKind))

/** `12 s`, `4 min`, `3 h`, `2 d`. */
export const formatAge = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86400) return `${Math.floor(s / 3600)} h`
  return `${Math.floor(s / 86400)} d`
}

export const formatHours = (hours: number): string => (hours < 1 ? `${Math.round(hours * 60)} min` : `${hours.toFixed(1)} h`)

export const formatRatio = (value: number): string => value.toFixed(2)

/** Whether a live stream is open: a badge and what it brings, announced politely. */
export const LiveStatus = ({ state, children }: { readonly state: StreamState; readonly children: ReactNode }) => (
  <p className="row muted" role="status">
    <span className={`badge ${state === "live" ? "status-running" : "status-starting"}`}>
      {state === "live" ? "Live" : state === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
    {children}
  </p>
)
