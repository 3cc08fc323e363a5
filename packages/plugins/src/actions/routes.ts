/**
 * The handlers of the actions API: every endpoint runs the catalogue action
 * its `ActionOf` annotation names, through `AdminActions` (the Provider
 * System), and answers `{action, provider, data}`. The player argument
 * (`platformId`) is named as a kick names a player: a Steam64 or DayZ ID
 * goes to the agent as is, anything else is resolved among the players
 * online by the players plugin's `resolvePlayer` (the same 404 and 409).
 * Failures map as every server route's: 502 the agent answered badly, 504
 * its mod did not answer in time (the command was withdrawn), 409
 * `agent-not-configured` when the server has no agent and nothing else can
 * run it, 503 `provider-unavailable` when its agent cannot be reached now,
 * 409 when the game refused it.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { actionsByName } from "@garrison/agent/client"
import { actorErrorToHttp, ADMIN, BadRequest, Conflict, CurrentPrincipal, CurrentRequest, grants, PlayerIds } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { resolvePlayer } from "../players/index.js"
import { type ServerHandle, Servers } from "../servers/index.js"
import { AdminActions } from "./AdminActions.js"
import { ActionOf, ActionsApi, ActionsGroup, AgentPassthroughGroup } from "./contract/Api.js"
import { AgentLinks, reasonFor } from "./AgentLinks.js"

interface LooseRequest {
  readonly path: Readonly<Record<string, unknown>> & { readonly id: string }
  readonly payload?: unknown
  readonly urlParams?: unknown
}

/** What the loops below need of the builder's handlers (the API's types are loose: it is made from the catalogue). */
interface LooseHandlers {
  readonly handle: (name: string, handler: (request: LooseRequest) => Effect.Effect<unknown, unknown, never>) => LooseHandlers
}

const endpointsOf = (group: HttpApiGroup.HttpApiGroup.Any) =>
  Object.values((group as unknown as HttpApiGroup.HttpApiGroup.AnyWithProps).endpoints) as ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>

const CONTROL_CAPABILITIES = ["players", "kick", "broadcast", "message", "lock", "unlock", "shutdown", "ban", "raw"] as const

interface Deps {
  readonly servers: Context.Tag.Service<Servers>
  readonly actions: Context.Tag.Service<AdminActions>
  readonly links: Context.Tag.Service<AgentLinks>
}

/**
 * The Steam64 or DayZ ID the agent is sent for a player argument: a Steam64 or DayZ ID as is (the player need not be
 * online); else the online player it names (as a kick resolves it), by the Steam64 (or DayZ ID) the logs prove.
 */
export const platformIdOf = (server: ServerHandle, playerId: string) =>
  Effect.gen(function* () {
    const id = playerId.trim()
    if (PlayerIds.isSteam64(id) || PlayerIds.isDayzId(id)) return id
    const player = yield* resolvePlayer(yield* server.control.players.pipe(Effect.mapError(actorErrorToHttp)), playerId)
    const known = player.steam64 ?? player.dayzId ?? null
    if (known !== null) return known
    const entry = yield* server.entry
    return yield* new Conflict({
      message:
        `${entry.name}: ${player.name} (player number ${player.slot}) is online, but the server's logs do not name their ` +
        "Steam64 yet (the RPT does when they connect): name them by Steam64",
      details: { serverId: entry.id, playerId, slot: player.slot }
    })
  })

