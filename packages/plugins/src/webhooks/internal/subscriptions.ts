/**
 * Which webhooks take an event: one of its subscriptions' patterns takes
 * the event's public name (`eventPatternMatches`: the name, `server.*`,
 * `*`) with the event's severity among the subscription's (when it names
 * any), and the event is about one of its servers (when it names any; a
 * controller-wide event is then left out).
 *
 * The enabled webhooks are kept in memory in this form (reloaded after
 * every change), so an event that no webhook takes costs no query.
 */
import { eventPatternMatches, type EventSeverity } from "@garrison/runtime"
import type { EventSubscription, EventSubscriptionInput } from "../contract/Api.js"

export interface ActiveWebhook {
  readonly id: string
  readonly subscriptions: ReadonlyArray<EventSubscription>
  readonly servers: ReadonlySet<string> | null
}

export const takes = (webhook: ActiveWebhook, name: string, severity: EventSeverity, serverId: string | undefined): boolean =>
  (webhook.servers === null || (serverId !== undefined && webhook.servers.has(serverId))) &&
  webhook.subscriptions.some(
    (subscription) =>
      eventPatternMatches(subscription.pattern, name) && (subscription.severities === null || subscription.severities.includes(severity))
  )

/** A subscription as stored: without severities it takes every severity. */
export const normalize = (input: EventSubscriptionInput): EventSubscription => ({
  pattern: input.pattern,
  severities: input.severities === undefined || input.severities === null ? null : [...new Set(input.severities)]
})
