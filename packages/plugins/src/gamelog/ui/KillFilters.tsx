/** The kill feed's filters: server, player (any id form), killer kind and a time window; applied on submit. */
import { useState } from "react"
import { KILLER_KINDS } from "../contract/Api.js"
import { KIND_LABELS, type ServerChoice, ServerSelect } from "./shared.js"

export interface KillFilterValues {
  readonly serverId: string
  readonly player: string
  readonly kind: "" | (typeof KILLER_KINDS)[number]
  /** `datetime-local` values (local time), or "". */
  readonly since: string
  readonly until: string
}

export const NO_KILL_FILTERS: KillFilterValues = { serverId: "", player: "", kind: "", since: "", until: "" }

/** The filters as `GET /api/killfeed` takes them. */
export const killParamsOf = (f: KillFilterValues) => ({
  ...(f.serverId === "" ? {} : { serverId: f.serverId }),
  ...(f.player.trim() === "" ? {} : { player: f.player.trim() }),
  ...(f.kind === "" ? {} : { kind: f.kind }),
  ...(f.since === "" ? {} : { since: new Date(f.since) }),
  ...(f.until === "" ? {} : { until: new Date(f.until) })
})

export const KillFilters = ({
  servers,
  applied,
  onApply
}: {
  readonly servers: ReadonlyArray<ServerChoice>
  readonly applied: KillFilterValues
  readonly onApply: (filters: KillFilterValues) => void
}) => {
  const [draft, setDraft] = useState<KillFilterValues>(applied)
  return (
    <form
      className="card grid"
      aria-label="Filter the kill feed"
      onSubmit={(e) => {
        e.preventDefault()
        onApply(draft)
      }}
    >
      <ServerSelect servers={servers} value={draft.serverId} onChange={(serverId) => setDraft({ ...draft, serverId })} anyLabel="All servers" />
      <label>
        Player (DayZ ID, Steam64, Steam2 or Steam3)
        <input value={draft.player} onChange={(e) => setDraft({ ...draft, player: e.target.value })} maxLength={100} autoComplete="off" spellCheck={false} />
      </label>
      <label>
        Killed by
        <select value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as KillFilterValues["kind"] })}>
          <option value="">Anything</option>
          {KILLER_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind] ?? kind}
            </option>
          ))}
        </select>
      </label>
      <label>
        Since
        <input type="datetime-local" value={draft.since} onChange={(e) => setDraft({ ...draft, since: e.target.value })} />
      </label>
      <label>
        Until
        <input type="datetime-local" value={draft.until} onChange={(e) => setDraft({ ...draft, until: e.target.value })} />
      </label>
      <div className="row">
        <button type="submit" className="primary">
          Filter
        </button>
        <button type="button" onClick={() => (setDraft(NO_KILL_FILTERS), onApply(NO_KILL_FILTERS))}>
          Clear
        </button>
      </div>
    </form>
  )
}
