/**
 * The agent of each server as the controller reaches it: one client per
 * server (made again when its URL or key changes), and whether it looks
 * usable now, from its `/health`, kept for `HEALTH_TTL` (Effect's
 * `cachedInvalidateWithTTL`) so choosing a provider for an action costs no
 * request most of the time. An agent looks usable when it answers with the
 * key and its mod is answering.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { AgentClient, type AgentError } from "@garrison/agent/client"
import { type AgentSettings, type ServerEntry, Telemetry } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as EffectRuntime from "effect/Runtime"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Availability } from "../servers/index.js"

/** How long an agent's health answer stands for. */
export const HEALTH_TTL = Duration.seconds(3)

export interface AgentLink {
  readonly url: string
  readonly client: AgentClient.AgentClient
  /**
   * Does the agent (and its mod) answer now? From a `/health` kept for
   * `HEALTH_TTL`. A hint for choosing a provider, never a refusal on its
   * own: a call to an agent that looked down is still made when nothing
   * else can serve it, and the agent's own wait for the mod decides.
   */
  readonly availability: Effect.Effect<Availability>
  /** Forgets the kept answer (a call just proved it wrong). */
  readonly refresh: Effect.Effect<void>
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

/** An agent error as the metrics name its kind. */
export const agentFailureKind = (error: AgentError): string => {
  switch (error._tag) {
    case "AgentUnauthorized":
      return "unauthorized"
    case "AgentInvalidInput":
      return "invalid-input"
    case "AgentModError":
      return "mod-error"
    case "AgentUnavailable":
      return "unavailable"
    case "AgentTimedOut":
      return "timeout"
    case "AgentUnreachable":
      return "unreachable"
    case "AgentBadResponse":
      return "bad-response"
  }
}

/** The client, its failed action calls told to `failed` (health checks are not calls: `availability` reports those). */
const countFailures = (client: AgentClient.AgentClient, failed: (error: AgentError) => void): AgentClient.AgentClient => ({
  ...client,
  call: (action, input) => Effect.tapError(client.call(action, input), (error) => Effect.sync(() => failed(error)))
})

/** The reasons of `judge` that tell an open port from a closed one. */
const NETWORK_REASON = /^the agent at (\S+) (refused Garrison's key[^;]*|is not reachable|answered its health check badly)/

/**
 * A health reason as someone who is not an admin may read it: whether an
 * agent's port is closed, open to something else, or refusing the key is
 * one answer, "unreachable", so the agent URL cannot serve as a port
 * scanner. The mod's own state (an agent answering with the key) is shown.
 */
export const reasonFor = (isAdmin: boolean, reason: string): string => (isAdmin ? reason : reason.replace(NETWORK_REASON, "the agent at $1 is unreachable"))

export class AgentLinks extends Context.Tag("@garrison/plugins/actions/AgentLinks")<AgentLinks, AgentLinksShape>() {
  static readonly make = Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const telemetry = yield* Telemetry
    // `forEntry` is a plain function (a provider's `forServer`): it builds links with this layer's runtime.
    const runSync = EffectRuntime.runSync(yield* Effect.runtime<never>())
    const links = new Map<string, { readonly settings: AgentSettings; readonly link: AgentLink }>()

    const makeLink = (serverId: string, settings: AgentSettings): AgentLink => {
      const client = countFailures(
        runSync(
          AgentClient.make({ baseUrl: settings.url, key: settings.apiKey === "" ? undefined : settings.apiKey }).pipe(
            Effect.provideService(HttpClient.HttpClient, http)
          )
        ),
        (error) => telemetry.failed("agent", serverId, agentFailureKind(error))
      )
      // One health check at a time refreshes the answer; callers meanwhile wait for that one.
      const [availability, refresh] = runSync(Effect.cachedInvalidateWithTTL(judge(settings.url, client.health), HEALTH_TTL))
      return { url: settings.url, client, availability, refresh }
    }

    const forEntry: AgentLinksShape["forEntry"] = (entry) => {
      if (entry.agent === undefined) return Option.none()
      const known = links.get(entry.id)
      if (known !== undefined && known.settings.url === entry.agent.url && known.settings.apiKey === entry.agent.apiKey) {
        return Option.some(known.link)
      }
      const link = makeLink(entry.id, entry.agent)
      links.set(entry.id, { settings: entry.agent, link })
      return Option.some(link)
    }

    return AgentLinks.of({ forEntry, forget: (serverId) => Effect.sync(() => void links.delete(serverId)) })
  })

  /** Calls agents with the platform's fetch client. */
  static readonly layer = Layer.effect(AgentLinks, AgentLinks.make).pipe(Layer.provide(FetchHttpClient.layer))
}
