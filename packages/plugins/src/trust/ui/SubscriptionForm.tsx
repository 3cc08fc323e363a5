/**
 * Follow a partner's export, or change how: the partner's Garrison and the
 * key it issued (kept sealed here, never shown back: left empty on an edit,
 * the current one stays), and the policy: how many communities must have
 * vouched, which categories are enforced (none ticked: all), the players
 * never banned from this feed, how often it is pulled, and whether it is on.
 */
import { useId, useState } from "react"
import * as Schema from "effect/Schema"
import { api } from "@dashboard/api/client.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { SubscriptionInput, SubscriptionPatch, type SubscriptionView } from "../contract/Api.js"
import { REASON_CATEGORIES } from "./shared.js"

/** The API's rule for a subscription's name (it names the bans' source, `trust:<name>`), for the input's `pattern`. */
const NAME_PATTERN = "[a-z0-9][a-z0-9\\-]{0,39}"

const parseExemptions = (text: string): ReadonlyArray<string> => text.split(/[\s,]+/).filter((id) => id !== "")

export const SubscriptionForm = ({
  subscription,
  onSaved,
  onCancel
}: {
  /** The subscription to change; none: a new one. */
  readonly subscription?: SubscriptionView
  readonly onSaved: (saved: SubscriptionView) => Promise<void> | void
  readonly onCancel: () => void
}) => {
  const id = useId()
  const editing = subscription !== undefined
  const [name, setName] = useState(subscription?.name ?? "")
  const [baseUrl, setBaseUrl] = useState(subscription?.baseUrl ?? "")
  const [partnerKey, setPartnerKey] = useState("")
  const [minVouches, setMinVouches] = useState(String(subscription?.minVouches ?? 1))
  const [categories, setCategories] = useState<ReadonlyArray<string>>(subscription?.categories ?? [])
  const [exemptions, setExemptions] = useState((subscription?.exemptions ?? []).join("\n"))
  const [intervalSeconds, setIntervalSeconds] = useState(String(subscription?.intervalSeconds ?? 300))
  const [enabled, setEnabled] = useState(subscription?.enabled ?? true)

  const save = useSubmit(async () => {
    const policy = {
      minVouches: Number(minVouches),
      categories: REASON_CATEGORIES.filter((category) => categories.includes(category)),
      exemptions: parseExemptions(exemptions),
      intervalSeconds: Number(intervalSeconds),
      enabled
    }
    const key = partnerKey.trim()
    const saved = editing
      ? await api((c) =>
          c.trustSubscriptions.update({
            path: { id: subscription.id },
            payload: Schema.decodeUnknownSync(SubscriptionPatch)({ ...policy, ...(key === "" ? {} : { partnerKey: key }) })
          })
        )
      : await api((c) => c.trustSubscriptions.create({ payload: Schema.decodeUnknownSync(SubscriptionInput)({ ...policy, name, baseUrl: baseUrl.trim(), partnerKey: key }) }))
    setPartnerKey("")
    await onSaved(saved)
  }, editing ? "Subscription saved" : "Subscription added")

  const toggle = (category: string, on: boolean) => setCategories(on ? [...categories, category] : categories.filter((c) => c !== category))
  const titleId = `${id}-title`
  return (
    <form className="card stack" onSubmit={save.submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{editing ? `Change ${subscription.name}` : "Follow a partner"}</h3>
      <div className="grid">
        {!editing && (
          <>
            <label>
              Name
              <input
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                pattern={NAME_PATTERN}
                title="1 to 40 lower-case letters, digits or dashes: the bans it makes have the source trust:<name>"
                maxLength={40}
                autoComplete="off"
                spellCheck={false}
                placeholder="chernarus-survivors"
              />
            </label>
            <label>
              The partner's Garrison
              <input
                type="url"
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
                required
                maxLength={2048}
                autoComplete="off"
                spellCheck={false}
                className="mono"
                placeholder="https://garrison.partner.example"
              />
            </label>
          </>
        )}
        <label>
          {editing ? `Partner key (${subscription.keyHint}; leave empty to keep it)` : "Partner key (the one they issued you)"}
          <input
            type="password"
            value={partnerKey}
            onChange={(e) => setPartnerKey(e.target.value)}
            required={!editing}
            minLength={16}
            maxLength={512}
            autoComplete="off"
            spellCheck={false}
            className="mono"
          />
        </label>
        <label>
          Vouches needed (communities)
          <input type="number" min={1} max={100} step={1} value={minVouches} onChange={(e) => setMinVouches(e.target.value)} required />
        </label>
        <label>
          Pull every (seconds)
          <input type="number" min={60} max={86400} step={1} value={intervalSeconds} onChange={(e) => setIntervalSeconds(e.target.value)} required />
        </label>
      </div>
      <fieldset className="stack">
        <legend>Categories enforced</legend>
        <p className="muted">None ticked: every category.</p>
        <div className="row">
          {REASON_CATEGORIES.map((category) => (
            <label key={category} className="inline">
              <input type="checkbox" checked={categories.includes(category)} onChange={(e) => toggle(category, e.target.checked)} />
              {category}
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Exempt players (Steam64 or Steam2, one a line: never banned from this feed)
        <textarea value={exemptions} onChange={(e) => setExemptions(e.target.value)} spellCheck={false} className="mono" />
      </label>
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (pulled on its interval)
      </label>
      <div className="row">
        <SubmitButton busy={save.busy} busyLabel="Saving">
          {editing ? "Save changes" : "Add subscription"}
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
