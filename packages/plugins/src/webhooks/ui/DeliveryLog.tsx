/**
 * A webhook's delivery log, newest first (polled while the tab is visible):
 * filtered by status, paged with the API's cursor, each delivery with its
 * event, status, last answer, duration, attempts and (pending) next attempt,
 * the answer's first bytes or the error to unfold, and Replay on a failed one.
 */
import { useEffect, useRef, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton } from "@dashboard/ui/feedback.js"
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookDelivery } from "../contract/Api.js"

const POLL_MS = 3_000
const PAGE_SIZE = 25

/** The servers' status classes: delivered green, pending amber, failed red. */
export const STATUS_CLASSES: Record<DeliveryStatus, string> = {
  delivered: "status-running",
  pending: "status-starting",
  failed: "status-crashed"
}

export const formatDuration = (ms: number | null): string => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`)

/** The answer's first bytes and the error, for a delivery or a test's result. */
export const AttemptDetails = ({ delivery }: { readonly delivery: WebhookDelivery }) => (
  <div className="stack">
    {delivery.error !== null && (
      <p>
        <strong>Error:</strong> {delivery.error}
      </p>
    )}
    {delivery.responseBody !== null && delivery.responseBody !== "" ? (
      <>
        <strong>The answer's first bytes:</strong>
        <pre className="log-view">{delivery.responseBody}</pre>
      </>
    ) : (
      delivery.error === null && <p className="muted">{delivery.attempts === 0 ? "Not sent yet." : "The answer had no body."}</p>
    )}
    <p className="muted">
      Delivery <span className="mono">{delivery.id}</span>, idempotency key <span className="mono">{delivery.idempotencyKey}</span>
      {delivery.replayOf !== null && (
        <>
          , replaying <span className="mono">{delivery.replayOf}</span>
        </>
      )}
    </p>
  </div>
)

const DeliveryRow = ({ delivery, webhookId, replayed }: { readonly delivery: WebhookDelivery; readonly webhookId: string; readonly replayed: () => Promise<void> }) => (
  <tr>
    <td>
      <span className="mono">{delivery.event}</span> {delivery.test && <span className="badge">test</span>}{" "}
      {delivery.replayOf !== null && <span className="badge">replay</span>}
      <div className="muted break-anywhere">{delivery.summary}</div>
    </td>
    <td>
      <span className={`badge ${STATUS_CLASSES[delivery.status]}`}>{delivery.status}</span>
    </td>
    <td>{delivery.responseStatus ?? "—"}</td>
    <td className="hide-narrow">{formatDuration(delivery.durationMs)}</td>
    <td className="hide-narrow">{delivery.attempts}</td>
    <td>
      {formatTime(delivery.createdAt)}
      {delivery.status === "pending" && delivery.nextAttemptAt !== null && <div className="muted">next attempt {formatTime(delivery.nextAttemptAt)}</div>}
      {delivery.lastAttemptAt !== null && delivery.status !== "pending" && <div className="muted">last attempt {formatTime(delivery.lastAttemptAt)}</div>}
    </td>
    <td>
      <div className="stack">
        <details>
          <summary>
            Answer<span className="sr-only"> of {delivery.event} at {formatTime(delivery.createdAt)}</span>
          </summary>
          <AttemptDetails delivery={delivery} />
        </details>
        {delivery.status === "failed" && (
          <ActionButton
            run={() => api((c) => c.webhooks.replay({ path: { id: webhookId, deliveryId: delivery.id } })).then(replayed)}
            done="Replay queued"
          >
            Replay<span className="sr-only"> {delivery.event}</span>
          </ActionButton>
        )}
      </div>
    </td>
  </tr>
)

/** `version`: raised by the page when it sent something, so the log is read again at once. */
export const DeliveryLog = ({ webhookId, version }: { readonly webhookId: string; readonly version: number }) => {
  const [status, setStatus] = useState<DeliveryStatus | "">("")
  // The cursors of the pages before the one shown (the API pages forward only): "Newer" goes back one.
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  const cursor = cursors.at(-1)
  const deliveries = useResource(
    () =>
      api((c) =>
        c.webhooks.deliveries({
          path: { id: webhookId },
          urlParams: { limit: PAGE_SIZE, ...(status === "" ? {} : { status }), ...(cursor === undefined ? {} : { cursor }) }
        })
      ),
    [webhookId, status, cursor],
    { pollMs: POLL_MS }
  )
  // Something was sent (a test): read the log again now, keeping the rows shown meanwhile.
  const seen = useRef(version)
  useEffect(() => {
    if (seen.current === version) return
    seen.current = version
    void deliveries.reload()
  }, [version])
  return (
    <section className="stack" aria-labelledby="delivery-log">
      <div className="row">
        <h2 id="delivery-log">Delivery log</h2>
        <div className="spacer" />
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | "")
              setCursors([])
            }}
          >
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded resource={deliveries}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <p className="notice">{cursor === undefined ? (status === "" ? "Nothing delivered yet." : `No ${status} deliveries.`) : "No older deliveries."}</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Deliveries, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Status</th>
                      <th scope="col">Response</th>
                      <th scope="col" className="hide-narrow">
                        Duration
                      </th>
                      <th scope="col" className="hide-narrow">
                        Attempts
                      </th>
                      <th scope="col">Queued</th>
                      <th scope="col">Details</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((delivery) => (
                      <DeliveryRow key={delivery.id} delivery={delivery} webhookId={webhookId} replayed={deliveries.reload} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <nav className="row" aria-label="Delivery log pages">
              <button type="button" disabled={cursors.length === 0} onClick={() => setCursors([])}>
                Newest
              </button>
              <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
                Newer
              </button>
              <button type="button" disabled={page.nextCursor === null} onClick={() => page.nextCursor !== null && setCursors([...cursors, page.nextCursor])}>
                Older
              </button>
            </nav>
          </>
        )}
      </Loaded>
    </section>
  )
}
