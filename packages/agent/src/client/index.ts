/**
 * `@garrison/agent/client`: the typed client and what it needs of the
 * contract (the catalogue and the error classes), without server code.
 */
export * as AgentClient from "./AgentClient.js"
export type { AgentApiClient, AgentClientOptions } from "./AgentClient.js"
export { actionsByAdminRoute, actionsByName, type AgentAction, capabilities, catalogue } from "../contract/AgentApi.js"
export * from "../contract/Errors.js"
