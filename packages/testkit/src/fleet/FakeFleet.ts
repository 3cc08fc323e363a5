/**
 * The real servers plugin (stored entries, supervised actors, its routes)
 * whose game servers are fake processes: a fleet that starts, stops and
 * crashes in process, on installs made by `fakeInstall`.
 *
 * ```ts
 * const fleet = fakeFleet()
 * const layer = testController([fleet.plugin, PlayersPlugin])
 * // POST /api/servers { name, installDir: fakeInstall() }, then start it;
 * // fleet.launcher.crash() ends the newest process.
 * ```
 */
import { makeServersPlugin } from "@garrison/plugins/servers"
import { type FakeLauncher, fakeLauncher, type FakeLauncherOptions } from "./FakeLauncher.js"

export interface FakeFleet {
  /** The real servers plugin over `launcher`. */
  readonly plugin: ReturnType<typeof makeServersPlugin>
  /** Its processes, for the test to end, print and inspect. */
  readonly launcher: FakeLauncher
}

/** The servers plugin over a fresh fake launcher (or the one given). */
export const fakeFleet = (options: FakeLauncherOptions & { readonly launcher?: FakeLauncher } = {}): FakeFleet => {
  const launcher = options.launcher ?? fakeLauncher(options)
  return { plugin: makeServersPlugin({ launcher: launcher.layer }), launcher }
}
