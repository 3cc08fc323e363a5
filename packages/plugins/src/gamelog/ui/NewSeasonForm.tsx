/**
 * Starting a new leaderboard season on one server (`leaderboard.manage` on
 * it): the current season ends, kills from now on count in the next, and
 * past seasons stay readable in the season picker.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import type { Season } from "../contract/Api.js"

export const NewSeasonForm = ({
  serverId,
  serverName,
  onStarted,
  onCancel
}: {
  readonly serverId: string
  readonly serverName: string
  readonly onStarted: (season: Season) => Promise<void> | void
  readonly onCancel: () => void
}) => {
  const feedback = useFeedback()
  const [reason, setReason] = useState("")
  const start = useSubmit(async () => {
    const sure = await feedback.confirm({
      title: `Start a new season on ${serverName}?`,
      body: "The current season ends now: its leaderboard stays readable as a past season, and the new one starts empty.",
      confirmLabel: "Start new season",
      danger: true
    })
    if (!sure) return
    const season = await api((c) => c.gameServer.newSeason({ path: { id: serverId }, payload: reason.trim() === "" ? {} : { reason: reason.trim() } }))
    feedback.ok(`Season ${season.number} started`)
    await onStarted(season)
  })
  return (
    <form className="card stack" onSubmit={start.submit} aria-labelledby="new-season-title">
      <h2 id="new-season-title">New season on {serverName}</h2>
      <label>
        Reason (optional, kept with the season)
        <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} placeholder="monthly reset" />
      </label>
      <div className="row">
        <SubmitButton busy={start.busy} busyLabel="Starting" className="danger">
          Start new season
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
