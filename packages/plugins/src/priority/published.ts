/** The priority plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { published } from "@garrison/runtime"
import { PriorityChanged } from "./events.js"

const WHAT = { added: "added to", updated: "updated in", removed: "removed from", imported: "imported into", cleaned: "expired from" } as const

export const PRIORITY_EVENTS = [
  published(PriorityChanged, {
    name: "priority.changed",
    description:
      "The priority queue changed and every server's priority.txt was synced: entries added, updated, removed, imported, or cleaned once expired; `platformIds` are the players' Steam64 ids.",
    example: new PriorityChanged({ action: "added", ids: ["7c1e9a40-5b2d-4f8e-a1c3-6d9b0e2f4a57"], platformIds: ["76561198000000001"] }),
    summary: (e) =>
      e.ids.length === 1
        ? `${e.platformIds[0] ?? "1 entry"} ${WHAT[e.action]} the priority queue`
        : `${e.ids.length} entries ${WHAT[e.action]} the priority queue`
  })
]
