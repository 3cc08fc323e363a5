/**
 * A community plugin, "message of the day": operators with `motd.manage`
 * post short notices that every signed-in user can read. Written against the
 * public `@garrison/runtime` contract only. Load it into the controller with
 * `PLUGINS=./examples/community-plugin`.
 */
import { Plugin } from "@garrison/runtime"
import { MANAGE, MotdApi } from "./contract/Api.js"
import { countPost } from "./events.js"
import { migrations } from "./migrations.js"
import { MotdRoutes } from "./routes.js"
import { Motd } from "./service.js"

export const MotdPlugin = Plugin.make({
  id: "motd",
  description: "Message of the day: short notices from operators",
  permissions: [{ name: MANAGE, description: "Post and delete messages of the day" }],
  migrations,
  layer: Motd.layer,
  http: Plugin.http(MotdApi, MotdRoutes),
  events: [countPost]
})

export default MotdPlugin

export { AuthorCount, MANAGE, MAX_TEXT_LENGTH, MotdApi, MotdGroup, MotdMessage, MotdStats, NewMotd } from "./contract/Api.js"
export { MotdPosted } from "./events.js"
export { migrations } from "./migrations.js"
export { Motd, MotdNotFound, MotdStorageError } from "./service.js"
export type { MotdShape } from "./service.js"
