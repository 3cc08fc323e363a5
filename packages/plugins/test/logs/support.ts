/**
 * The logs tests' controller (the testkit's `testController`) and stub
 * servers (the testkit's `StubFleet`): each server with an install folder
 * holding `profiles/`, in a state the test sets.
 */
import type { AnyPlugin, ServerState } from "@garrison/runtime"
import { type AddOptions, call, StubFleet, type StubServer, tempDir as makeTempDir, testController } from "@garrison/testkit"
import { LogsPlugin, type Metrics } from "../../src/logs/index.js"
import { ServersPlugin } from "../../src/servers/index.js"

export { eventually, type Reply } from "@garrison/testkit"

export const tempDir = (prefix = "garrison-logs-"): string => makeTempDir(prefix)

/** Stub servers named `Server <id>`, stopped within a second or two. */
export class FakeServers extends StubFleet {
  override add(id: string, options: AddOptions = {}): StubServer {
    return super.add(id, { ...options, entry: { name: `Server ${id}`, stop: { shutdownWaitMs: 1000, terminateWaitMs: 1000 }, ...options.entry } })
  }

  /** Changes part of server `id`'s state. */
  set(id: string, patch: Partial<ServerState>): void {
    this.server(id).set(patch)
  }
}

/**
 * A fresh controller (own data directory) with the logs plugin and the given
 * fake servers. `trustProxyHops`: read the client address from
 * `X-Forwarded-For` (a test sending more requests than one address's rate limit).
 */
export const logsController = (servers: FakeServers, options: { readonly trustProxyHops?: number } = {}) =>
  controllerWith(servers.plugin(), options)

/** The same, beside the real servers plugin (no entries stored, so nothing is spawned). */
export const withRealServers = () => controllerWith(ServersPlugin as AnyPlugin)

const controllerWith = (servers: AnyPlugin, options: { readonly trustProxyHops?: number } = {}) =>
  testController<Metrics>([LogsPlugin as AnyPlugin, servers], { dataPrefix: "garrison-logs-data-", settings: options })

export const VIEWER = "viewer:server.view"

/** `as` is `"<user>:<perm,perm>"`; null sends no credentials. `ip` is sent as `X-Forwarded-For`. */
export const get = (path: string, as: string | null = VIEWER, ip?: string) =>
  call("GET", path, { ...(as === null ? {} : { as }), ...(ip === undefined ? {} : { ip }) })
