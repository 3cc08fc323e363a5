/**
 * The audit trail: filter by actor, action, result and time; page through it
 * 25 rows at a time (Newer / Older: the page stays one screen tall however
 * long the trail is); check the hash chain. Rows written before actor names
 * were kept show the user's current name, looked up from the users list.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner } from "@dashboard/ui/feedback.js"
import type { AuditResult, AuditRow, VerifyReport } from "../contract/Api.js"

interface Filters {
  readonly actor: string
  readonly action: string
  readonly result: "" | AuditResult
  readonly from: string
  readonly to: string
}

const EMPTY: Filters = { actor: "", action: "", result: "", from: "", to: "" }

const PAGE_SIZE = 25

const paramsOf = (f: Filters) => ({
  limit: PAGE_SIZE,
  ...(f.actor === "" ? {} : { actor: f.actor }),
  ...(f.action === "" ? {} : { action: f.action }),
  ...(f.result === "" ? {} : { result: f.result }),
  ...(f.from === "" ? {} : { from: new Date(`${f.from}T00:00:00Z`) }),
  ...(f.to === "" ? {} : { to: new Date(`${f.to}T00:00:00Z`) })
})

/**
 * The actor's name with its id under it, as the row was written; on rows
 * from before names, the user's name now (from `names`), else the id.
 */
const Actor = ({ row, names }: { readonly row: AuditRow; readonly names: ReadonlyMap<string, string> }) => {
  const name = row.actorName ?? (row.actor === null ? undefined : names.get(row.actor))
  return name === undefined ? (
    <span className="mono">{row.actor ?? "—"}</span>
  ) : (
    <>
      {name}
      {row.actor !== null && row.actor !== name && <div className="muted mono">{row.actor}</div>}
    </>
  )
}

const AuditPage = () => {
  const [draft, setDraft] = useState<Filters>(EMPTY)
  const [filters, setFilters] = useState<Filters>(EMPTY)
  // The cursors of the pages before the one shown (the first page has none): Newer pops, Older pushes.
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const [report, setReport] = useState<VerifyReport | undefined>()
  const cursor = cursors[cursors.length - 1]
  const rows = useResource(
    () => api((c) => c.audit.list({ urlParams: { ...paramsOf(filters), ...(cursor === undefined ? {} : { cursor }) } })),
    [filters, cursor]
  )
  const users = useResource(() => api((c) => c.users.list({ urlParams: { limit: 1000 } })), [])
  const names = new Map((users.data?.items ?? []).map((user) => [user.id, user.username] as const))
  const applyFilters = (next: Filters) => {
    setFilters(next)
    setCursors([undefined])
  }

  return (
    <section className="stack">
      <h1>Audit trail</h1>
      <div className="row">
        <ActionButton run={async () => setReport(await api((c) => c.audit.verify()))}>Check the chain</ActionButton>
        {report !== undefined && (
          <p className={report.ok ? "notice" : "notice error"} role="status">
            {report.ok
              ? `Chain intact: ${report.checked} rows checked.`
              : `Chain broken at row ${report.firstBrokenId ?? "?"} (${report.reason ?? "?"}) after ${report.checked} intact rows. ${report.message ?? ""}`}
          </p>
        )}
      </div>
      <form
        className="card grid"
        onSubmit={(e) => {
          e.preventDefault()
          applyFilters(draft)
        }}
        aria-label="Filter the audit trail"
      >
        <label>
          Actor (name or id)
          <input value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })} />
        </label>
        <label>
          Action (prefix with . or *)
          <input value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })} placeholder="auth.*" />
        </label>
        <label>
          Result
          <select value={draft.result} onChange={(e) => setDraft({ ...draft, result: e.target.value as Filters["result"] })}>
            <option value="">Any</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
            <option value="denied">denied</option>
          </select>
        </label>
        <label>
          From (date)
          <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          To (date, exclusive)
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <div className="row">
          <button type="submit" className="primary">
            Filter
          </button>
          <button type="button" onClick={() => (setDraft(EMPTY), applyFilters(EMPTY))}>
            Clear
          </button>
        </div>
      </form>
      <Loaded resource={rows}>
        {(page) => {
          const all = page.items
          return all.length === 0 ? (
            <p className="notice">No audit rows match.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Audit rows, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">When</th>
                      <th scope="col">Action</th>
                      <th scope="col">Result</th>
                      <th scope="col" className="hide-narrow">Actor</th>
                      <th scope="col" className="hide-narrow">Target</th>
                      <th scope="col" className="hide-narrow">IP</th>
                    </tr>
                  </thead>
                  <tbody>
                    {all.map((row) => (
                      <tr key={row.id}>
                        <td>{row.id}</td>
                        <td>{formatTime(row.at)}</td>
                        <td>
                          <code>{row.action}</code>
                          {row.details !== null && (
                            <details>
                              <summary>details</summary>
                              <pre className="mono">{JSON.stringify(row.details, null, 2)}</pre>
                            </details>
                          )}
                        </td>
                        <td>
                          <span className={`badge ${row.result === "success" ? "status-running" : "status-crashed"}`}>{row.result}</span>
                        </td>
                        <td className="hide-narrow">
                          <Actor row={row} names={names} />
                        </td>
                        <td className="hide-narrow">{row.target ?? "—"}</td>
                        <td className="hide-narrow">{row.ip ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <nav className="row" aria-label="Audit pages">
                <button type="button" disabled={cursors.length === 1} onClick={() => setCursors((all) => all.slice(0, -1))}>
                  Newer
                </button>
                <span className="muted">
                  Page {cursors.length}
                  {rows.loading && <Spinner label="Loading" />}
                </span>
                <button
                  type="button"
                  disabled={page.nextCursor === null}
                  onClick={() => {
                    const next = page.nextCursor
                    if (next !== null) setCursors((all) => [...all, next])
                  }}
                >
                  Older
                </button>
              </nav>
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

export default AuditPage
