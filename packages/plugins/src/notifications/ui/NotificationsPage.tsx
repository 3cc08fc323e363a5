/** Every notification the user can see: mark read (one or all), clear all, older pages. */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner } from "@dashboard/ui/feedback.js"
import type { Notification } from "../contract/Api.js"

const NotificationsPage = () => {
  const list = useResource(async () => {
    const page = await api((c) => c.notifications.list({ urlParams: { limit: 50 } }))
    setOlder([])
    setCursor(page.nextCursor)
    return page
  }, [])
  const [older, setOlder] = useState<ReadonlyArray<Notification>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  return (
    <section className="stack">
      <h1>Notifications</h1>
      <div className="row">
        <ActionButton run={() => api((c) => c.notifications.markRead({ payload: {} })).then(() => list.reload())} done="All marked read">
          Mark all read
        </ActionButton>
        <ActionButton
          className="danger"
          run={() => api((c) => c.notifications.clear()).then(() => list.reload())}
          confirm={{ title: "Clear all notifications?", body: "You will no longer see them.", confirmLabel: "Clear", danger: true }}
          done="Cleared"
        >
          Clear all
        </ActionButton>
      </div>
      <Loaded resource={list}>
        {(page) => {
          const all = [...page.items, ...older]
          return all.length === 0 ? (
            <p className="notice">No notifications.</p>
          ) : (
            <>
              <p className="muted">{page.unreadCount} unread</p>
              <ul className="stack plain">
                {all.map((n) => (
                  <li key={n.id} className={`card ${n.read ? "" : "unread"}`}>
                    <div className="row">
                      <span className={`badge ${n.level === "error" ? "status-crashed" : n.level === "warning" ? "status-starting" : ""}`}>{n.level}</span>
                      <span>{n.title}</span>
                      <div className="spacer" />
                      <span className="muted">{formatTime(n.createdAt)}</span>
                      {!n.read && (
                        <ActionButton run={() => api((c) => c.notifications.markRead({ payload: { ids: [n.id] } })).then(() => list.reload())}>
                          Mark read<span className="sr-only"> {n.title}</span>
                        </ActionButton>
                      )}
                    </div>
                    <p>{n.message}</p>
                    {n.link !== null && (n.link.startsWith("/") ? <Link to={n.link}>Open</Link> : <a href={n.link} rel="noreferrer noopener" target="_blank">Open</a>)}
                  </li>
                ))}
              </ul>
              {cursor !== null && (
                <button
                  type="button"
                  disabled={loading}
                  onClick={async () => {
                    setLoading(true)
                    try {
                      const next = await api((c) => c.notifications.list({ urlParams: { limit: 50, cursor } }))
                      setOlder((o) => [...o, ...next.items])
                      setCursor(next.nextCursor)
                    } finally {
                      setLoading(false)
                    }
                  }}
                >
                  {loading && <Spinner label="Loading" />}Older
                </button>
              )}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

export default NotificationsPage
