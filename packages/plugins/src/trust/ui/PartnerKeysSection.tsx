/**
 * Partner keys (admin): the keys partners read this pool's export with,
 * each with its tier (page size and requests a minute), hint, creation and
 * last use. A new key is shown once, to give to the partner; a revoked key
 * is refused at once.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { CopyField } from "@dashboard/ui/CopyField.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { PartnerKeyInput, type PartnerKeyList } from "../contract/Api.js"

type TierName = PartnerKeyInput["tier"]

/** The key the API answered on issue: copy it now, it is not shown again. */
const IssuedKey = ({ name, partnerKey, onDone }: { readonly name: string; readonly partnerKey: string; readonly onDone: () => void }) => (
  <section className="notice stack" aria-labelledby="trust-key-shown">
    <h3 id="trust-key-shown">Partner key for {name}, shown once</h3>
    <p>
      <strong>Copy it now: you will not see it again.</strong> Give it to the partner: their Garrison subscribes to this pool's export with it (
      <code>GET /api/v1/trust/export</code>, <code>Authorization: Bearer …</code>). Lost it? Revoke it and issue another.
    </p>
    <CopyField label="Partner key" value={partnerKey} copiedMessage="Partner key copied" />
    <div>
      <button type="button" onClick={onDone}>
        Done, I have copied it
      </button>
    </div>
  </section>
)

const IssueForm = ({ tiers, onIssued }: { readonly tiers: PartnerKeyList["tiers"]; readonly onIssued: (name: string, key: string) => Promise<void> }) => {
  const [name, setName] = useState("")
  const [tier, setTier] = useState<TierName | "">("")
  const issue = useSubmit(async () => {
    if (tier === "") return
    const issued = await api((c) => c.trustPartnerKeys.issue({ payload: new PartnerKeyInput({ name: name.trim(), tier }) }))
    setName("")
    await onIssued(issued.partnerKey.name, issued.key)
  }, "Partner key issued")
  return (
    <form className="card stack" onSubmit={issue.submit} aria-labelledby="trust-issue-key">
      <h3 id="trust-issue-key">Issue a partner key</h3>
      <div className="grid">
        <label>
          Partner
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} autoComplete="off" placeholder="Chernarus Survivors" />
        </label>
        <label>
          Tier
          <select value={tier} onChange={(e) => setTier(e.target.value as TierName | "")} required>
            <option value="">Choose a tier</option>
            {tiers.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} ({t.maxLimit.toLocaleString()} rows a page, {t.requestsPerMinute.toLocaleString()} requests a minute)
              </option>
            ))}
          </select>
        </label>
      </div>
      <div>
        <SubmitButton busy={issue.busy} busyLabel="Issuing">
          Issue key
        </SubmitButton>
      </div>
    </form>
  )
}

export const PartnerKeysSection = () => {
  const keys = useResource(() => api((c) => c.trustPartnerKeys.list()), [])
  const [shown, setShown] = useState<{ readonly name: string; readonly key: string } | undefined>()
  return (
    <section className="stack" aria-labelledby="trust-partner-keys">
      <h2 id="trust-partner-keys">Partner keys</h2>
      <p className="muted">Partners read this pool's active bans and tombstones with a key of their own; pending bans and notes are never shared.</p>
      {shown !== undefined && <IssuedKey name={shown.name} partnerKey={shown.key} onDone={() => setShown(undefined)} />}
      <Loaded resource={keys}>
        {(list) => (
          <>
            {list.items.length === 0 ? (
              <p className="notice">No partner keys yet.</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Partner keys</caption>
                  <thead>
                    <tr>
                      <th scope="col">Partner</th>
                      <th scope="col" className="hide-narrow">
                        Key
                      </th>
                      <th scope="col" className="hide-narrow">
                        Issued
                      </th>
                      <th scope="col">State</th>
                      <th scope="col" className="hide-narrow">
                        Last used
                      </th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((key) => (
                      <tr key={key.id}>
                        <td>
                          {key.name}
                          <div className="muted">{key.tier} tier</div>
                        </td>
                        <td className="hide-narrow mono">{key.hint}</td>
                        <td className="hide-narrow">
                          {formatTime(key.createdAt)}
                          {key.createdBy !== null && <div className="muted">by {key.createdBy}</div>}
                        </td>
                        <td>
                          {key.revokedAt === null ? (
                            <span className="badge status-running">active</span>
                          ) : (
                            <>
                              <span className="badge status-crashed">revoked</span>
                              <div className="muted">{formatTime(key.revokedAt)}</div>
                            </>
                          )}
                        </td>
                        <td className="hide-narrow">{key.lastUsedAt === null ? "never" : formatTime(key.lastUsedAt)}</td>
                        <td>
                          {key.revokedAt === null && (
                            <ActionButton
                              className="danger"
                              run={() => api((c) => c.trustPartnerKeys.revoke({ path: { id: key.id } })).finally(() => keys.reload())}
                              confirm={{
                                title: `Revoke the key of ${key.name}?`,
                                body: "Their export requests are refused at once; issue a new key to let them back.",
                                confirmLabel: "Revoke",
                                danger: true
                              }}
                              done="Partner key revoked"
                            >
                              Revoke<span className="sr-only"> the key of {key.name}</span>
                            </ActionButton>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <IssueForm
              tiers={list.tiers}
              onIssued={async (name, key) => {
                setShown({ name, key })
                await keys.reload()
              }}
            />
          </>
        )}
      </Loaded>
    </section>
  )
}
