/**
 * The webhooks plugin's page (admin): the webhooks, their create and edit
 * form with the event picker, and each webhook's page (`/webhooks/:id`, the
 * link of the notification sent when one is disabled) with its test
 * delivery, delivery log and replays.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

// Lazy, one chunk for both routes: the page's code is fetched when it is first opened.
const WebhooksPage = lazy(() => import("./WebhooksPage.js"))

export const webhooksUi: PluginUi = {
  id: "webhooks",
  routes: [
    { path: "/webhooks", title: "Webhooks", component: WebhooksPage, anyOf: ["admin"] },
    { path: "/webhooks/:id", title: "Webhook", component: WebhooksPage, anyOf: ["admin"] }
  ],
  nav: [{ label: "Webhooks", path: "/webhooks", anyOf: ["admin"], order: 66 }]
}
