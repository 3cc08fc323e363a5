/**
 * The events Garrison offers to the outside world: webhooks, notifications
 * delivered through a webhook, the cloud link. A plugin lists the bus events
 * it publishes that an admin may subscribe to (`Plugin.make({ publishes })`),
 * each under a public dotted name (`server.started`, `player.ban`) with a
 * description, an example, a severity, the server it concerns and a one-line
 * summary. The kernel checks the names at start-up (one owner each, one
 * public name per event class) and serves the catalogue as `PublishedEvents`.
 *
 * The bus keeps carrying the classes; this is only how they look outside:
 * `data` is the event's encoded fields without its `_tag` unless the
 * declaration says otherwise, so a secret never belongs in an event class.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { oneLine } from "../servers/GameControl.js"
import type { AnyEvent } from "./EventBus.js"

/** How an event reads to a person: a chat embed's colour, a notification's level. */
export type EventSeverity = "info" | "success" | "warning" | "error"

/** Every severity, mildest first: what an event whose severity is read off it may have unless its declaration says. */
export const EVENT_SEVERITIES: ReadonlyArray<EventSeverity> = ["info", "success", "warning", "error"]

/** Lower-case words joined by dots, at least two: `server.started`, `mod.job-failed`. */
export const PUBLISHED_EVENT_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/

export interface PublishedEvent<A extends AnyEvent = AnyEvent> {
  /** The public name (`server.restarted`): what subscriptions name and payloads carry as `event`. */
  readonly name: string
  /** The bus event class's `_tag`. */
  readonly tag: string
  /** One sentence for the event-type list. */
  readonly description: string
  /** An instance, for the event-type list's example payload and test deliveries. */
  readonly example: A
  /** The severities its events can have, mildest first: the fixed one, or what the declaration states (every one when it does not). */
  readonly severities: ReadonlyArray<EventSeverity>
  // Methods, not function properties: a declaration of one class then stands as one of any event (AnyPublishedEvent);
  // the catalogue only hands each the events of its own class (`byTag`).
  severity(event: A): EventSeverity
  /** The game server it concerns, for subscriptions limited to servers; undefined for a controller-wide event. */
  serverId(event: A): string | undefined
  /** One line a person reads: a chat embed's title, a notification's text. */
  summary(event: A): string
  /** The payload's `data`: plain JSON. */
  data(event: A): Readonly<Record<string, unknown>>
}

/** A declaration of any event class (what `publishes` holds). */
export type AnyPublishedEvent = PublishedEvent<AnyEvent>

export interface PublishSpec<A extends AnyEvent> {
  readonly name: string
  readonly description: string
  readonly example: A
  /** A fixed severity or one read off the event: `info` by default. */
  readonly severity?: EventSeverity | ((event: A) => EventSeverity)
  /**
   * The severities a `severity` read off the event can give (`["success", "error"]`), for the event-type list;
   * left out: the fixed one, or every severity for a function.
   */
  readonly severities?: ReadonlyArray<EventSeverity>
  /** By default the event's `serverId` field when it has a string one. */
  readonly serverId?: (event: A) => string | undefined
  readonly summary: (event: A) => string
  /** By default the encoded event without `_tag`. */
  readonly data?: (event: A) => Readonly<Record<string, unknown>>
}

/** The longest summary: a chat embed's title takes 256, a notification's text more. */
export const SUMMARY_MAX = 500

/** An event class the bus carries: a `Schema.TaggedClass`. */
export type PublishableClass<A extends AnyEvent, I> = Schema.Schema<A, I, never> & { readonly _tag: A["_tag"] }

/**
 * Declares one event class as published: `published(ServerRestarted, { name: "server.restarted", ... })`.
 * The class's schema encodes `data` (dates as ISO text, and so on).
 */
export const published = <A extends AnyEvent, I>(eventClass: PublishableClass<A, I>, spec: PublishSpec<A>): PublishedEvent<A> => {
  const encode = Schema.encodeSync(eventClass)
  const severity = spec.severity
  return {
    name: spec.name,
    tag: eventClass._tag,
    description: spec.description,
    example: spec.example,
    severities:
      typeof severity === "function"
        ? EVENT_SEVERITIES.filter((one) => spec.severities === undefined || spec.severities.includes(one))
        : [severity ?? "info"],
    severity: typeof severity === "function" ? severity : () => severity ?? "info",
    serverId:
      spec.serverId ??
      ((event) => {
        const id = (event as unknown as { readonly serverId?: unknown }).serverId
        return typeof id === "string" ? id : undefined
      }),
    // One line whatever the plugin wrote (a chat title, a log line): control characters flattened, 500 at most.
    summary: (event) => oneLine(spec.summary(event), SUMMARY_MAX),
    data:
      spec.data ??
      ((event) => {
        const { _tag, ...fields } = encode(event) as unknown as Record<string, unknown>
        return fields
      })
  }
}

/**
 * Whether a subscription pattern takes an event name: the name itself, `*`
 * (everything), or a prefix ending in `.*` (`server.*` takes `server.started`
 * and `server.update.failed`, not `servers.x`).
 */
export const eventPatternMatches = (pattern: string, name: string): boolean =>
  pattern === "*" || pattern === name || (pattern.endsWith(".*") && name.startsWith(pattern.slice(0, -1)))

/** A pattern is well formed: `*`, a name, or a name's leading words then `.*`. */
export const isEventPattern = (pattern: string): boolean =>
  pattern === "*" || PUBLISHED_EVENT_NAME.test(pattern) || (pattern.endsWith(".*") && /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/.test(pattern.slice(0, -2)))

export interface PublishedEventsShape {
  /** Every published event, in plugin load order, with the plugin that declared it. */
  readonly all: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }>
  readonly byTag: (tag: string) => (AnyPublishedEvent & { readonly owner: string }) | undefined
  readonly byName: (name: string) => (AnyPublishedEvent & { readonly owner: string }) | undefined
  /** The published names a pattern takes (none: the pattern names nothing Garrison publishes). */
  readonly namesMatching: (pattern: string) => ReadonlyArray<string>
}

export class PublishedEvents extends Context.Tag("@garrison/runtime/PublishedEvents")<PublishedEvents, PublishedEventsShape>() {
  static readonly make = (declared: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }>): PublishedEventsShape => {
    const byTag = new Map(declared.map((event) => [event.tag, event]))
    const byName = new Map(declared.map((event) => [event.name, event]))
    return {
      all: declared,
      byTag: (tag) => byTag.get(tag),
      byName: (name) => byName.get(name),
      namesMatching: (pattern) => declared.filter((event) => eventPatternMatches(pattern, event.name)).map((event) => event.name)
    }
  }
  static readonly layer = (declared: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }>) =>
    Layer.succeed(PublishedEvents, PublishedEvents.make(declared))
}
