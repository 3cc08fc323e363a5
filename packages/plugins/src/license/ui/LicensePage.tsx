/**
 * The license: its state with what it means for the admin, the license's
 * claims (tier, holder, entitlements, expiry), its checks with the license
 * server, the tiers the server offers and the features the loaded plugins
 * gate. Admins also see the server, the machine id, the public key and the
 * last error, and activate a key or remove the license (after a
 * confirmation). Every signed-in user may open it.
 */
import { type ReactNode, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { LicenseState, LicenseStatus, LicenseTiers } from "../contract/Api.js"

const STATE_LABELS: Record<LicenseState, string> = {
  unactivated: "not activated",
  active: "active",
  grace: "grace period",
  past_due: "payment overdue",
  lapsed: "lapsed",
  expired: "expired"
}

/** The badge's colour: the servers' status classes (running green, starting amber, crashed red). */
const STATE_CLASSES: Record<LicenseState, string> = {
  unactivated: "status-crashed",
  active: "status-running",
  grace: "status-starting",
  past_due: "status-starting",
  lapsed: "status-crashed",
  expired: "status-crashed"
}

const when = (iso: string | null): string => (iso === null ? "an unknown date" : formatTime(iso))

/** What the state means for whoever reads it, in a few sentences. */
const explanation = (status: LicenseStatus, admin: boolean): ReactNode => {
  if (status.edition === "community") {
    return (
      <>
        This controller runs the <strong>community edition</strong>: no license server is configured, so nothing is licensed and every feature works
        without a license. To use a license, set <code>LICENSE_SERVER_URL</code> on the controller and restart it.
      </>
    )
  }
  const activate = admin ? "activate a license key below" : "an admin activates a license key"
  switch (status.state) {
    case "unactivated":
      return <>No license is activated. Licensed features refuse every request, reads included, until {admin ? "you " : ""}{activate}.</>
    case "active":
      return (
        <>
          The license is active until <strong>{when(status.license?.expiresAt ?? null)}</strong>. The features it includes work normally. The controller
          checks it with the license server every 6 hours (last check: {when(status.checkedAt)}).
        </>
      )
    case "grace":
      return (
        <>
          The license server could not be reached since <strong>{when(status.checkedAt)}</strong>. Licensed features keep working until{" "}
          <strong>{when(status.graceEndsAt)}</strong>; from then on they stop accepting changes (they only read) until the license server confirms the
          license again. {admin ? "Check that this controller can reach the license server." : ""}
        </>
      )
    case "past_due":
      return (
        <>
          The license server reports a <strong>failed payment</strong>. Licensed features keep working until <strong>{when(status.graceEndsAt)}</strong>;
          from then on they stop accepting changes (they only read) until the payment is settled and the server confirms the license.
        </>
      )
    case "lapsed":
      return status.graceEndsAt !== null ? (
        <>
          The grace period ended on <strong>{when(status.graceEndsAt)}</strong>. Licensed features only read now: they show their data but refuse
          changes until the license server confirms the license again.
        </>
      ) : (
        <>
          The license server <strong>withdrew the license</strong>. Licensed features only read now: they show their data but refuse changes until{" "}
          {activate}.
        </>
      )
    case "expired":
      return (
        <>
          The license expired on <strong>{when(status.license?.expiresAt ?? null)}</strong>. Licensed features only read now: they show their data but
          refuse changes until the license is renewed and {admin ? "you activate the renewed key below" : "an admin activates the renewed key"}.
        </>
      )
  }
}

const Entitlements = ({ entitlements }: { readonly entitlements: ReadonlyArray<string> }) =>
  entitlements.length === 0 ? (
    <p className="muted">The license includes no licensed feature.</p>
  ) : entitlements.includes("*") ? (
    <p>Every licensed feature.</p>
  ) : (
    <ul aria-label="Entitlements">
      {entitlements.map((name) => (
        <li key={name}>
          <code>{name}</code>
        </li>
      ))}
    </ul>
  )

const StatusCard = ({ status, admin, removed }: { readonly status: LicenseStatus; readonly admin: boolean; readonly removed: (next: LicenseStatus) => void }) => {
  const license = status.license
  return (
    <section className="card stack" aria-labelledby="license-state">
      <div className="row">
        <h2 id="license-state">
          {status.edition === "community" ? "Community edition" : "License"}{" "}
          {status.edition === "licensed" && <span className={`badge ${STATE_CLASSES[status.state]}`}>{STATE_LABELS[status.state]}</span>}
        </h2>
        <div className="spacer" />
        {admin && license !== null && (
          <ActionButton
            className="danger"
            run={async () => removed(await api((c) => c.license.remove()))}
            confirm={{
              title: "Remove the license?",
              body: (
                <p>
                  The controller forgets the key and the token, and tells the license server. Licensed features refuse every request until a license is
                  activated again.
                </p>
              ),
              confirmLabel: "Remove",
              danger: true
            }}
            done="License removed"
          >
            Remove license
          </ActionButton>
        )}
      </div>
      <p>{explanation(status, admin)}</p>
      {status.readOnly && (
        <p className="notice warn" role="status">
          Licensed features are read-only: changes to them answer “payment required” until the license is in force again.
        </p>
      )}
      <dl className="kv">
        {license !== null && (
          <>
            <dt>Tier</dt>
            <dd>{license.tier}</dd>
            <dt>Holder</dt>
            <dd>{license.holder ?? "—"}</dd>
            <dt>License id</dt>
            <dd className="mono break-anywhere">{license.id}</dd>
            <dt>Expires</dt>
            <dd>{formatTime(license.expiresAt)}</dd>
            <dt>Issued</dt>
            <dd>{formatTime(license.issuedAt)}</dd>
            <dt>Payments</dt>
            <dd>{license.standing === "good" ? "in good standing" : "a payment failed"}</dd>
          </>
        )}
        {status.edition === "licensed" && (
          <>
            <dt>Activated</dt>
            <dd>{formatTime(status.activatedAt)}</dd>
            <dt>Last check</dt>
            <dd>{status.checkedAt === null ? "never" : formatTime(status.checkedAt)}</dd>
            {status.lastAttemptAt !== null && status.lastAttemptAt !== status.checkedAt && (
              <>
                <dt>Last attempt</dt>
                <dd>{formatTime(status.lastAttemptAt)}</dd>
              </>
            )}
            <dt>Next check</dt>
            <dd>{formatTime(status.nextRefreshAt)}</dd>
            {status.graceEndsAt !== null && (
              <>
                <dt>Grace ends</dt>
                <dd>{formatTime(status.graceEndsAt)}</dd>
              </>
            )}
          </>
        )}
        {admin && status.server !== null && (
          <>
            <dt>License server</dt>
            <dd className="mono break-anywhere">{status.server}</dd>
          </>
        )}
        {admin && status.machineId !== null && (
          <>
            <dt>Machine id</dt>
            <dd className="mono break-anywhere">{status.machineId}</dd>
          </>
        )}
        {admin && status.publicKey !== null && (
          <>
            <dt>Public key</dt>
            <dd>
              {status.publicKey.source === "configured" ? "configured (LICENSE_PUBLIC_KEY)" : "pinned at activation"},{" "}
              <span className="mono break-anywhere">{status.publicKey.thumbprint}</span>
            </dd>
          </>
        )}
        {admin && status.lastError !== null && (
          <>
            <dt>Last error</dt>
            <dd>{status.lastError}</dd>
          </>
        )}
      </dl>
      {license !== null && (
        <>
          <h3>Entitlements</h3>
          <Entitlements entitlements={license.entitlements} />
        </>
      )}
    </section>
  )
}

const ActivateForm = ({ status, activated }: { readonly status: LicenseStatus; readonly activated: (next: LicenseStatus) => void }) => {
  const [key, setKey] = useState("")
  const activate = useSubmit(async () => {
    activated(await api((c) => c.license.activate({ payload: { key: key.trim() } })))
    setKey("")
  }, "License activated")
  const replacing = status.license !== null
  return (
    <form className="card stack" onSubmit={activate.submit} aria-labelledby="activate-license">
      <h2 id="activate-license">{replacing ? "Activate another key" : "Activate a license"}</h2>
      <p className="muted">
        The key is sent with this controller's machine id to the license server, which answers a signed license. The key is stored sealed and never
        shown again.{replacing ? " The new license replaces the current one." : ""}
      </p>
      <label>
        License key
        <input type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false} maxLength={512} required />
      </label>
      <div>
        <SubmitButton busy={activate.busy} busyLabel="Activating">
          Activate
        </SubmitButton>
      </div>
    </form>
  )
}

