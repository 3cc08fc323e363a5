/**
 * The actions API, made from the agent's catalogue so the controller and the
 * agent validate every body the same way:
 *
 * - the spec's Admin actions (`/api/servers/:id/actions/...`: heal, kill,
 *   teleport, spawn-item, unstuck, freeze, strip, explode, message, player
 *   details, the five vehicle and the five world operations) and
 *   `GET .../actions/capabilities`;
 * - every other action of the catalogue under `/api/servers/:id/agent/<path>`
 *   (`server.rcon`; queries `players.view`), so nothing the mod can do is out
 *   of reach.
 *
 * The endpoints are built in a loop over the catalogue, so their types are
 * loose (`LooseGroup`); the routes read the action back from the endpoint's
 * `ActionOf` annotation.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { ADMIN_ROUTES, AgentFields } from "@garrison/agent/contract"
import { actionsByAdminRoute, type AgentAction, catalogue } from "@garrison/agent/client"
import {
  Access,
  BadGateway,
  BadRequest,
  BodyExample,
  Conflict,
  GatewayTimeout,
  NotFound,
  ServerFault,
  ServerNotFound,
  ServerUnreadable,
  Unavailable
} from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { ServerPath } from "../../servers/index.js"
import { AgentNotConfigured, ProviderUnavailable } from "./errors.js"

/** Which catalogue action an endpoint runs, and how its request maps onto the action's input. */
export class ActionOf extends Context.Tag("@garrison/plugins/actions/ActionOf")<ActionOf, {
  readonly action: AgentAction
  /** The controller's path parameter for each of the agent's (`:id` of `/bans/:id` is `:entryId` here: `:id` is the server). */
  readonly pathParams: Readonly<Record<string, string>>
  /** `freeze` without `frozen` toggles. */
  readonly toggle?: boolean
}>() {}

/** What every action answers: who served it and the game's answer. */
export const ActionReply = Schema.Struct({
  action: Schema.String,
  provider: Schema.Literal("agent", "rcon"),
  data: Schema.Unknown
}).annotations({ identifier: "ActionReply" })

export const ActionRouteView = Schema.Struct({
  /** The mod's action name, e.g. `player.heal`. */
  action: Schema.String,
  /** The Admin-actions route that runs it (`/api/servers/:id/actions/heal`), else its `/agent/...` route. */
  route: Schema.String,
  query: Schema.Boolean,
  available: Schema.Boolean,
  provider: Schema.NullOr(Schema.Literal("agent", "rcon")),
  /** Why it is not available now, when it is not. */
  reason: Schema.NullOr(Schema.String)
})

export const Capabilities = Schema.Struct({
  serverId: Schema.String,
  agent: Schema.Struct({
    configured: Schema.Boolean,
    available: Schema.Boolean,
    url: Schema.NullOr(Schema.String),
    reason: Schema.NullOr(Schema.String)
  }),
  /** What the game control does through RCON or the agent (kick, message, broadcast, lock, ...). */
  control: Schema.Array(Schema.Struct({ capability: Schema.String, provider: Schema.NullOr(Schema.String), reason: Schema.NullOr(Schema.String) })),
  actions: Schema.Array(ActionRouteView)
}).annotations({ identifier: "ActionCapabilities" })

/** Any control character (a newline, NUL, DEL) in `text`. */
const hasControl = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * The player an Admin action aims at, named as a kick names one: a Steam64
 * or DayZ ID (sent to the agent as is; the player need not be online), or
 * the BattlEye player number, GUID or exact name of an online player,
 * resolved by the players plugin's `resolvePlayer` to the Steam64 (or DayZ
 * ID) the server's logs prove for them.
 */
export const PlayerArgument = Schema.String.pipe(
  Schema.filter((s) => (s.trim().length > 0 && s.length <= 128 && !hasControl(s)) || "must be a player: 1 to 128 characters on one line", {
    description:
      "The player: a Steam64 or 44-character DayZ ID, or an online player's BattlEye player number, GUID or exact name (as a kick takes it)",
    examples: ["76561198012345678", "Survivor"]
  })
)

