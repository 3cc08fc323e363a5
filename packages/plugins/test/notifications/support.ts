/**
 * The notifications tests' controller (the testkit's `testController`):
 * the notifications plugin and the header authenticator on a temporary
 * data directory.
 */
import type { AnyPlugin, GarrisonSettings } from "@garrison/runtime"
import { type Notifications, NotificationsPlugin } from "../../src/notifications/index.js"
import { DefaultPermissionsPlugin, testController } from "@garrison/testkit"

export { call, eventually, type Reply } from "@garrison/testkit"

/** A fresh controller (own data directory) with the notifications plugin; `settings` over the defaults (a PostgreSQL `databaseUrl`, say). */
export const notificationsController = (extra: ReadonlyArray<AnyPlugin> = [], settings: Partial<GarrisonSettings> = {}) =>
  testController<Notifications>([NotificationsPlugin, DefaultPermissionsPlugin, ...extra], { dataPrefix: "garrison-notifications-", settings })