const TiersSection = ({ tiers }: { readonly tiers: LicenseTiers }) => (
  <>
    <section className="stack" aria-labelledby="license-tiers">
      <h2 id="license-tiers">Tiers</h2>
      {tiers.tiers.length === 0 ? (
        <p className="muted">
          {tiers.edition === "community"
            ? "The community edition has no tiers."
            : tiers.fetchedAt === null
              ? "The license server has not been reached for its tiers yet."
              : "The license server offers no tiers."}
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">License tiers</caption>
            <thead>
              <tr>
                <th scope="col">Tier</th>
                <th scope="col" className="hide-narrow">
                  Description
                </th>
                <th scope="col">Features</th>
              </tr>
            </thead>
            <tbody>
              {tiers.tiers.map((tier) => (
                <tr key={tier.id}>
                  <td>
                    {tier.name} {tier.id === tiers.current && <span className="badge status-running">current</span>}
                  </td>
                  <td className="hide-narrow">{tier.description || "—"}</td>
                  <td>{tier.entitlements.length === 0 ? "—" : tier.entitlements.includes("*") ? "every feature" : tier.entitlements.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {tiers.fetchedAt !== null && <p className="muted">Read from the license server {formatTime(tiers.fetchedAt)}.</p>}
    </section>
    <section className="stack" aria-labelledby="licensed-features">
      <h2 id="licensed-features">Licensed features on this controller</h2>
      {tiers.features.length === 0 ? (
        <p className="muted">No loaded plugin gates a feature: every route works whatever the license says.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Licensed features</caption>
            <thead>
              <tr>
                <th scope="col">Feature</th>
                <th scope="col">Routes</th>
                <th scope="col">Included</th>
              </tr>
            </thead>
            <tbody>
              {tiers.features.map((feature) => (
                <tr key={feature.name}>
                  <td>
                    <code>{feature.name}</code>
                  </td>
                  <td>{feature.routes}</td>
                  <td>{feature.entitled ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  </>
)

const LicensePage = () => {
  const { me } = useSession()
  const admin = allowed(me, "admin")
  // The state moves with time alone (a grace ends, the license expires): read again every minute.
  const status = useResource(() => api((c) => c.license.status()), [], { pollMs: 60_000 })
  const tiers = useResource(() => api((c) => c.license.tiers()), [])
  const changed = (next: LicenseStatus) => {
    status.set(() => next)
    void tiers.reload()
  }
  return (
    <section className="stack">
      <h1>License</h1>
      <Loaded resource={status}>
        {(current) => (
          <>
            <StatusCard status={current} admin={admin} removed={changed} />
            {admin && current.edition === "licensed" && <ActivateForm status={current} activated={changed} />}
          </>
        )}
      </Loaded>
      <Loaded resource={tiers}>{(current) => <TiersSection tiers={current} />}</Loaded>
    </section>
  )
}

export default LicensePage
