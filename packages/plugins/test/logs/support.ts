/**
 * The logs tests' controller (see `../support/controller.ts`) and fake
 * servers: the stub "servers" plugin serving actors with states the test
 * sets, each server with an install folder holding `profiles/`.
 */
import { type AnyPlugin, initialState, makeServerEntry, type ServerActor, type ServerEntry, type ServerState } from "@garrison/runtime"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { LogsPlugin, type Metrics } from "../../src/logs/index.js"
import { ServersPlugin } from "../../src/servers/index.js"
import { call, testController } from "../support/controller.js"
import { fakeActor, stubServersPlugin } from "../support/fakeServers.js"
import { tempDir as makeTempDir } from "../support/tempDir.js"

export { eventually, type Reply } from "../support/controller.js"

export const tempDir = (prefix = "garrison-logs-"): string => makeTempDir(prefix)

/** The fake servers: an install folder each (with `profiles/`), and a state the test sets. */
export class FakeServers {
  readonly states = new Map<string, ServerState>()
  readonly entries = new Map<string, ServerEntry>()
  private readonly actors = new Map<string, ServerActor.ServerActor>()

  add(id: string): { readonly profiles: string } {
    const installDir = tempDir()
    const profiles = NodePath.join(installDir, "profiles")
    Fs.mkdirSync(profiles)
    this.entries.set(
      id,
      makeServerEntry({ id, name: `Server ${id}`, installDir, stop: { shutdownWaitMs: 1000, terminateWaitMs: 1000 } })
    )
    this.states.set(id, initialState(id))
    this.actors.set(
      id,
      fakeActor(id, {
        entry: Effect.sync(() => this.entries.get(id)!),
        state: Effect.sync(() => this.states.get(id) ?? initialState(id))
      })
    )
    return { profiles }
  }

  set(id: string, patch: Partial<ServerState>): void {
    this.states.set(id, { ...(this.states.get(id) ?? initialState(id)), ...patch })
  }

  /** Stands in for the servers plugin: same id, provides `Supervisor` (and `ServerEntries`) over these servers. */
  plugin(): AnyPlugin {
    return stubServersPlugin(this.actors) as AnyPlugin
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
  testController<Metrics>([LogsPlugin as AnyPlugin, servers], { dataPrefix: "garrison-logs-data-", ...options })

export const VIEWER = "viewer:server.view"

/** `as` is `"<user>:<perm,perm>"`; null sends no credentials. `ip` is sent as `X-Forwarded-For`. */
export const get = (path: string, as: string | null = VIEWER, ip?: string) =>
  call("GET", path, { ...(as === null ? {} : { as }), ...(ip === undefined ? {} : { ip }) })
