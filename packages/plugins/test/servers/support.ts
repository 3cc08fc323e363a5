/**
 * An in-process controller (the testkit's `testController`) with the
 * servers plugin over the testkit's fake launcher (processes the test ends
 * at will), the players plugin and the test authenticator; install folders
 * come from `fakeInstall`.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import type * as ConfigError from "effect/ConfigError"
import type { AnyPlugin, ProcessLauncher } from "@garrison/runtime"
import { type CallOptions, fakeLauncher, jsonBody, request, testController } from "@garrison/testkit"
import { Effect, type Layer } from "effect"
import { PlayersPlugin } from "../../src/players/index.js"
import { makeServersPlugin, type ServerEntries, type Servers } from "../../src/servers/index.js"

export { fakeInstall } from "@garrison/testkit"

/**
 * `extra`: more plugins loaded after these (for example a recorder of events).
 * `launcher`: the real one (`ProcessLauncher.node`) for a test that must see
 * what a real start does; a fake by default. `SERVERS_ROOT` is the
 * testkit's (this run's temporary folder, where `fakeInstall` makes
 * installs): a deployer may add them (`hostFields.test.ts` tests the rule).
 * `config`: what plugins read through `Config` instead of the environment.
 */
export const serversController = (
  extra: ReadonlyArray<AnyPlugin> = [],
  launcher?: Layer.Layer<ProcessLauncher, ConfigError.ConfigError>,
  dataDir?: string,
  config?: Readonly<Record<string, string>>
) =>
  testController<ServerEntries | Servers>([makeServersPlugin({ launcher: launcher ?? fakeLauncher().layer }), PlayersPlugin, ...extra], {
    dataPrefix: "garrison-servers-",
    settings: { trustProxyHops: 1, ...(dataDir === undefined ? {} : { dataDir }) },
    ...(config === undefined ? {} : { config })
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
