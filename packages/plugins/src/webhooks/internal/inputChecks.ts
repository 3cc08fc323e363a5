/**
 * The rules a webhook's input must pass beyond its schema: patterns that
 * match a published event, servers that exist, a URL that is well formed
 * and (unless private addresses are allowed) not a private literal.
 */
import * as Effect from "effect/Effect"
import type { EventSubscriptionInput, WebhookKind } from "../contract/Api.js"
import { blockedAddress, isIpLiteral } from "./address.js"
import { invalid, type WebhooksDeps } from "./deps.js"
import { normalize } from "./subscriptions.js"
import { looksLikeChatWebhook, normalizeUrl, urlProblem } from "./url.js"

export const makeInputChecks = ({ published, servers, settings }: Pick<WebhooksDeps, "published" | "servers" | "settings">) => {
  const checkSubscriptions = (items: ReadonlyArray<EventSubscriptionInput>, field: string) =>
    Effect.forEach(items, (item, index) => {
      const subscription = normalize(item)
      return published.namesMatching(subscription.pattern).length > 0
        ? Effect.succeed(subscription)
        : Effect.fail(
            invalid(
              `${field}.${index}.pattern`,
              `"${subscription.pattern}" matches none of the events Garrison publishes: choose from the list of events`
            )
          )
    })

  const checkServers = (ids: ReadonlyArray<string> | null | undefined, field: string) =>
    Effect.gen(function* () {
      if (ids === null || ids === undefined) return null
      for (const [index, id] of ids.entries()) {
        // An entry that cannot be read still exists: only a missing one is refused.
        const missing = yield* servers.entry(id).pipe(
          Effect.as(false),
          Effect.catchTags({ ServerNotFound: () => Effect.succeed(true), ServerUnreadable: () => Effect.succeed(false) })
        )
        if (missing) return yield* invalid(`${field}.${index}`, `there is no server with id "${id}": it may have been deleted`)
      }
      return [...new Set(ids)]
    })

  /** The URL as stored; refused when it names a private address literally and those are not allowed. */
  const checkUrl = (text: string, field: string) =>
    Effect.gen(function* () {
      const problem = urlProblem(text)
      if (problem !== undefined) return yield* invalid(field, problem)
      const url = normalizeUrl(text)
      const host = new URL(url).hostname
      if (!settings.allowPrivate && isIpLiteral(host)) {
        const why = blockedAddress(host)
        if (why !== undefined) {
          return yield* invalid(
            field,
            `${host} is ${why}: webhooks reach public addresses only (the operator can allow private ones with WEBHOOKS_ALLOW_PRIVATE=true)`
          )
        }
      }
      return url
    })

  return { checkSubscriptions, checkServers, checkUrl }
}

export type InputChecks = ReturnType<typeof makeInputChecks>

/** A kind not given is guessed from the URL: a chat platform's webhook address, else plain HTTP. */
export const kindFor = (kind: WebhookKind | undefined, url: string): WebhookKind => kind ?? (looksLikeChatWebhook(url) ? "discord" : "http")
