/**
 * Create or change a webhook: name, kind, URL (kept when left empty on an
 * edit: the API only ever shows it masked), the events (the picker), the
 * servers it hears about, and whether it is on.
 */
import { type FormEvent, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { type Webhook, type WebhookCreated, type WebhookEventType, type WebhookKind } from "../contract/Api.js"
import { EventPicker, type Subscription } from "./EventPicker.js"

export const KIND_LABELS: Record<WebhookKind, string> = {
  http: "HTTP",
  discord: "Chat platform"
}

export const WebhookForm = ({
  webhook,
  events,
  onSaved,
  onCancel
}: {
  /** The webhook to change; none: a new one. */
  readonly webhook?: Webhook
  readonly events: ReadonlyArray<WebhookEventType>
  readonly onSaved: (saved: Webhook | WebhookCreated) => void | Promise<void>
  readonly onCancel: () => void
}) => {
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const [name, setName] = useState(webhook?.name ?? "")
  const [kind, setKind] = useState<WebhookKind | "">(webhook?.kind ?? "")
  const [url, setUrl] = useState("")
  const [subscriptions, setSubscriptions] = useState<ReadonlyArray<Subscription>>(webhook?.events ?? [])
  const [everyServer, setEveryServer] = useState(webhook === undefined || webhook.servers === null)
  const [chosenServers, setChosenServers] = useState<ReadonlyArray<string>>(webhook?.servers ?? [])
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true)
  const [problem, setProblem] = useState<string | undefined>()
  const editing = webhook !== undefined

  const save = useSubmit(async () => {
    // Servers deleted since the webhook named them are left out (the API refuses an id that names no server).
    const known = servers.data?.items.map((server) => server.id)
    const limit = everyServer ? null : known === undefined ? chosenServers : chosenServers.filter((id) => known.includes(id))
    const saved = editing
      ? await api((c) =>
          c.webhooks.update({
            path: { id: webhook.id },
            payload: { name, ...(kind === "" ? {} : { kind }), ...(url === "" ? {} : { url }), events: subscriptions, servers: limit, enabled }
          })
        )
      : await api((c) => c.webhooks.create({ payload: { name, url, ...(kind === "" ? {} : { kind }), events: subscriptions, servers: limit, enabled } }))
    await onSaved(saved)
  }, editing ? "Webhook saved" : "Webhook created")

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const missing =
      subscriptions.length === 0
        ? "Choose at least one event, group or pattern."
        : !everyServer && chosenServers.length === 0
          ? "Choose at least one server, or every server."
          : undefined
    setProblem(missing)
    if (missing === undefined) void save.submit()
  }

  const title = editing ? `Change ${webhook.name}` : "New webhook"
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="webhook-form-title">
      <h2 id="webhook-form-title">{title}</h2>
      <div className="grid">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} autoComplete="off" />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as WebhookKind | "")}>
            {!editing && <option value="">Automatic (chat platform for a Discord webhook URL, else HTTP)</option>}
            <option value="http">HTTP: signed JSON</option>
            <option value="discord">Chat platform (Discord-style message)</option>
          </select>
        </label>
      </div>
      <label>
        {editing ? "URL (leave empty to keep the current one)" : "URL"}
        <input
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value.trim())}
          required={!editing}
          maxLength={2048}
          placeholder={editing ? webhook.url : "https://example.com/hooks/garrison"}
          autoComplete="off"
          spellCheck={false}
          className="mono"
        />
      </label>
      <EventPicker events={events} value={subscriptions} onChange={setSubscriptions} />
      <fieldset className="stack">
        <legend>Servers</legend>
        <label>
          Events about
          <select value={everyServer ? "every" : "chosen"} onChange={(e) => setEveryServer(e.target.value === "every")}>
            <option value="every">Every server, and the controller itself</option>
            <option value="chosen">Only the servers chosen below</option>
          </select>
        </label>
        {!everyServer && (
          <Loaded resource={servers}>
            {(list) =>
              list.items.length === 0 ? (
                <p className="muted">There are no servers yet.</p>
              ) : (
                <ul className="plain stack" aria-label="Servers to hear about">
                  {list.items.map((server) => (
                    <li key={server.id}>
                      <label className="inline">
                        <input
                          type="checkbox"
                          checked={chosenServers.includes(server.id)}
                          onChange={(e) =>
                            setChosenServers(e.target.checked ? [...chosenServers, server.id] : chosenServers.filter((id) => id !== server.id))
                          }
                        />
                        {server.name}
                      </label>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loaded>
        )}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (sends the events it subscribes to)
      </label>
      {problem !== undefined && (
        <p className="notice error" role="alert">
          {problem}
        </p>
      )}
      <div className="row">
        <SubmitButton busy={save.busy} busyLabel="Saving">
          {editing ? "Save changes" : "Create webhook"}
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