const runEndpoint = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, { servers, actions, links }: Deps) => {
  const info = Context.get(endpoint.annotations as Context.Context<ActionOf>, ActionOf)
  return (request: LooseRequest) =>
    Effect.gen(function* () {
      const server = yield* servers.get(request.path.id)
      const input: Record<string, unknown> = {
        ...((request.payload ?? request.urlParams ?? {}) as Record<string, unknown>)
      }
      for (const [agentParam, ours] of Object.entries(info.pathParams)) input[agentParam] = request.path[ours]
      // Named as a kick names a player: a name, slot or GUID becomes the id the agent knows them by.
      if (typeof input["platformId"] === "string") input["platformId"] = yield* platformIdOf(server, input["platformId"])
      if (info.toggle === true) {
        const frozen = input["frozen"]
        input["frozen"] =
          frozen === true || frozen === 1 ? 1 : frozen === false || frozen === 0 ? 0 : yield* toggledFreeze(links, server, String(input["platformId"]))
      }
      const caller = yield* CurrentPrincipal
      const clientIp = Option.getOrNull(Option.map(yield* CurrentRequest, (facts) => facts.clientIp))
      const { provider, data } = yield* actions.run({ server, action: info.action, input, caller, clientIp }).pipe(
        Effect.catchTag("ActorError", (error) => Effect.fail(actorErrorToHttp(error)))
      )
      return { action: info.action.name, provider, data }
    }).pipe(
      // A path parameter the agent's schema refuses (checked when the command is built) is the caller's input.
      Effect.catchTag("AgentInvalidInput" as never, (error: { readonly error: string; readonly field: string }) =>
        Effect.fail(new BadRequest({ message: error.error, details: [{ path: error.field, message: error.error }] }))
      )
    )
}

/** `freeze` without `frozen`: the opposite of what the game says now (frozen when it does not say). */
const toggledFreeze = (links: Deps["links"], server: ServerHandle, platformId: string) =>
  Effect.gen(function* () {
    const link = links.forEntry(yield* server.entry)
    if (Option.isNone(link)) return 1
    const info = yield* link.value.client.call(actionsByName.get("player.info")!, { platformId }).pipe(Effect.option)
    const data = Option.getOrUndefined(info)
    const frozen = typeof data === "object" && data !== null && "frozen" in data ? (data as { frozen: unknown }).frozen : undefined
    return frozen === true || frozen === 1 ? 0 : 1
  })

const deps = Effect.all({ servers: Servers, actions: AdminActions, links: AgentLinks })

export const ActionsRoutes = HttpApiBuilder.group(ActionsApi as never, "actions" as never, ((handlers: unknown) =>
  Effect.gen(function* () {
    const { servers, actions, links } = yield* deps
    let h = (handlers as LooseHandlers).handle("capabilities", (request) =>
      Effect.gen(function* () {
        const server = yield* servers.get(request.path.id)
        const entry = yield* server.entry
        const isAdmin = grants((yield* CurrentPrincipal).permissions, ADMIN)
        const shown = (reason: string | null) => (reason === null ? null : reasonFor(isAdmin, reason))
        const link = links.forEntry(entry)
        const availability = Option.isNone(link) ? undefined : yield* link.value.availability
        const control = yield* Effect.forEach(CONTROL_CAPABILITIES, (capability) =>
          Effect.map(server.control.routeFor(capability), (route) => ({ capability, provider: route.provider, reason: shown(route.doubt) }))
        )
        const routes = yield* actions.routes(server)
        return {
          serverId: entry.id,
          agent: {
            configured: Option.isSome(link),
            available: availability?.available === true,
            url: Option.getOrNull(Option.map(link, (l) => l.url)),
            reason: availability === undefined ? "no agent is set up for this server" : availability.available ? null : shown(availability.reason)
          },
          control,
          actions: routes.map((route) => {
            const action = actionsByName.get(route.action)!
            return {
              ...route,
              reason: shown(route.reason),
              query: action.query,
              route: action.adminRoute === undefined ? `/api/servers/:id/agent${action.path.replace(/:id\b/, ":entryId")}` : `/api/servers/:id/actions/${action.adminRoute}`
            }
          })
        }
      })
    )
    for (const endpoint of endpointsOf(ActionsGroup)) {
      if (endpoint.name === "capabilities") continue
      h = h.handle(endpoint.name, runEndpoint(endpoint, { servers, actions, links }))
    }
    return h
  })) as never
)

export const AgentPassthroughRoutes = HttpApiBuilder.group(ActionsApi as never, "agent" as never, ((handlers: unknown) =>
  Effect.map(deps, (services) => {
    let h = handlers as LooseHandlers
    for (const endpoint of endpointsOf(AgentPassthroughGroup)) h = h.handle(endpoint.name, runEndpoint(endpoint, services))
    return h
  })) as never
)
