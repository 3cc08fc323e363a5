/** The notifications plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { NotificationPublished } from "./events.js"

export const NOTIFICATION_EVENTS = [
  published(NotificationPublished, {
    name: "notification.published",
    description:
      "A notification was stored for its audience (a user, the holders of a permission, or everyone); it carries the title and level, not the message body.",
    example: new NotificationPublished({
      id: "e4b7c2d9-1f3a-4c6e-8b5d-0a9f7e3c2b18",
      audience: { permission: "server.view" },
      level: "warning",
      title: "Main crashed",
      serverId: "a1b2c3",
      createdAt: "2026-03-14T20:15:00.000Z"
    }),
    severity: (e) => e.level,
    summary: (e) => oneLine(e.title, 200)
  })
]
