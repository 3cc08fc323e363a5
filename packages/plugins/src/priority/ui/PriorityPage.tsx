/** The VIP priority queue: list, add, change role or expiry, remove, import, export, clean up expired. */
import { useRef, useState } from "react"
import * as Schema from "effect/Schema"
import { api } from "@dashboard/api/client.js"
import { downloadJson, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { PRIORITY_ROLES, PriorityEntry, PriorityEntryInput, PriorityEntryPatch, type PriorityImportResult } from "../contract/Api.js"

/** What the expiry field holds, as the API reads it (`30d`, `2027-01-31`, a date-time), or null for permanent. */
const expiryOf = (text: string): string | null => (text.trim() === "" ? null : text.trim())

const PriorityPage = () => {
  const entries = useResource(() => api((c) => c.priority.list({ urlParams: { limit: 1000 } })), [])
  const feedback = useFeedback()
  const [platformId, setPlatformId] = useState("")
  const [playerName, setPlayerName] = useState("")
  const [role, setRole] = useState<string>(PRIORITY_ROLES[0])
  const [expires, setExpires] = useState("")
  const [result, setResult] = useState<PriorityImportResult | undefined>()
  const file = useRef<HTMLInputElement>(null)
  const add = useSubmit(async () => {
    const payload = Schema.decodeUnknownSync(PriorityEntryInput)({ platformId, playerName, role, expiresAt: expiryOf(expires) })
    await api((c) => c.priority.add({ payload }))
    setPlatformId("")
    setPlayerName("")
    setExpires("")
    await entries.reload()
  }, "Added to the priority queue")
  const patch = (id: string, fields: Record<string, unknown>) =>
    api((c) => c.priority.update({ path: { id }, payload: Schema.decodeUnknownSync(PriorityEntryPatch)(fields) })).then(() => entries.reload())

  return (
    <section className="stack">
      <h1>Priority queue</h1>
      <div className="row">
        <ActionButton
          run={async () => {
            const r = await api((c) => c.priority.cleanup())
            feedback.ok(`Removed ${r.removed} expired; ${r.remaining} remain`)
            await entries.reload()
          }}
        >
          Remove expired
        </ActionButton>
        <ActionButton
          run={async () => downloadJson(`priority-queue-${new Date().toISOString().slice(0, 10)}.json`, Schema.encodeSync(Schema.Array(PriorityEntry))(await api((c) => c.priority.export())))}
        >
          Export
        </ActionButton>
        <label>
          Import (JSON array)
          <input
            ref={file}
            type="file"
            accept="application/json,.json"
            onChange={async (e) => {
              const chosen = e.target.files?.[0]
              if (chosen === undefined) return
              try {
                const parsed: unknown = JSON.parse(await chosen.text())
                if (!Array.isArray(parsed)) throw new Error("the file must hold a JSON array")
                setResult(await api((c) => c.priority.import({ payload: parsed })))
                await entries.reload()
              } catch (error) {
                feedback.error(error)
              } finally {
                if (file.current !== null) file.current.value = ""
              }
            }}
          />
        </label>
      </div>
      {result !== undefined && (
        <div className="notice" role="status">
          Import done: <strong>{result.added}</strong> added, <strong>{result.skipped}</strong> skipped, <strong>{result.errors.length}</strong> refused.
          {result.errors.length > 0 && (
            <ul>
              {result.errors.slice(0, 50).map((error) => (
                <li key={error.index}>
                  Entry {error.index + 1}: {error.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <Loaded resource={entries}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="notice">The queue is empty.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Priority queue</caption>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Role</th>
                    <th scope="col">Expires</th>
                    <th scope="col" className="hide-narrow">Added</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((entry) => (
                    <tr key={entry.id}>
                      <td>
                        {entry.playerName}
                        {entry.source === "purchase" && (
                          <>
                            {" "}
                            <span className="badge" title="Bought in the VIP store">
                              purchase
                            </span>
                          </>
                        )}
                        <div className="muted mono">{entry.platformId}</div>
                      </td>
                      <td>
                        <select aria-label={`Role of ${entry.playerName}`} value={entry.role} onChange={(e) => void patch(entry.id, { role: e.target.value }).catch(feedback.error)}>
                          {PRIORITY_ROLES.map((r) => (
                            <option key={r}>{r}</option>
                          ))}
                        </select>
                      </td>
                      <td>{entry.expiresAt === null ? "never" : formatTime(entry.expiresAt)}</td>
                      <td className="hide-narrow">
                        {formatTime(entry.addedAt)} by {entry.addedBy}
                      </td>
                      <td>
                        <ActionButton
                          run={() => api((c) => c.priority.remove({ path: { id: entry.id } })).then(() => entries.reload())}
                          confirm={{ title: `Remove ${entry.playerName} from the queue?`, confirmLabel: "Remove", danger: true }}
                          done="Removed"
                        >
                          Remove<span className="sr-only"> {entry.playerName}</span>
                        </ActionButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <form className="card stack" onSubmit={add.submit} aria-labelledby="add-priority">
        <h2 id="add-priority">Add a player</h2>
        <div className="grid">
          <label>
            Player id (Steam64)
            <input value={platformId} onChange={(e) => setPlatformId(e.target.value.trim())} required />
          </label>
          <label>
            Player name
            <input value={playerName} onChange={(e) => setPlayerName(e.target.value)} required />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value)}>
              {PRIORITY_ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          <label>
            Expires (30d, 12h, a date or date-time in UTC; empty: permanent)
            <input value={expires} onChange={(e) => setExpires(e.target.value)} />
          </label>
        </div>
        <div>
          <SubmitButton busy={add.busy} busyLabel="Adding">Add</SubmitButton>
        </div>
      </form>
    </section>
  )
}

export default PriorityPage
