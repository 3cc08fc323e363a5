/**
 * The chat plugin's page: the actions the bot can run (every signed-in
 * user), the chat users' roles (`users.manage`), and the bot key (admin:
 * shown once, rotated).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const chatUi: PluginUi = {
  id: "chat",
  // Lazy: the page's code is fetched when it is first opened. Open to every signed-in user (the action table is any-auth); the page shows the rest by permission.
  routes: [{ path: "/chat", title: "Chat bot", component: lazy(() => import("./ChatPage.js")) }],
  nav: [{ label: "Chat bot", path: "/chat", order: 67 }]
}
