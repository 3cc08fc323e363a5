/**
 * Watching a player: any id form (DayZ ID, Steam64, Steam2, Steam3; the
 * API refuses anything else with a message) and a note. `?player=` in the
 * page's address fills the player in (the player history links here).
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { WatchlistEntry } from "../contract/Api.js"

const playerInAddress = (): string => new URLSearchParams(window.location.search).get("player") ?? ""

export const AddEntryForm = ({ onAdded }: { readonly onAdded: (entry: WatchlistEntry) => Promise<void> | void }) => {
  const [player, setPlayer] = useState(playerInAddress)
  const [note, setNote] = useState("")
  const add = useSubmit(async () => {
    const entry = await api((c) => c.watchlist.add({ payload: { player: player.trim(), note: note.trim() } }))
    setPlayer("")
    setNote("")
    await onAdded(entry)
  }, "Player added to the watchlist")
  return (
    <form className="card stack" onSubmit={add.submit} aria-labelledby="watch-add-title">
      <h2 id="watch-add-title">Watch a player</h2>
      <p className="muted">When the player connects to a server, everyone who may view that server is notified.</p>
      <label>
        Player (DayZ ID, Steam64, Steam2 or Steam3)
        <input value={player} onChange={(e) => setPlayer(e.target.value)} required maxLength={100} autoComplete="off" spellCheck={false} />
      </label>
      <label>
        Note
        <textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} placeholder="Why this player is watched" />
      </label>
      <div className="row">
        <SubmitButton busy={add.busy} busyLabel="Adding">
          Add to the watchlist
        </SubmitButton>
      </div>
    </form>
  )
}
