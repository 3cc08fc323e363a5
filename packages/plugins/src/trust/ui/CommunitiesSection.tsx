/**
 * The communities whose vouches count: this one and each partner feed,
 * with its weight (0-2), whether it is held at 0 (and why), its overturn
 * rate over the last 20 submissions, and its last review. A review sets
 * the weight and lifts a hold.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { type CommunityView, ReviewInput } from "../contract/Api.js"
import { type Changes, formatRate, formatWeight, useReloadOn } from "./shared.js"

const ReviewForm = ({ community, onDone }: { readonly community: CommunityView; readonly onDone: (reviewed: boolean) => Promise<void> }) => {
  const [weight, setWeight] = useState(community.held || community.weight === 0 ? "1" : String(community.weight))
  const review = useSubmit(async () => {
    await api((c) => c.trustAdmin.review({ path: { id: community.id }, payload: new ReviewInput({ weight: Number(weight) }) }))
    await onDone(true)
  }, "Community reviewed")
  return (
    <form className="card stack" onSubmit={review.submit} aria-labelledby="trust-review-title">
      <h3 id="trust-review-title">Review {community.name}</h3>
      <p className="muted">
        The weight its vouches count with, from 0 (ignored) to 2; 1 is where every community starts. Saving lifts a hold, and the pending bans it
        vouched for are weighed again.
      </p>
      <label>
        Weight
        <input type="number" min={0} max={2} step={0.05} value={weight} onChange={(e) => setWeight(e.target.value)} required />
      </label>
      <div className="row">
        <SubmitButton busy={review.busy} busyLabel="Saving">
          Set weight
        </SubmitButton>
        <button type="button" onClick={() => void onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export const CommunitiesSection = ({ changes }: { readonly changes: Changes }) => {
  const [reviewing, setReviewing] = useState<CommunityView | undefined>()
  const communities = useResource(() => api((c) => c.trustAdmin.communities()), [])
  useReloadOn(changes.version, communities)
  return (
    <section className="stack" aria-labelledby="trust-communities">
      <h2 id="trust-communities">Communities</h2>
      <Loaded resource={communities}>
        {(list) => (
          <>
            <p className="muted">
              A pool ban becomes active when the weights of the communities vouching for it add up to <strong>{list.threshold}</strong>. Each overturn
              costs its vouchers weight; a community overturned more than 30 % of the time over its last 20 submissions is held at 0 until reviewed.
            </p>
            {reviewing !== undefined && (
              <ReviewForm
                key={reviewing.id}
                community={reviewing}
                onDone={async (reviewed) => {
                  setReviewing(undefined)
                  if (reviewed) changes.changed()
                }}
              />
            )}
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Communities</caption>
                <thead>
                  <tr>
                    <th scope="col">Community</th>
                    <th scope="col">Weight</th>
                    <th scope="col">State</th>
                    <th scope="col" className="hide-narrow">
                      Overturned
                    </th>
                    <th scope="col" className="hide-narrow">
                      Submissions
                    </th>
                    <th scope="col" className="hide-narrow">
                      Reviewed
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((community) => (
                    <tr key={community.id}>
                      <td>
                        {community.name}
                        <div className="muted">{community.kind === "local" ? "this community" : "partner feed"}</div>
                      </td>
                      <td>{formatWeight(community.weight)}</td>
                      <td>
                        {community.held ? <span className="badge status-crashed">held</span> : <span className="badge status-running">counts</span>}
                        {community.held && community.heldReason !== null && <div className="muted break-anywhere">{community.heldReason}</div>}
                      </td>
                      <td className="hide-narrow">{formatRate(community.overturnRate)}</td>
                      <td className="hide-narrow">{community.submissions}</td>
                      <td className="hide-narrow">
                        {formatTime(community.reviewedAt)}
                        {community.reviewedBy !== null && <div className="muted">by {community.reviewedBy}</div>}
                      </td>
                      <td>
                        <button
                          type="button"
                          aria-expanded={reviewing?.id === community.id}
                          onClick={() => setReviewing(reviewing?.id === community.id ? undefined : community)}
                        >
                          Review<span className="sr-only"> {community.name}</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Loaded>
    </section>
  )
}
