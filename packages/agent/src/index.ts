/**
 * @garrison/agent: the sidecar next to each game server. It turns HTTP calls
 * into JSON command files for the companion mod and returns the mod's
 * response files.
 *
 * This module is its public face for other programs: the contract (the
 * action catalogue, the `HttpApi`, the answers and the file protocol) and
 * the typed client (`AgentClient.make`). The server itself is the
 * `garrison-agent` command (`src/main.ts`); nothing here loads it.
 * Subpaths: `@garrison/agent/contract` (the contract alone, what the
 * simulated mod imports) and `@garrison/agent/client`.
 */
export * from "./contract/index.js"
export * as AgentClient from "./client/AgentClient.js"
export type { AgentApiClient, AgentClientOptions } from "./client/AgentClient.js"
