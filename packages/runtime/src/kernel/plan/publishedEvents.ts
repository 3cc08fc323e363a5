/**
 * The published-event catalogue (see events/PublishedEvents.ts): each
 * plugin's `publishes`, in load order. A public name is declared once and
 * is well formed; an event class has one public name, so a payload's
 * `event` never depends on which declaration a subscriber met first.
 */
import * as Either from "effect/Either"
import { type AnyPublishedEvent, PUBLISHED_EVENT_NAME } from "../../events/PublishedEvents.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { fail } from "./failure.js"

export interface PublishedEventCatalog {
  readonly declared: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }>
  /** Adds a plugin's published events, or refuses the first bad or taken one. */
  readonly declare: (plugin: AnyPlugin) => Either.Either<void, StartupError>
}

export const publishedEventCatalog = (): PublishedEventCatalog => {
  const declared: Array<AnyPublishedEvent & { owner: string }> = []
  const nameOwner = new Map<string, string>()
  const tagName = new Map<string, { readonly name: string; readonly owner: string }>()
  const declare = (plugin: AnyPlugin): Either.Either<void, StartupError> => {
    for (const event of plugin.publishes) {
      if (!PUBLISHED_EVENT_NAME.test(event.name)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" publishes an event named "${event.name}": use lower-case words joined by dots (server.started)`)
      }
      const owner = nameOwner.get(event.name)
      if (owner !== undefined) {
        return fail("duplicate-published-event", `plugin "${plugin.id}" publishes event "${event.name}", already published by plugin "${owner}"`)
      }
      const named = tagName.get(event.tag)
      if (named !== undefined) {
        return fail(
          "duplicate-published-event",
          `plugin "${plugin.id}" publishes bus event ${event.tag} as "${event.name}", already published as "${named.name}" by plugin "${named.owner}"`
        )
      }
      nameOwner.set(event.name, plugin.id)
      tagName.set(event.tag, { name: event.name, owner: plugin.id })
      declared.push({ ...event, owner: plugin.id })
    }
    return Either.void
  }
  return { declared, declare }
}
