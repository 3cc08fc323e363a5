/**
 * Subscriptions (admin): the partners' exports this instance follows, each
 * with its policy, interval and state, its last pull (when, how many
 * changes, the error) and the local bans it holds. Pull now shows the
 * pull's report; Edit changes the policy, the key or the state; Remove
 * stops following, keeping the feed's bans or lifting them.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { PullReportView, SubscriptionView } from "../contract/Api.js"
import { type Changes, useReloadOn } from "./shared.js"
import { SubscriptionForm } from "./SubscriptionForm.js"

const POLL_MS = 15_000

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const describePolicy = (s: SubscriptionView): string =>
  [
    `${plural(s.minVouches, "vouch", "vouches")} at least`,
    s.categories.length === 0 ? "every category" : s.categories.join(", "),
    s.exemptions.length === 0 ? "no exemptions" : plural(s.exemptions.length, "player exempt", "players exempt")
  ].join("; ")

const Report = ({ report, onDone }: { readonly report: PullReportView; readonly onDone: () => void }) => (
  <section className="notice stack" aria-labelledby="trust-pull-report">
    <h3 id="trust-pull-report">Pull report of {report.subscription.name}</h3>
    <p>
      Read {plural(report.read, "change", "changes")}: {report.banned} banned, {report.lifted} lifted, {report.skipped} skipped.
    </p>
    {report.subscription.lastError !== null && (
      <p className="notice error" role="alert">
        The pull failed: {report.subscription.lastError}
      </p>
    )}
    <div>
      <button type="button" onClick={onDone}>
        Dismiss
      </button>
    </div>
  </section>
)

const RemoveForm = ({ subscription, onDone }: { readonly subscription: SubscriptionView; readonly onDone: (removed: boolean) => Promise<void> }) => {
  const [lift, setLift] = useState(false)
  const remove = useSubmit(async () => {
    await api((c) => c.trustSubscriptions.remove({ path: { id: subscription.id }, urlParams: { liftBans: lift ? "true" : "false" } }))
    await onDone(true)
  }, "Subscription removed")
  return (
    <form className="card stack" onSubmit={remove.submit} aria-labelledby="trust-remove-title">
      <h3 id="trust-remove-title">Stop following {subscription.name}?</h3>
      <p className="muted">Nothing more is read from it. The bans it made stay (as bans of their own) unless you lift them now.</p>
      <label className="inline">
        <input type="checkbox" checked={lift} onChange={(e) => setLift(e.target.checked)} /> Also lift the {plural(subscription.bansHeld, "ban", "bans")} this
        feed made
      </label>
      <div className="row">
        <SubmitButton busy={remove.busy} busyLabel="Removing" className="danger">
          Remove subscription
        </SubmitButton>
        <button type="button" onClick={() => void onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

const LastPull = ({ subscription }: { readonly subscription: SubscriptionView }) =>
  subscription.lastPullAt === null ? (
    <span className="muted">not yet</span>
  ) : (
    <>
      {formatTime(subscription.lastPullAt)}
      {subscription.lastChanges !== null && <div className="muted">{plural(subscription.lastChanges, "change", "changes")} read</div>}
      {subscription.lastError !== null && <div className="break-anywhere status-crashed">{subscription.lastError}</div>}
    </>
  )

type Open = { readonly kind: "edit" | "remove"; readonly id: string } | { readonly kind: "create" } | undefined

export const SubscriptionsSection = ({ changes }: { readonly changes: Changes }) => {
  const subscriptions = useResource(() => api((c) => c.trustSubscriptions.list()), [], { pollMs: POLL_MS })
  useReloadOn(changes.version, subscriptions)
  const [open, setOpen] = useState<Open>()
  const [report, setReport] = useState<PullReportView | undefined>()
  const items = subscriptions.data?.items ?? []
  const chosen = open !== undefined && open.kind !== "create" ? items.find((s) => s.id === open.id) : undefined
  const closed = async (saved: boolean) => {
    setOpen(undefined)
    if (saved) {
      await subscriptions.reload()
      changes.changed()
    }
  }

  return (
    <section className="stack" aria-labelledby="trust-subscriptions">
      <h2 id="trust-subscriptions">Subscriptions</h2>
      <p className="muted">
        Partners' pools this instance follows, with the key each partner issued. An active ban that passes a feed's policy becomes a local ban (source{" "}
        <code>trust:&lt;name&gt;</code>, in every server's ban list) and the partner's vouch here; its tombstone lifts it. Bans made here by hand are
        left alone.
      </p>
      {report !== undefined && <Report report={report} onDone={() => setReport(undefined)} />}
      {open?.kind === "create" && <SubscriptionForm onSaved={() => closed(true)} onCancel={() => setOpen(undefined)} />}
      {open?.kind === "edit" && chosen !== undefined && (
        <SubscriptionForm key={chosen.id} subscription={chosen} onSaved={() => closed(true)} onCancel={() => setOpen(undefined)} />
      )}
      {open?.kind === "remove" && chosen !== undefined && <RemoveForm key={chosen.id} subscription={chosen} onDone={closed} />}
      {open?.kind !== "create" && (
        <div>
          <button type="button" className="primary" onClick={() => setOpen({ kind: "create" })}>
            Follow a partner
          </button>
        </div>
      )}
      <Loaded resource={subscriptions}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">This instance follows no partner.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Subscriptions</caption>
                <thead>
                  <tr>
                    <th scope="col">Partner</th>
                    <th scope="col" className="hide-narrow">
                      Policy
                    </th>
                    <th scope="col">State</th>
                    <th scope="col">Last pull</th>
                    <th scope="col" className="hide-narrow">
                      Bans held
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((s) => (
                    <tr key={s.id}>
                      <td>
                        {s.name}
                        <div className="muted mono break-anywhere">{s.baseUrl}</div>
                        <div className="muted mono">{s.keyHint}</div>
                      </td>
                      <td className="hide-narrow">{describePolicy(s)}</td>
                      <td>
                        {s.enabled ? <span className="badge status-running">enabled</span> : <span className="badge">off</span>}
                        <div className="muted">every {s.intervalSeconds} s</div>
                      </td>
                      <td>
                        <LastPull subscription={s} />
                      </td>
                      <td className="hide-narrow">{s.bansHeld}</td>
                      <td>
                        <div className="row">
                          <ActionButton
                            run={async () => {
                              try {
                                setReport(await api((c) => c.trustSubscriptions.pull({ path: { id: s.id } })))
                              } finally {
                                await subscriptions.reload()
                                changes.changed()
                              }
                            }}
                          >
                            Pull now<span className="sr-only"> from {s.name}</span>
                          </ActionButton>
                          <button type="button" aria-expanded={open?.kind === "edit" && open.id === s.id} onClick={() => setOpen({ kind: "edit", id: s.id })}>
                            Edit<span className="sr-only"> {s.name}</span>
                          </button>
                          <button
                            type="button"
                            className="danger"
                            aria-expanded={open?.kind === "remove" && open.id === s.id}
                            onClick={() => setOpen({ kind: "remove", id: s.id })}
                          >
                            Remove<span className="sr-only"> {s.name}</span>
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  )
}
