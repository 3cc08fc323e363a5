/** The global ban database: search, add, remove, import a file (with a result summary) and export. */
import { useRef, useState } from "react"
import * as Schema from "effect/Schema"
import { api } from "@dashboard/api/client.js"
import { downloadJson, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { Ban, BanInput, type BanStatus, type ImportResult, MAX_NAME_LENGTH } from "../contract/Api.js"

const AddBan = ({ added }: { readonly added: () => Promise<void> }) => {
  const [platformId, setPlatformId] = useState("")
  const [playerName, setPlayerName] = useState("")
  const [reason, setReason] = useState("")
  const [expiresAt, setExpiresAt] = useState("")
  const { busy, submit } = useSubmit(async () => {
    const payload = Schema.decodeUnknownSync(BanInput)({ platformId, playerName, reason, ...(expiresAt.trim() === "" ? {} : { expiresAt: expiresAt.trim() }) })
    await api((c) => c.bans.add({ payload }))
    setPlatformId("")
    setPlayerName("")
    setReason("")
    setExpiresAt("")
    await added()
  }, "Ban added")
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="add-ban">
      <h2 id="add-ban">Add a ban</h2>
      <div className="grid">
        <label>
          Player id (Steam64, Steam2 or Steam3)
          <input value={platformId} onChange={(e) => setPlatformId(e.target.value.trim())} required />
        </label>
        <label>
          Player name
          <input value={playerName} onChange={(e) => setPlayerName(e.target.value)} required maxLength={MAX_NAME_LENGTH} />
        </label>
        <label>
          Reason
          <input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
        </label>
        <label>
          Expires (7d, 12h, a date-time; empty: permanent)
          <input value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
        </label>
      </div>
      <div>
        <SubmitButton busy={busy} busyLabel="Adding">Add ban</SubmitButton>
      </div>
    </form>
  )
}

const ImportExport = ({ imported }: { readonly imported: () => Promise<void> }) => {
  const feedback = useFeedback()
  const file = useRef<HTMLInputElement>(null)
  const [result, setResult] = useState<ImportResult | undefined>()
  const [busy, setBusy] = useState(false)
  return (
    <section className="card stack" aria-labelledby="import-title">
      <h2 id="import-title">Import and export</h2>
      <div className="row">
        <label>
          Import a ban file (JSON array)
          <input
            ref={file}
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={async (e) => {
              const chosen = e.target.files?.[0]
              if (chosen === undefined) return
              setBusy(true)
              setResult(undefined)
              try {
                const parsed: unknown = JSON.parse(await chosen.text())
                const summary = await api((c) => c.bans.import({ payload: parsed }))
                setResult(summary)
                await imported()
              } catch (error) {
                feedback.error(error instanceof SyntaxError ? `not a JSON file: ${error.message}` : error)
              } finally {
                setBusy(false)
                if (file.current !== null) file.current.value = ""
              }
            }}
          />
        </label>
        {busy && <Spinner label="Importing" />}
        <ActionButton
          run={async () => {
            const bans = await api((c) => c.bans.export())
            downloadJson(`service-bans-${new Date().toISOString().slice(0, 10)}.json`, Schema.encodeSync(Schema.Array(Ban))(bans))
          }}
        >
          Export all bans
        </ActionButton>
      </div>
      {result !== undefined && (
        <div className="notice" role="status">
          <p>
            Import done: <strong>{result.added}</strong> added, <strong>{result.skipped}</strong> skipped (already banned), <strong>{result.errors.length}</strong> refused, of{" "}
            {result.total} entries.
          </p>
          {result.errors.length > 0 && (
            <ul>
              {result.errors.slice(0, 50).map((error) => (
                <li key={error.index}>
                  Entry {error.index + 1}
                  {error.platformId === undefined ? "" : ` (${error.platformId})`}: {error.error}
                </li>
              ))}
              {result.errors.length > 50 && <li>… and {result.errors.length - 50} more</li>}
            </ul>
          )}
        </div>
      )}
    </section>
  )
}

const BansPage = () => {
  const [query, setQuery] = useState("")
  const [applied, setApplied] = useState("")
  const [status, setStatus] = useState<BanStatus>("active")
  const [extra, setExtra] = useState<ReadonlyArray<Ban>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)
  const feedback = useFeedback()
  const isId = /^(\d{17}|STEAM_|\[?U:1:)/i.test(applied)
  const params = { status, limit: 100, ...(applied === "" ? {} : isId ? { platformId: applied } : { q: applied }) }
  const bans = useResource(async () => {
    const page = await api((c) => c.bans.list({ urlParams: params }))
    setExtra([])
    setCursor(page.nextCursor)
    return page
  }, [applied, status])

  const more = async () => {
    if (cursor === null) return
    setLoadingMore(true)
    try {
      const page = await api((c) => c.bans.list({ urlParams: { ...params, cursor } }))
      setExtra((all) => [...all, ...page.items])
      setCursor(page.nextCursor)
    } catch (error) {
      feedback.error(error)
    } finally {
      setLoadingMore(false)
    }
  }

  return (
    <section className="stack">
      <h1>Bans</h1>
      <form
        className="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault()
          setApplied(query.trim())
        }}
      >
        <label className="grow">
          <span className="sr-only">Search bans</span>
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Player name, reason, or player id" />
        </label>
        <label>
          <span className="sr-only">Which bans</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as BanStatus)}>
            <option value="active">Active</option>
            <option value="expired">Expired</option>
            <option value="all">All</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <Loaded resource={bans}>
        {(page) => {
          const rows = [...page.items, ...extra]
          return rows.length === 0 ? (
            <p className="notice">No bans found.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Bans</caption>
                  <thead>
                    <tr>
                      <th scope="col">Player</th>
                      <th scope="col">Reason</th>
                      <th scope="col" className="hide-narrow">By</th>
                      <th scope="col" className="hide-narrow">Banned</th>
                      <th scope="col">Expires</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((ban) => (
                      <tr key={ban.id}>
                        <td>
                          {ban.playerName}
                          <div className="muted mono">{ban.platformId}</div>
                        </td>
                        <td>{ban.reason}</td>
                        <td className="hide-narrow">
                          {ban.bannedBy} <span className="badge">{ban.source}</span>
                        </td>
                        <td className="hide-narrow">{formatTime(ban.bannedAt)}</td>
                        <td>{ban.expiresAt === null ? "never" : formatTime(ban.expiresAt)}</td>
                        <td>
                          <ActionButton
                            run={() => api((c) => c.bans.remove({ path: { id: ban.id } })).then(() => bans.reload())}
                            confirm={{ title: `Lift the ban of ${ban.playerName}?`, body: "Removed from every server's ban file.", confirmLabel: "Lift ban", danger: true }}
                            done="Ban lifted"
                          >
                            Lift<span className="sr-only"> ban of {ban.playerName}</span>
                          </ActionButton>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {cursor !== null && (
                <button type="button" onClick={() => void more()} disabled={loadingMore}>
                  {loadingMore && <Spinner label="Loading" />}Load more
                </button>
              )}
            </>
          )
        }}
      </Loaded>
      <AddBan added={bans.reload} />
      <ImportExport imported={bans.reload} />
    </section>
  )
}

export default BansPage