/** `freeze` toggles when `frozen` is left out; 1 or true freezes, 0 or false unfreezes. */
const FreezeBody = Schema.Struct({
  platformId: PlayerArgument,
  frozen: Schema.optional(Schema.Union(AgentFields.Flag, Schema.Boolean))
})

/** An Admin action's body with its `platformId` taken as a `PlayerArgument`; other bodies as the catalogue has them. */
const withPlayerArgument = (payload: Schema.Schema.AnyNoContext | undefined): Schema.Schema.AnyNoContext | undefined => {
  if (payload === undefined || !Schema.isSchema(payload) || !("fields" in payload)) return payload
  const fields = (payload as unknown as Schema.Struct<Schema.Struct.Fields>).fields
  if (!("platformId" in fields)) return payload
  return Schema.Struct({ ...fields, platformId: PlayerArgument }).annotations({ parseOptions: { onExcessProperty: "error", errors: "first" } })
}

const PLAYER_QUERY_PERMISSION = "players.view"
const ACTION_PERMISSION = "server.rcon"

/** `/player/heal` → `playerHeal`: endpoint names are unique across the catalogue. */
const endpointName = (prefix: string, action: AgentAction) =>
  `${prefix}${action.group[0]!.toUpperCase()}${action.group.slice(1)}${action.endpoint[0]!.toUpperCase()}${action.endpoint.slice(1)}`

/** The agent's path parameters, renamed where they would clash with the server's `:id`. */
const renamedParams = (agentPath: string) =>
  Object.fromEntries([...agentPath.matchAll(/:([A-Za-z]+)/g)].map((m) => [m[1]!, m[1] === "id" ? "entryId" : m[1]!]))

type LooseEndpoint = HttpApiEndpoint.HttpApiEndpoint.Any
type LooseGroup = HttpApiGroup.HttpApiGroup<string, LooseEndpoint, never, never, false>

/** One endpoint for `action` at `path`: the method, path, body or query and summary of the catalogue. */
const endpointFor = (
  name: string,
  path: string,
  action: AgentAction,
  options: { readonly payload?: Schema.Schema.AnyNoContext; readonly pathParams: Readonly<Record<string, string>>; readonly toggle?: boolean; readonly summary?: string }
): LooseEndpoint => {
  const pathSchema = Schema.Struct({
    id: ServerPath.fields.id,
    ...Object.fromEntries(Object.values(options.pathParams).map((param) => [param, Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))]))
  })
  const payload = options.payload ?? action.payload
  let endpoint: LooseEndpoint =
    action.method === "GET"
      ? HttpApiEndpoint.get(name, path as HttpApiEndpoint.PathSegment)
      : action.method === "DELETE"
        ? HttpApiEndpoint.del(name, path as HttpApiEndpoint.PathSegment)
        : HttpApiEndpoint.post(name, path as HttpApiEndpoint.PathSegment)
  endpoint = (endpoint as HttpApiEndpoint.HttpApiEndpoint<string, "GET">).setPath(pathSchema) as unknown as LooseEndpoint
  if (payload !== undefined) {
    endpoint =
      action.method === "GET"
        ? ((endpoint as HttpApiEndpoint.HttpApiEndpoint<string, "GET">).setUrlParams(payload as never) as unknown as LooseEndpoint)
        : ((endpoint as HttpApiEndpoint.HttpApiEndpoint<string, "POST">).setPayload(payload as never) as unknown as LooseEndpoint)
  }
  const withSuccess = (endpoint as HttpApiEndpoint.HttpApiEndpoint<string, "POST">).addSuccess(ActionReply)
  let annotated = withSuccess
    .annotate(Access, Access.permission(action.query ? PLAYER_QUERY_PERMISSION : ACTION_PERMISSION))
    .annotate(OpenApi.Summary, options.summary ?? action.summary)
    .annotate(ActionOf, { action, pathParams: options.pathParams, ...(options.toggle === true ? { toggle: true } : {}) })
  if (action.method === "POST" && payload !== undefined) {
    const example: Record<string, unknown> = { ...action.example }
    for (const param of Object.keys(options.pathParams)) delete example[param]
    annotated = annotated.annotate(BodyExample, options.toggle === true ? { platformId: example["platformId"] } : example)
  }
  return annotated as unknown as LooseEndpoint
}

