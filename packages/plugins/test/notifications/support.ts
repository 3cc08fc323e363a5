/**
 * The notifications tests' controller (see `../support/controller.ts`):
 * the notifications plugin and the header authenticator on a temporary
 * data directory.
 */
import type { AnyPlugin } from "@garrison/runtime"
import { type Notifications, NotificationsPlugin } from "../../src/notifications/index.js"
import { testController } from "../support/controller.js"

export { call, eventually, type Reply } from "../support/controller.js"

/** A fresh controller (own data directory) with the notifications plugin. */
export const notificationsController = (extra: ReadonlyArray<AnyPlugin> = []) =>
  testController<Notifications>([NotificationsPlugin], { dataPrefix: "garrison-notifications-", extra })
