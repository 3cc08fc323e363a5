/**
 * An in-process controller with the servers and players plugins over the
 * fake `ProcessLauncher` (processes the test ends at will) and the header
 * authenticator; install folders come from `fakeInstall`.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import type { AnyPlugin, ProcessLauncher, Supervisor } from "@garrison/runtime"
import { Effect, type Layer } from "effect"
import { PlayersPlugin } from "../../src/players/index.js"
import { makeServersPlugin, type ServerEntries } from "../../src/servers/index.js"
import { type CallOptions, jsonBody, request, testController } from "../support/controller.js"
import { makeFakeLauncher } from "../support/fakeServers.js"

export { fakeInstall } from "../support/fakeServers.js"

/**
 * `extra`: more plugins loaded after these (for example a recorder of events).
 * `launcher`: the real one (`ProcessLauncher.node`) for a test that must see
 * what a real start does; a fake by default.
 */
export const serversController = (extra: ReadonlyArray<AnyPlugin> = [], launcher?: Layer.Layer<ProcessLauncher>, dataDir?: string) =>
  testController<ServerEntries | Supervisor>([makeServersPlugin({ launcher: launcher ?? makeFakeLauncher().layer }), PlayersPlugin], {
    dataPrefix: "garrison-servers-",
    ...(dataDir === undefined ? {} : { dataDir }),
    trustProxyHops: 1,
    extra
  })

export interface Reply {
  readonly status: number
  // Tests read fields freely; the assertions check them.
  readonly body: Record<string, unknown> & { readonly [key: string]: unknown }
}

/** `as` is `"<user>:<perm,perm>"`; an empty body reads as `{}`. */
export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, text }): Reply => ({ status, body: jsonBody<Reply["body"]>(text, {}) }))

export const ADMIN = "root:admin"
