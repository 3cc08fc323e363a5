/**
 * @garrison/plugins: every built-in feature, one folder each.
 */
import type { AnyPlugin } from "@garrison/runtime"
import { AccountsPlugin } from "./accounts/index.js"
import { HealthPlugin } from "./health/index.js"
import { AuditPlugin } from "./audit/index.js"
import { NotificationsPlugin } from "./notifications/index.js"
import { LogsPlugin } from "./logs/index.js"
import { ServersPlugin } from "./servers/index.js"
import { SchedulerPlugin } from "./scheduler/index.js"
import { PlayersPlugin } from "./players/index.js"
import { BansPlugin } from "./bans/index.js"
import { PriorityPlugin } from "./priority/index.js"
import { ActionsPlugin } from "./actions/index.js"
import { PlatformPlugin } from "./platform/index.js"
import { ModsPlugin } from "./mods/index.js"
import { UpdatesPlugin } from "./updates/index.js"
import { RolloutPlugin } from "./rollout/index.js"

export * from "./accounts/index.js"
export * from "./health/index.js"
export * from "./audit/index.js"
export * from "./notifications/index.js"
export * from "./logs/index.js"
export * from "./servers/index.js"
export * from "./scheduler/index.js"
export * from "./players/index.js"
export * from "./bans/index.js"
export * from "./priority/index.js"
export * from "./actions/index.js"
export * from "./platform/index.js"
export * from "./mods/index.js"
export * from "./updates/index.js"
export * from "./rollout/index.js"

/** The plugins the controller loads by default, in no particular order (the host orders them). */
export const defaultPlugins: ReadonlyArray<AnyPlugin> = [HealthPlugin, AccountsPlugin, AuditPlugin, NotificationsPlugin, ServersPlugin, SchedulerPlugin, PlayersPlugin, LogsPlugin, PriorityPlugin, BansPlugin, ActionsPlugin, PlatformPlugin, ModsPlugin, UpdatesPlugin, RolloutPlugin]
