/** The bell: unread count (polled), the newest notifications in a popover, mark read. */
import { useEffect, useRef, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, useResource } from "@dashboard/ui/data.js"
import { ActionButton } from "@dashboard/ui/feedback.js"

export const Bell = () => {
  const list = useResource(() => api((c) => c.notifications.list({ urlParams: { limit: 10 } })), [], { pollMs: 15000 })
  const [open, setOpen] = useState(false)
  const panel = useRef<HTMLDivElement>(null)
  const unread = list.data?.unreadCount ?? 0
  useEffect(() => {
    if (!open) return
    const close = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false)
    window.addEventListener("keydown", close)
    return () => window.removeEventListener("keydown", close)
  }, [open])
  return (
    <>
      <button
        type="button"
        className="icon bell"
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={`Notifications, ${unread} unread`}
        onClick={() => setOpen(!open)}
      >
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div id="notifications-panel" ref={panel} className="card popover stack" role="region" aria-label="Notifications">
          <div className="row">
            <strong>Notifications</strong>
            <div className="spacer" />
            <ActionButton run={() => api((c) => c.notifications.markRead({ payload: {} })).then(() => list.reload())} disabled={unread === 0}>
              Mark all read
            </ActionButton>
          </div>
          {(list.data?.items ?? []).length === 0 ? (
            <p className="muted">Nothing yet.</p>
          ) : (
            <ul className="stack plain">
              {list.data!.items.map((n) => (
                <li key={n.id} className={n.read ? undefined : "unread"}>
                  <span className={`badge ${n.level === "error" ? "status-crashed" : n.level === "warning" ? "status-starting" : ""}`}>{n.level}</span> {n.title}
                  <div className="muted">{n.message}</div>
                  <div className="muted">{formatTime(n.createdAt)}</div>
                </li>
              ))}
            </ul>
          )}
          <Link to="/notifications" onClick={() => setOpen(false)}>
            All notifications
          </Link>
        </div>
      )}
    </>
  )
}
