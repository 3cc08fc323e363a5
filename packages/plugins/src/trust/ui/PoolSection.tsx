/**
 * The community ban pool, newest change first: each pool ban's player,
 * category, status, vouches and their summed weight, when it became active
 * and when it expires; filtered by status. An open ban (pending or active)
 * can be overturned with a note: its vouchers lose weight, and partners
 * mirroring the pool lift it.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { OverturnInput, type PoolBanView } from "../contract/Api.js"
import { type Changes, formatWeight, POOL_STATUSES, type PoolStatus, poolStatusClass, useReloadOn } from "./shared.js"

const POLL_MS = 15_000
const LIMIT = 200

const OverturnForm = ({ ban, onDone }: { readonly ban: PoolBanView; readonly onDone: (overturned: boolean) => Promise<void> | void }) => {
  const [note, setNote] = useState("")
  const overturn = useSubmit(async () => {
    await api((c) => c.trustAdmin.overturn({ path: { id: ban.id }, payload: new OverturnInput({ note: note.trim() }) }))
    await onDone(true)
  }, "Pool ban overturned")
  return (
    <form className="card stack" onSubmit={overturn.submit} aria-labelledby="trust-overturn-title">
      <h3 id="trust-overturn-title">Overturn the pool ban of {ban.platformId}</h3>
      <p className="muted">
        The ban becomes <strong>overturned</strong>: partners mirroring the pool lift it, and every community that vouched for it loses weight (× 0.7; held
        at 0 past a 30 % overturn rate).
      </p>
      <label>
        Why (kept here, never shared)
        <textarea value={note} onChange={(e) => setNote(e.target.value)} required maxLength={1000} />
      </label>
      <div className="row">
        <SubmitButton busy={overturn.busy} busyLabel="Overturning" className="danger">
          Overturn
        </SubmitButton>
        <button type="button" onClick={() => void onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

const PoolRow = ({ ban, onOverturn, open }: { readonly ban: PoolBanView; readonly onOverturn: () => void; readonly open: boolean }) => (
  <tr>
    <td>
      <span className="mono">{ban.platformId}</span>
      <div className="muted">{ban.reasonCategory}</div>
    </td>
    <td>
      <span className={`badge ${poolStatusClass(ban.status)}`}>{ban.status}</span>
      <div className="muted">
        {ban.vouchCount} {ban.vouchCount === 1 ? "vouch" : "vouches"}, weight {formatWeight(ban.vouchWeight)}
      </div>
    </td>
    <td className="hide-narrow">
      {ban.activatedAt === null ? "—" : formatTime(ban.activatedAt)}
      <div className="muted">{ban.expiresAt === null ? "never expires" : `expires ${formatTime(ban.expiresAt)}`}</div>
    </td>
    <td className="hide-narrow">{formatTime(ban.updatedAt)}</td>
    <td>
      {(ban.status === "pending" || ban.status === "active") && (
        <button type="button" className="danger" aria-expanded={open} onClick={onOverturn}>
          Overturn<span className="sr-only"> the pool ban of {ban.platformId}</span>
        </button>
      )}
    </td>
  </tr>
)

export const PoolSection = ({ changes }: { readonly changes: Changes }) => {
  const [status, setStatus] = useState<PoolStatus | "">("")
  const [overturning, setOverturning] = useState<PoolBanView | undefined>()
  const pool = useResource(
    () => api((c) => c.trustAdmin.pool({ urlParams: { limit: LIMIT, ...(status === "" ? {} : { status }) } })),
    [status],
    { pollMs: POLL_MS }
  )
  useReloadOn(changes.version, pool)
  return (
    <section className="stack" aria-labelledby="trust-pool">
      <div className="row">
        <h2 id="trust-pool">Ban pool</h2>
        <div className="spacer" />
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as PoolStatus | "")}>
            <option value="">All</option>
            {POOL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        The bans communities vouched for. A ban is <strong>pending</strong> until its vouchers' weights add up to the threshold, then{" "}
        <strong>active</strong>: shared with partners and counted in lookups. <strong>Overturned</strong> and <strong>expired</strong> bans stay as
        tombstones, so partners lift them too.
      </p>
      {overturning !== undefined && (
        <OverturnForm
          key={overturning.id}
          ban={overturning}
          onDone={async (overturned) => {
            setOverturning(undefined)
            if (overturned) changes.changed()
          }}
        />
      )}
      <Loaded resource={pool}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">{status === "" ? "The pool is empty: submit a ban below." : `No ${status} pool bans.`}</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Pool bans, newest change first</caption>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="hide-narrow">
                      Active since
                    </th>
                    <th scope="col" className="hide-narrow">
                      Changed
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((ban) => (
                    <PoolRow
                      key={ban.id}
                      ban={ban}
                      open={overturning?.id === ban.id}
                      onOverturn={() => setOverturning(overturning?.id === ban.id ? undefined : ban)}
                    />
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
