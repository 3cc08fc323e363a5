/**
 * Webhooks (admin). `/webhooks`: every webhook with its kind, masked URL,
 * state (a disabled one with the reason), subscriptions and last delivery,
 * and the form for a new one (its signing secret shown once after).
 * `/webhooks/:id`: one webhook: change it, turn it off or on, rotate its
 * secret, delete it, send a test (its result: status, duration, the answer's
 * first bytes), and its delivery log with replays.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link, navigate } from "@dashboard/app/router.js"
import { formatTime, Loaded, type Resource, useResource } from "@dashboard/ui/data.js"
import { ActionButton } from "@dashboard/ui/feedback.js"
import { type LastDelivery as LastDeliveryView, TEST_EVENT, type Webhook, type WebhookDelivery, type WebhookEventTypes } from "../contract/Api.js"
import { AttemptDetails, DeliveryLog, formatDuration, STATUS_CLASSES } from "./DeliveryLog.js"
import { describeSubscriptions, groupEvents } from "./EventPicker.js"
import { SecretPanel } from "./SecretPanel.js"
import { KIND_LABELS, WebhookForm } from "./WebhookForm.js"

const LIST_POLL_MS = 10_000
const WEBHOOK_POLL_MS = 5_000

type ServerNames = ReadonlyMap<string, string>

const useServerNames = (): ServerNames =>
  new Map((useResource(() => api((c) => c.servers.list({ urlParams: {} })), []).data?.items ?? []).map((s) => [s.id, s.name]))

const describeServers = (webhook: Webhook, names: ServerNames): string =>
  webhook.servers === null ? "every server" : webhook.servers.map((id) => names.get(id) ?? id).join(", ")

/** Enabled or disabled (with why), failing since when, and what is waiting. */
const WebhookState = ({ webhook }: { readonly webhook: Webhook }) => (
  <>
    {webhook.enabled ? (
      webhook.failingSince === null ? (
        <span className="badge status-running">enabled</span>
      ) : (
        <span className="badge status-starting">failing</span>
      )
    ) : (
      <span className={`badge ${webhook.disabledReason === null ? "" : "status-crashed"}`}>disabled</span>
    )}
    {!webhook.enabled && <div className="muted">{webhook.disabledReason ?? "Turned off by an admin."}</div>}
    {webhook.enabled && webhook.failingSince !== null && <div className="muted">Every attempt has failed since {formatTime(webhook.failingSince)}.</div>}
    {webhook.pending > 0 && <div className="muted">{webhook.pending} waiting for their next attempt</div>}
  </>
)

const LastDelivery = ({ delivery }: { readonly delivery: LastDeliveryView | null }) =>
  delivery === null ? (
    <span className="muted">none yet</span>
  ) : (
    <>
      <span className={`badge ${STATUS_CLASSES[delivery.status]}`}>{delivery.status}</span>
      {delivery.responseStatus !== null && <> {delivery.responseStatus}</>}
      <div className="muted">
        <span className="mono">{delivery.event}</span>, {formatTime(delivery.at)}
      </div>
    </>
  )

const useEventTypes = () => useResource(() => api((c) => c.webhooks.events()), [])

// The list -------------------------------------------------------------------------------------------------------------

// One request: each webhook comes with its newest delivery.
const loadList = async () => (await api((c) => c.webhooks.list({ urlParams: { limit: 500 } }))).items

