/**
 * @garrison/plugins: every built-in feature, one folder each.
 */
import type { AnyPlugin } from "@garrison/runtime"
import { AccountsPlugin } from "./accounts/index.js"
import { HealthPlugin } from "./health/index.js"
import { AuditPlugin } from "./audit/index.js"
import { NotificationsPlugin } from "./notifications/index.js"

export * from "./accounts/index.js"
export * from "./health/index.js"
export * from "./audit/index.js"
export * from "./notifications/index.js"

/** The plugins the controller loads by default, in no particular order (the host orders them). */
export const defaultPlugins: ReadonlyArray<AnyPlugin> = [HealthPlugin, AccountsPlugin, AuditPlugin, NotificationsPlugin]
