/**
 * Actions: the Provider System and the in-game admin actions. A server whose
 * entry names an agent (`agent: {url, apiKey}`) is driven through it first:
 * the spec's Admin actions (heal, teleport, weather, ...), every other
 * action of the agent's catalogue under `/api/servers/:id/agent/...`, and,
 * registered with the servers plugin, the game control's kick, one-player
 * message and ban. RCON stands in where it can (message, kick, ban,
 * broadcast, lock, unlock). See README.md.
 */
import { AuditTrail, on, Plugin, ServerDeleted } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ControlProviders } from "../servers/index.js"
import { AdminActions } from "./AdminActions.js"
import { agentControl } from "./agentControl.js"
import { AgentLinks } from "./AgentLinks.js"
import { ActionsApi } from "./contract/Api.js"
import { ACTION_EVENTS } from "./published.js"
import { ActionsRoutes, AgentPassthroughRoutes } from "./routes.js"

/** The agent as a provider of the servers' game control, asked before RCON. */
const registerAgentProvider = Layer.effectDiscard(
  Effect.gen(function* () {
    const links = yield* AgentLinks
    const providers = yield* ControlProviders
    yield* providers.register({
      name: "agent",
      forServer: ({ entry }) => Option.map(links.forEntry(entry), (link) => agentControl({ id: entry.id, name: entry.name }, link))
    })
  })
)

const services = Layer.merge(AdminActions.layer, registerAgentProvider).pipe(Layer.provideMerge(AgentLinks.layer))

export const ActionsPlugin = Plugin.make({
  id: "actions",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  description: "In-game admin actions through the agent beside each game server, RCON as the fallback",
  dependsOn: ["servers", "players"],
  layer: services,
  http: Plugin.http(ActionsApi as never, Layer.merge(ActionsRoutes, AgentPassthroughRoutes) as never),
  errorCodes: [
    {
      tag: "ProviderUnavailable",
      code: "provider-unavailable",
      status: 503,
      description: "No provider can run the action now: the server's agent unreachable, refusing the key or its mod not answering"
    },
    {
      tag: "AgentNotConfigured",
      code: "agent-not-configured",
      status: 409,
      description: "The server has no agent set up and nothing else can run the action: set the entry's agent (url, apiKey)"
    }
  ],
  events: [
    on(ServerDeleted, (event) => Effect.flatMap(AgentLinks, (links) => links.forget(event.serverId)), "forgetAgentLink")
  ],
  publishes: ACTION_EVENTS
})

export { AdminActions, AgentNotConfigured, ProviderUnavailable } from "./AdminActions.js"
export type { ActionRoute, AdminActionsShape, AnswerAddition, RunInput } from "./AdminActions.js"
export { AgentLinks, HEALTH_TTL } from "./AgentLinks.js"
export type { AgentLink, AgentLinksShape } from "./AgentLinks.js"
export { ActionReply, ActionsApi, Capabilities } from "./contract/Api.js"
export { AdminAction } from "./events.js"
