/**
 * Appeals of pool bans: a player's appeal as an admin took it down (on an
 * open ban: pending or active), listed by status, each decided once with a
 * note: approving overturns the ban, rejecting keeps it.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { AppealInput, type AppealView, DecisionInput, type PoolBanView } from "../contract/Api.js"
import { type Changes, useReloadOn } from "./shared.js"

type AppealStatus = "open" | "approved" | "rejected"
const APPEAL_STATUSES: ReadonlyArray<AppealStatus> = ["open", "approved", "rejected"]
const APPEAL_CLASSES: Record<string, string> = { open: "status-starting", approved: "status-running", rejected: "" }
const POOL_LIMIT = 500

/** `76561198… (cheating, active)`: a pool ban as the appeal forms name it. */
const describeBan = (ban: PoolBanView | undefined, id: string): string => (ban === undefined ? id : `${ban.platformId} (${ban.reasonCategory}, ${ban.status})`)

const RecordForm = ({ open, onRecorded }: { readonly open: ReadonlyArray<PoolBanView>; readonly onRecorded: () => Promise<void> }) => {
  const [banId, setBanId] = useState("")
  const [statement, setStatement] = useState("")
  const chosen = open.some((ban) => ban.id === banId) ? banId : ""
  const record = useSubmit(async () => {
    await api((c) => c.trustAdmin.appeal({ payload: new AppealInput({ banId: chosen, statement: statement.trim() }) }))
    setBanId("")
    setStatement("")
    await onRecorded()
  }, "Appeal recorded")
  return (
    <form className="card stack" onSubmit={record.submit} aria-labelledby="trust-appeal-form">
      <h3 id="trust-appeal-form">Record an appeal</h3>
      {open.length === 0 ? (
        <p className="muted">No pool ban is open (pending or active): there is nothing to appeal.</p>
      ) : (
        <>
          <label>
            Pool ban
            <select value={chosen} onChange={(e) => setBanId(e.target.value)} required>
              <option value="">Choose a pool ban</option>
              {open.map((ban) => (
                <option key={ban.id} value={ban.id}>
                  {describeBan(ban, ban.id)}
                </option>
              ))}
            </select>
          </label>
          <label>
            The player's statement
            <textarea value={statement} onChange={(e) => setStatement(e.target.value)} required maxLength={1000} />
          </label>
          <div>
            <SubmitButton busy={record.busy} busyLabel="Recording">
              Record appeal
            </SubmitButton>
          </div>
        </>
      )}
    </form>
  )
}

const DecisionForm = ({ appeal, ban, onDone }: { readonly appeal: AppealView; readonly ban: string; readonly onDone: (decided: boolean) => Promise<void> }) => {
  const [decision, setDecision] = useState<"approve" | "reject" | "">("")
  const [note, setNote] = useState("")
  const decide = useSubmit(async () => {
    if (decision === "") return
    await api((c) => c.trustAdmin.decide({ path: { id: appeal.id }, payload: new DecisionInput({ decision, note: note.trim() }) }))
    await onDone(true)
  }, decision === "approve" ? "Appeal approved: the ban is overturned" : "Appeal rejected")
  return (
    <form className="card stack" onSubmit={decide.submit} aria-labelledby="trust-decision-title">
      <h3 id="trust-decision-title">Decide the appeal of {ban}</h3>
      <blockquote className="break-anywhere">{appeal.statement}</blockquote>
      <fieldset className="stack">
        <legend>Decision</legend>
        <label className="inline">
          <input type="radio" name="trust-decision" value="approve" checked={decision === "approve"} onChange={() => setDecision("approve")} required />
          Approve: overturn the ban (its vouchers lose weight)
        </label>
        <label className="inline">
          <input type="radio" name="trust-decision" value="reject" checked={decision === "reject"} onChange={() => setDecision("reject")} />
          Reject: the ban stays
        </label>
      </fieldset>
      <label>
        Note
        <textarea value={note} onChange={(e) => setNote(e.target.value)} required maxLength={1000} />
      </label>
      <div className="row">
        <SubmitButton busy={decide.busy} busyLabel="Deciding">
          Record decision
        </SubmitButton>
        <button type="button" onClick={() => void onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export const AppealsSection = ({ changes }: { readonly changes: Changes }) => {
  const [status, setStatus] = useState<AppealStatus | "">("")
  const [deciding, setDeciding] = useState<AppealView | undefined>()
  const appeals = useResource(() => api((c) => c.trustAdmin.appeals({ urlParams: status === "" ? {} : { status } })), [status])
  // The pool, to name each appeal's player and to offer the open bans.
  const pool = useResource(() => api((c) => c.trustAdmin.pool({ urlParams: { limit: POOL_LIMIT } })), [])
  useReloadOn(changes.version, appeals, pool)
  const byId = new Map((pool.data?.items ?? []).map((ban) => [ban.id, ban]))
  const open = (pool.data?.items ?? []).filter((ban) => ban.status === "pending" || ban.status === "active")
  const nameOf = (appeal: AppealView) => byId.get(appeal.banId)?.platformId ?? appeal.banId

  return (
    <section className="stack" aria-labelledby="trust-appeals">
      <div className="row">
        <h2 id="trust-appeals">Appeals</h2>
        <div className="spacer" />
        <label>
          Appeals
          <select value={status} onChange={(e) => setStatus(e.target.value as AppealStatus | "")}>
            <option value="">All</option>
            {APPEAL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {deciding !== undefined && (
        <DecisionForm
          key={deciding.id}
          appeal={deciding}
          ban={nameOf(deciding)}
          onDone={async (decided) => {
            setDeciding(undefined)
            if (decided) changes.changed()
          }}
        />
      )}
      <Loaded resource={appeals}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">{status === "" ? "No appeals yet." : `No ${status} appeals.`}</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Appeals, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Statement</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="hide-narrow">
                      Recorded
                    </th>
                    <th scope="col" className="hide-narrow">
                      Decision
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((appeal) => (
                    <tr key={appeal.id}>
                      <td>
                        <span className="mono break-anywhere">{nameOf(appeal)}</span>
                      </td>
                      <td className="break-anywhere">{appeal.statement}</td>
                      <td>
                        <span className={`badge ${APPEAL_CLASSES[appeal.status] ?? ""}`}>{appeal.status}</span>
                      </td>
                      <td className="hide-narrow">
                        {formatTime(appeal.createdAt)}
                        {appeal.createdBy !== null && <div className="muted">by {appeal.createdBy}</div>}
                      </td>
                      <td className="hide-narrow">
                        {appeal.decidedAt === null ? (
                          "—"
                        ) : (
                          <>
                            {formatTime(appeal.decidedAt)}
                            {appeal.decidedBy !== null && <div className="muted">by {appeal.decidedBy}</div>}
                            {appeal.decisionNote !== null && <div className="break-anywhere">{appeal.decisionNote}</div>}
                          </>
                        )}
                      </td>
                      <td>
                        {appeal.status === "open" && (
                          <button type="button" aria-expanded={deciding?.id === appeal.id} onClick={() => setDeciding(deciding?.id === appeal.id ? undefined : appeal)}>
                            Decide<span className="sr-only"> the appeal of {nameOf(appeal)}</span>
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      <RecordForm
        open={open}
        onRecorded={async () => {
          await appeals.reload()
        }}
      />
    </section>
  )
}
