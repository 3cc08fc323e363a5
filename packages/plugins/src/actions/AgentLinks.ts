/**
 * The agent of each server as the controller reaches it: one client per
 * server (made again when its URL or key changes), and whether it can be
 * used now, from its `/health`, kept for `HEALTH_TTL` so choosing a provider
 * for an action costs no request most of the time. An agent is usable when
 * it answers with the key and its mod is answering.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { AgentClient } from "@garrison/agent/client"
import type { AgentSettings, ServerEntry } from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Availability } from "../servers/index.js"

/** How long an agent's health answer stands for. */
export const HEALTH_TTL = Duration.seconds(3)

export interface AgentLink {
  readonly url: string
  readonly client: AgentClient.AgentClient
  /** Can the agent (and its mod) be used now? From a cached `/health`. */
  readonly availability: Effect.Effect<Availability>
}

export interface AgentLinksShape {
  /** The server's agent, when its entry names one. */
  readonly forEntry: (entry: ServerEntry) => Option.Option<AgentLink>
  /** Forgets a server's link (its entry was deleted). */
  readonly forget: (serverId: string) => Effect.Effect<void>
}

/** Why a health answer (or its failure) makes the agent unusable, as an admin reads it. */
const judge = (url: string, health: AgentClient.AgentClient["health"]) =>
  health.pipe(
    Effect.map((answer): Availability =>
      answer.mod.answering
        ? { available: true }
        : {
            available: false,
            reason:
              answer.mod.lastResponseAgeMs === null && answer.mod.heartbeatAgeMs === null
                ? "the agent is up but its mod has not answered yet"
                : "the agent is up but its mod is not answering"
          }
    ),
    Effect.catchAll((error): Effect.Effect<Availability> => {
      const reason =
        error._tag === "AgentUnauthorized"
          ? `the agent at ${url} refused Garrison's key: set the entry's agent.apiKey to its SIDECAR_API_KEY`
          : error._tag === "AgentUnreachable"
            ? `the agent at ${url} is not reachable`
            : `the agent at ${url} answered its health check badly`
      return Effect.succeed({ available: false, reason })
    })
  )

export class AgentLinks extends Context.Tag("@garrison/plugins/actions/AgentLinks")<AgentLinks, AgentLinksShape>() {
  static readonly make = Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const links = new Map<string, { readonly settings: AgentSettings; readonly link: AgentLink }>()

    const makeLink = (settings: AgentSettings): AgentLink => {
      const client = Effect.runSync(
        AgentClient.make({ baseUrl: settings.url, key: settings.apiKey === "" ? undefined : settings.apiKey }).pipe(
          Effect.provideService(HttpClient.HttpClient, http)
        )
      )
      // The last answer and when it was taken; one check at a time refreshes it.
      let last: { readonly at: number; readonly value: Availability } | undefined
      const check = Effect.makeSemaphore(1).pipe(Effect.runSync)
      const availability = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (last !== undefined && now - last.at < Duration.toMillis(HEALTH_TTL)) return last.value
        return yield* check.withPermits(1)(
          Effect.gen(function* () {
            const again = yield* Clock.currentTimeMillis
            if (last !== undefined && again - last.at < Duration.toMillis(HEALTH_TTL)) return last.value
            const value = yield* judge(settings.url, client.health)
            last = { at: yield* Clock.currentTimeMillis, value }
            return value
          })
        )
      })
      return { url: settings.url, client, availability }
    }

    const forEntry: AgentLinksShape["forEntry"] = (entry) => {
      if (entry.agent === undefined) return Option.none()
      const known = links.get(entry.id)
      if (known !== undefined && known.settings.url === entry.agent.url && known.settings.apiKey === entry.agent.apiKey) {
        return Option.some(known.link)
      }
      const link = makeLink(entry.agent)
      links.set(entry.id, { settings: entry.agent, link })
      return Option.some(link)
    }

    return AgentLinks.of({ forEntry, forget: (serverId) => Effect.sync(() => void links.delete(serverId)) })
  })

  /** Calls agents with the platform's fetch client. */
  static readonly layer = Layer.effect(AgentLinks, AgentLinks.make).pipe(Layer.provide(FetchHttpClient.layer))
}
