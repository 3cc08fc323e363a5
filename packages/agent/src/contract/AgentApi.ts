/**
 * The agent's `HttpApi` (the catalogue's groups, `/health`, and the error
 * answers every endpoint may give) and the catalogue read back from it:
 * one entry per action with its method, path, mod action name, category,
 * whether it only reads, its schemas, its example and its Admin-actions
 * route. The agent serves this API, `AgentClient` calls it, the
 * controller lists `capabilities`, and the simulated mod answers
 * `modActionNames`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import {
  ActionAnnotation,
  type AdminRoute,
  BansGroup,
  type Category,
  ConfigGroup,
  DataGroup,
  ItemGroup,
  MetricsGroup,
  PlayerGroup,
  PriorityGroup,
  SpawnGroup,
  StructureGroup,
  VehicleGroup,
  WorldGroup
} from "./Actions.js"
import { AgentInvalidInputBody, AgentModErrorBody, AgentTimedOutBody, AgentUnauthorizedBody, AgentUnavailableBody } from "./Errors.js"
import { AgentHealth } from "./Protocol.js"

/** `GET /health` (top level: `client.health()`). */
export const HealthGroup = HttpApiGroup.make("health", { topLevel: true }).add(HttpApiEndpoint.get("health", "/health").addSuccess(AgentHealth))

/** The Agent API. Every endpoint needs `Authorization: Bearer <key>`. */
export const AgentApi = HttpApi.make("agent")
  .add(PlayerGroup)
  .add(VehicleGroup)
  .add(WorldGroup)
  .add(SpawnGroup)
  .add(StructureGroup)
  .add(ItemGroup)
  .add(ConfigGroup)
  .add(DataGroup)
  .add(BansGroup)
  .add(MetricsGroup)
  .add(PriorityGroup)
  .add(HealthGroup)
  .addError(AgentInvalidInputBody)
  .addError(AgentUnauthorizedBody)
  .addError(AgentModErrorBody)
  .addError(AgentUnavailableBody)
  .addError(AgentTimedOutBody)

export type AgentApi = typeof AgentApi

/** One action of the catalogue. */
export interface AgentAction {
  /** The companion mod's action name (`player.heal`): the command file's `action`. */
  readonly name: string
  readonly category: Category
  /** The group and endpoint in the `HttpApi` and the client: `client[group][endpoint](...)`. */
  readonly group: string
  readonly endpoint: string
  readonly method: "GET" | "POST" | "DELETE"
  /** The agent's path, with `:param` segments (`/bans/:id`). */
  readonly path: string
  /** True when the action only reads. */
  readonly query: boolean
  /** The controller's Admin-actions route this action backs, if any. */
  readonly adminRoute: AdminRoute | undefined
  readonly summary: string
  /** The body's schema (POST) or the query's (GET), if it takes one. */
  readonly payload: Schema.Schema.AnyNoContext | undefined
  /** Where `payload` is read from. */
  readonly payloadIn: "body" | "query" | undefined
  /** The path parameters' schema, if the path has any. */
  readonly pathParams: Schema.Schema.AnyNoContext | undefined
  /** A valid input in decoded form (body or query fields with path parameters merged in). */
  readonly example: Readonly<Record<string, unknown>>
}

const readCatalogue = (): ReadonlyArray<AgentAction> => {
  const out: Array<AgentAction> = []
  for (const group of Object.values(AgentApi.groups) as unknown as ReadonlyArray<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    for (const endpoint of Object.values(group.endpoints) as unknown as ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      const info = Context.getOption(endpoint.annotations, ActionAnnotation)
      if (Option.isNone(info)) continue
      const method = endpoint.method
      if (method !== "GET" && method !== "POST" && method !== "DELETE") continue
      const payload = Option.getOrUndefined(method === "GET" ? endpoint.urlParamsSchema : endpoint.payloadSchema) as Schema.Schema.AnyNoContext | undefined
      out.push({
        name: info.value.action,
        category: info.value.category,
        group: group.identifier,
        endpoint: endpoint.name,
        method,
        path: endpoint.path,
        query: info.value.query,
        adminRoute: info.value.adminRoute,
        summary: info.value.summary,
        payload,
        payloadIn: payload === undefined ? undefined : method === "GET" ? "query" : "body",
        pathParams: Option.getOrUndefined(endpoint.pathSchema) as Schema.Schema.AnyNoContext | undefined,
        example: info.value.example
      })
    }
  }
  return out
}

/** Every action of the Agent API, in the spec's order. */
export const catalogue: ReadonlyArray<AgentAction> = readCatalogue()

/** The catalogue by mod action name. */
export const actionsByName: ReadonlyMap<string, AgentAction> = new Map(catalogue.map((a) => [a.name, a]))

/** The catalogue by the controller's Admin-actions route. */
export const actionsByAdminRoute: ReadonlyMap<AdminRoute, AgentAction> = new Map(
  catalogue.flatMap((a) => (a.adminRoute === undefined ? [] : [[a.adminRoute, a] as const]))
)

/** The action names the companion mod must answer (the simulator's table is keyed by these). */
export const modActionNames: ReadonlyArray<string> = catalogue.map((a) => a.name)

/** What an agent can do, for the controller's `GET .../actions/capabilities`: every action name. */
export const capabilities: ReadonlyArray<string> = [...modActionNames].sort()
