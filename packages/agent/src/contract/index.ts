/**
 * The Agent API contract: the action catalogue, its `HttpApi`, the error
 * answers, the field rules and the file protocol. Loads no server code.
 */
export * from "./Actions.js"
export * from "./AgentApi.js"
export * from "./Errors.js"
export * as AgentFields from "./Fields.js"
export * from "./Issues.js"
export * from "./Protocol.js"