const withErrors = (group: LooseGroup): LooseGroup =>
  (group as unknown as HttpApiGroup.HttpApiGroup<string, never>)
    .addError(BadRequest)
    .addError(ServerNotFound)
    .addError(ServerUnreadable)
    .addError(NotFound)
    .addError(Conflict)
    .addError(AgentNotConfigured, { status: 409 })
    .addError(Unavailable)
    .addError(ProviderUnavailable, { status: 503 })
    .addError(BadGateway)
    .addError(GatewayTimeout)
    .addError(ServerFault) as unknown as LooseGroup

/** The spec's Admin-actions routes, each backed by its catalogue action. */
const adminGroup = (): LooseGroup => {
  let group = HttpApiGroup.make("actions").annotate(OpenApi.Description, "What can be done to a server's game (heal, kill, teleport, ...) and doing it.") as unknown as LooseGroup
  group = group.add(
    HttpApiEndpoint.get("capabilities", "/api/servers/:id/actions/capabilities")
      .setPath(ServerPath)
      .addSuccess(Capabilities)
      .annotate(Access, Access.permission("server.view"))
      .annotate(OpenApi.Summary, "What can be done to a server's game now")
      .annotate(
        OpenApi.Description,
        "Every action with the provider that would serve it now (the agent beside the game server, or RCON), or " +
          "`available: false` and why (no agent set up, agent unreachable, mod not answering)."
      ) as unknown as LooseEndpoint
  ) as unknown as LooseGroup
  for (const route of ADMIN_ROUTES) {
    const action = actionsByAdminRoute.get(route)!
    const isDetails = route === "player/:platformId"
    const isFreeze = route === "freeze"
    group = group.add(
      endpointFor(`admin${route.replace(/(^|[/-])([a-z])/g, (_match: string, _sep: string, c: string) => c.toUpperCase()).replace(/[^A-Za-z]/g, "")}`, `/api/servers/:id/actions/${route}`, action, {
        pathParams: isDetails ? { platformId: "platformId" } : {},
        ...(isDetails ? { payload: Schema.Struct({}) } : { payload: withPlayerArgument(action.payload as Schema.Schema.AnyNoContext | undefined) }),
        ...(isFreeze ? { payload: FreezeBody, toggle: true, summary: "Freeze or unfreeze a player (without frozen: toggle)" } : {})
      })
    ) as unknown as LooseGroup
  }
  return withErrors(group)
}

/** Every catalogue action under `/api/servers/:id/agent/<the agent's path>`. */
const agentGroup = (): LooseGroup => {
  let group = HttpApiGroup.make("agent").annotate(OpenApi.Description, "Actions done by the server's companion mod through its agent.") as unknown as LooseGroup
  for (const action of catalogue) {
    const pathParams = renamedParams(action.path)
    const path = `/api/servers/:id/agent${action.path.replace(/:id\b/, ":entryId")}`
    group = group.add(endpointFor(endpointName("agent", action), path, action, { pathParams })) as unknown as LooseGroup
  }
  return withErrors(group)
}

export const ActionsGroup = adminGroup()
export const AgentPassthroughGroup = agentGroup()

export const ActionsApi = (HttpApi.make("actions") as unknown as HttpApi.HttpApi<"actions", never>)
  .add(ActionsGroup as never)
  .add(AgentPassthroughGroup as never) as unknown as HttpApi.HttpApi.Any
