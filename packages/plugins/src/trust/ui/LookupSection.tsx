/**
 * A player's trust score, as the public lookup answers it (and as
 * partners and bots see it): score, band, confidence, the reasons and the
 * raw signals, and whether the answer is signed.
 */
import { Fragment, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { TrustScoreView } from "../contract/Api.js"
import { BANDS, bandClass } from "./shared.js"

const SIGNAL_LABELS: Record<keyof TrustScoreView["signals"], string> = {
  bans_active: "Active pool bans",
  submissions_pending: "Pending submissions",
  accuracy: "Vouchers' accuracy",
  overturned: "Overturned bans",
  expired: "Expired bans",
  communities: "Communities vouching",
  playtime_hours: "Playtime (hours)",
  servers_seen: "Servers seen"
}

const signalText = (value: number | null): string => (value === null ? "unknown" : String(value))

const ScoreCard = ({ score }: { readonly score: TrustScoreView }) => (
  <section className="card stack" aria-labelledby="trust-score-title">
    <h3 id="trust-score-title">
      Trust score of <span className="mono">{score.platformId}</span>
    </h3>
    <p>
      <strong>{score.score}</strong> / 100 <span className={`badge ${bandClass(score.band)}`}>{score.band}</span>{" "}
      <span className="muted">confidence {Math.round(score.confidence * 100)} %</span>
    </p>
    <p className="muted">{BANDS.find((band) => band.name === score.band)?.meaning}</p>
    {score.reasons.length > 0 && (
      <ul aria-label="Reasons">
        {score.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    )}
    <dl className="kv">
      {(Object.keys(SIGNAL_LABELS) as Array<keyof typeof SIGNAL_LABELS>).map((key) => (
        <Fragment key={key}>
          <dt>{SIGNAL_LABELS[key]}</dt>
          <dd>{signalText(score.signals[key])}</dd>
        </Fragment>
      ))}
      <dt>Service id</dt>
      <dd className="mono break-anywhere">{score.serviceId}</dd>
      <dt>Computed</dt>
      <dd>{formatTime(score.computedAt)}</dd>
      <dt>Signed</dt>
      <dd>{score.proof === undefined ? "no (signing is off)" : "yes: an RS256 proof, checked with the key in /.well-known/service-trust.json"}</dd>
    </dl>
    {score.proof !== undefined && (
      <details>
        <summary>The proof (JWT)</summary>
        <pre className="log-view break-anywhere">{score.proof}</pre>
      </details>
    )}
  </section>
)

export const LookupSection = () => {
  const [identifier, setIdentifier] = useState("")
  const [score, setScore] = useState<TrustScoreView | undefined>()
  const lookup = useSubmit(async () => {
    setScore(undefined)
    setScore(await api((c) => c.trustPublic.lookup({ path: { identifier: identifier.trim() } })))
  })
  return (
    <section className="stack" aria-labelledby="trust-lookup">
      <h2 id="trust-lookup">Player lookup</h2>
      <form className="row" role="search" aria-label="Player lookup" onSubmit={lookup.submit}>
        <label className="grow">
          Player (Steam64, Steam2, service id or linked chat user id)
          <input value={identifier} onChange={(e) => setIdentifier(e.target.value)} required maxLength={100} autoComplete="off" spellCheck={false} />
        </label>
        <SubmitButton busy={lookup.busy} busyLabel="Looking up">
          Look up
        </SubmitButton>
      </form>
      {score !== undefined && <ScoreCard score={score} />}
    </section>
  )
}