const WebhookList = ({ events }: { readonly events: Resource<WebhookEventTypes> }) => {
  const list = useResource(loadList, [], { pollMs: LIST_POLL_MS })
  const names = useServerNames()
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<{ readonly id: string; readonly name: string; readonly secret: string } | undefined>()

  return (
    <section className="stack">
      <h1>Webhooks</h1>
      <p className="muted">
        Webhooks send the events Garrison publishes (servers starting and crashing, bans, backups, ...) to an HTTP endpoint as signed JSON, or to a chat
        platform as a message. Failed deliveries are retried for a day; a webhook that fails all that time is turned off and the admins are told.
      </p>
      {created !== undefined && (
        <>
          <SecretPanel name={created.name} secret={created.secret} onDone={() => setCreated(undefined)} />
          <p>
            <Link to={`/webhooks/${created.id}`}>Open {created.name}</Link> to send it a test.
          </p>
        </>
      )}
      {creating ? (
        <Loaded resource={events}>
          {(types) => (
            <WebhookForm
              events={types.items}
              onCancel={() => setCreating(false)}
              onSaved={async (saved) => {
                setCreating(false)
                if ("secret" in saved) setCreated({ id: saved.id, name: saved.name, secret: saved.secret })
                await list.reload()
              }}
            />
          )}
        </Loaded>
      ) : (
        <div>
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New webhook
          </button>
        </div>
      )}
      <Loaded resource={list}>
        {(webhooks) =>
          webhooks.length === 0 ? (
            <p className="notice">No webhooks yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Webhooks</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col" className="hide-narrow">
                      Kind
                    </th>
                    <th scope="col" className="hide-narrow">
                      URL
                    </th>
                    <th scope="col">State</th>
                    <th scope="col" className="hide-narrow">
                      Subscriptions
                    </th>
                    <th scope="col">Last delivery</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {webhooks.map((webhook) => (
                    <tr key={webhook.id}>
                      <td>
                        <Link to={`/webhooks/${webhook.id}`}>{webhook.name}</Link>
                      </td>
                      <td className="hide-narrow">{KIND_LABELS[webhook.kind]}</td>
                      <td className="hide-narrow mono break-anywhere">{webhook.url}</td>
                      <td>
                        <WebhookState webhook={webhook} />
                      </td>
                      <td className="hide-narrow">
                        {describeSubscriptions(webhook.events)}
                        <div className="muted">{describeServers(webhook, names)}</div>
                      </td>
                      <td>
                        <LastDelivery delivery={webhook.lastDelivery} />
                      </td>
                      <td>
                        <ActionButton
                          className="danger"
                          run={() => api((c) => c.webhooks.remove({ path: { id: webhook.id } })).then(() => list.reload())}
                          confirm={{
                            title: `Delete ${webhook.name}?`,
                            body: "The webhook, what it still had to send and its delivery log are deleted.",
                            confirmLabel: "Delete",
                            danger: true
                          }}
                          done="Webhook deleted"
                        >
                          Delete<span className="sr-only"> {webhook.name}</span>
                        </ActionButton>
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

// One webhook ----------------------------------------------------------------------------------------------------------

const TestResult = ({ delivery }: { readonly delivery: WebhookDelivery }) => (
  <section className="notice stack" aria-label="Test result">
    <p>
      <span className={`badge ${STATUS_CLASSES[delivery.status]}`}>{delivery.status}</span>{" "}
      {delivery.responseStatus === null ? "No answer" : <strong>HTTP {delivery.responseStatus}</strong>} in {formatDuration(delivery.durationMs)} (
      <span className="mono">{delivery.event}</span>, {formatTime(delivery.lastAttemptAt ?? delivery.createdAt)})
    </p>
    <AttemptDetails delivery={delivery} />
  </section>
)

const WebhookDetail = ({ id, events }: { readonly id: string; readonly events: Resource<WebhookEventTypes> }) => {
  const webhook = useResource(() => api((c) => c.webhooks.get({ path: { id } })), [id], { pollMs: WEBHOOK_POLL_MS })
  const names = useServerNames()
  const [editing, setEditing] = useState(false)
  const [secret, setSecret] = useState<string | undefined>()
  const [testEvent, setTestEvent] = useState("")
  const [result, setResult] = useState<WebhookDelivery | undefined>()
  const [version, setVersion] = useState(0)
  const title = webhook.data?.name ?? "Webhook"

  return (
    <section className="stack">
      <p>
        <Link to="/webhooks">← All webhooks</Link>
      </p>
      <h1>{title}</h1>
      <Loaded resource={webhook}>
        {(hook) => (
          <>
            {secret !== undefined && <SecretPanel name={hook.name} secret={secret} onDone={() => setSecret(undefined)} />}
            <div className="card stack">
              <dl className="kv">
                <dt>Kind</dt>
                <dd>{KIND_LABELS[hook.kind]}</dd>
                <dt>URL</dt>
                <dd className="mono break-anywhere">{hook.url}</dd>
                <dt>State</dt>
                <dd>
                  <WebhookState webhook={hook} />
                </dd>
                <dt>Subscriptions</dt>
                <dd>{describeSubscriptions(hook.events)}</dd>
                <dt>Servers</dt>
                <dd>{describeServers(hook, names)}</dd>
                <dt>Created</dt>
                <dd>{formatTime(hook.createdAt)}</dd>
                <dt>Changed</dt>
                <dd>{formatTime(hook.updatedAt)}</dd>
              </dl>
              <div className="row" role="toolbar" aria-label="Webhook controls">
                <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                  Edit
                </button>
                <ActionButton
                  run={() => api((c) => c.webhooks.update({ path: { id }, payload: { enabled: !hook.enabled } })).then(() => webhook.reload())}
                  confirm={
                    hook.enabled
                      ? {
                          title: `Turn ${hook.name} off?`,
                          body: "It sends nothing until it is turned on again; what it still had to send fails now (replay it from the log later).",
                          confirmLabel: "Turn off",
                          danger: true
                        }
                      : undefined
                  }
                  done={hook.enabled ? "Webhook turned off" : "Webhook turned on"}
                >
                  {hook.enabled ? "Turn off" : "Turn on"}
                </ActionButton>
                <ActionButton
                  run={async () => setSecret((await api((c) => c.webhooks.rotateSecret({ path: { id } }))).secret)}
                  confirm={{
                    title: `Rotate the signing secret of ${hook.name}?`,
                    body: "The current secret stops working at once: the receiver must be given the new one, shown once.",
                    confirmLabel: "Rotate",
                    danger: true
                  }}
                  done="New secret made"
                >
                  Rotate secret
                </ActionButton>
                <ActionButton
                  className="danger"
                  run={async () => {
                    await api((c) => c.webhooks.remove({ path: { id } }))
                    navigate("/webhooks")
                  }}
                  confirm={{
                    title: `Delete ${hook.name}?`,
                    body: "The webhook, what it still had to send and its delivery log are deleted.",
                    confirmLabel: "Delete",
                    danger: true
                  }}
                  done="Webhook deleted"
                >
                  Delete
                </ActionButton>
              </div>
            </div>
            {editing && (
              <Loaded resource={events}>
                {(types) => (
                  <WebhookForm
                    webhook={hook}
                    events={types.items}
                    onCancel={() => setEditing(false)}
                    onSaved={async () => {
                      setEditing(false)
                      await webhook.reload()
                    }}
                  />
                )}
              </Loaded>
            )}
            <section className="card stack" aria-labelledby="webhook-test">
              <h2 id="webhook-test">Send a test</h2>
              <p className="muted">One attempt now, whether or not the webhook is on: no retries, and it never counts towards turning it off.</p>
              <div className="row">
                <label className="grow">
                  Event to send
                  <select value={testEvent} onChange={(e) => setTestEvent(e.target.value)}>
                    <option value="">{TEST_EVENT} (a test event)</option>
                    {groupEvents(events.data?.items ?? []).map(([group, list]) => (
                      <optgroup key={group} label={group}>
                        {list.map((event) => (
                          <option key={event.name} value={event.name}>
                            {event.name} (its example)
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </select>
                </label>
                <ActionButton
                  className="primary"
                  run={async () => {
                    setResult(await api((c) => c.webhooks.test({ path: { id }, payload: testEvent === "" ? {} : { event: testEvent } })))
                    setVersion((v) => v + 1)
                    await webhook.reload()
                  }}
                >
                  Send test
                </ActionButton>
              </div>
              {result !== undefined && <TestResult delivery={result} />}
            </section>
            <DeliveryLog webhookId={id} version={version} />
          </>
        )}
      </Loaded>
    </section>
  )
}

const WebhooksPage = ({ params }: { readonly params: Readonly<Record<string, string>> }) => {
  const events = useEventTypes()
  const id = params["id"]
  return id === undefined ? <WebhookList events={events} /> : <WebhookDetail key={id} id={id} events={events} />
}

export default WebhooksPage
