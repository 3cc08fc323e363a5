/**
 * Submit a ban to the pool: this community's vouch for a ban of the global
 * ban list, with its category and a private note. With `bans.manage` the
 * ban is picked from the active bans (searched by player name or reason);
 * without it, the ban's id is typed (the list is not the caller's to read).
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { type PoolBanView, SubmissionInput } from "../contract/Api.js"
import { type Changes, REASON_CATEGORIES, type ReasonCategory } from "./shared.js"

const BAN_CHOICES = 100

const BanPicker = ({ value, onChange }: { readonly value: string; readonly onChange: (banId: string) => void }) => {
  const [query, setQuery] = useState("")
  const q = query.trim()
  const bans = useResource(() => api((c) => c.bans.list({ urlParams: { status: "active", limit: BAN_CHOICES, ...(q === "" ? {} : { q }) } })), [q])
  return (
    <>
      <label>
        Search the ban list
        <input type="search" value={query} onChange={(e) => {
            setQuery(e.target.value)
            // A new search is a new pick: nothing stale is sent.
            onChange("")
          }}
          placeholder="Player name or reason" maxLength={200} />
      </label>
      <Loaded resource={bans}>
        {(page) => (
          <label>
            Ban
            <select value={value} onChange={(e) => onChange(e.target.value)} required>
              <option value="">{page.items.length === 0 ? "No active ban matches" : "Choose a ban"}</option>
              {page.items.map((ban) => (
                <option key={ban.id} value={ban.id}>
                  {ban.playerName} ({ban.platformId}): {ban.reason}
                </option>
              ))}
            </select>
          </label>
        )}
      </Loaded>
    </>
  )
}

export const SubmitForm = ({ canPickBans, changes }: { readonly canPickBans: boolean; readonly changes: Changes }) => {
  const [banId, setBanId] = useState("")
  const [category, setCategory] = useState<ReasonCategory | "">("")
  const [note, setNote] = useState("")
  const [submitted, setSubmitted] = useState<PoolBanView | undefined>()
  const submit = useSubmit(async () => {
    if (category === "") return
    const trimmed = note.trim()
    const pooled = await api((c) =>
      c.trustAdmin.submit({ payload: new SubmissionInput({ banId: banId.trim(), reasonCategory: category, ...(trimmed === "" ? {} : { note: trimmed }) }) })
    )
    setSubmitted(pooled)
    setBanId("")
    setNote("")
    changes.changed()
  }, "Ban submitted to the pool")
  return (
    <form className="card stack" onSubmit={submit.submit} aria-labelledby="trust-submit">
      <h2 id="trust-submit">Submit a ban</h2>
      <p className="muted">
        Vouch for a ban of the ban list in the shared pool. Partners see the player, the category and how many communities vouched; the note and who
        submitted stay here.
      </p>
      {submitted !== undefined && (
        <p className="notice" role="status">
          Submitted: the pool ban of <span className="mono">{submitted.platformId}</span> is <strong>{submitted.status}</strong> ({submitted.vouchCount}{" "}
          {submitted.vouchCount === 1 ? "vouch" : "vouches"}).
        </p>
      )}
      <div className="grid">
        {canPickBans ? (
          <BanPicker value={banId} onChange={setBanId} />
        ) : (
          <label>
            Ban id (from the ban list)
            <input value={banId} onChange={(e) => setBanId(e.target.value)} required maxLength={100} autoComplete="off" spellCheck={false} className="mono" />
          </label>
        )}
        <label>
          Category
          <select value={category} onChange={(e) => setCategory(e.target.value as ReasonCategory | "")} required>
            <option value="">Choose a category</option>
            {REASON_CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Private note (optional, never shared)
        <textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
      </label>
      <div>
        <SubmitButton busy={submit.busy} busyLabel="Submitting">
          Submit to the pool
        </SubmitButton>
      </div>
    </form>
  )
}
