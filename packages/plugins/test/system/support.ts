/** The system plugin's controller for tests: with the game log and prometheus (run-time settings) over a stub fleet, and an audit recorder. */
import type { AnyPlugin } from "@garrison/runtime"
import { auditRecorder, StubFleet, testController, type TestControllerOptions } from "@garrison/testkit"
import { ActionsPlugin } from "../../src/actions/index.js"
import { GameLogPlugin } from "../../src/gamelog/index.js"
import { MapsPlugin } from "../../src/maps/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { PrometheusPlugin } from "../../src/prometheus/index.js"
import { SystemPlugin } from "../../src/system/index.js"

export const ADMIN = "root:admin"

/** `only`: the system plugin with these alone (no game log: its jobs would run on every TestClock step). */
export const systemController = (options: TestControllerOptions & { readonly only?: ReadonlyArray<AnyPlugin> } = {}) => {
  const audit = auditRecorder()
  const fleet = new StubFleet()
  const plugins: ReadonlyArray<AnyPlugin> =
    options.only !== undefined ? [audit.plugin, SystemPlugin, ...options.only] : [audit.plugin, SystemPlugin, GameLogPlugin, ActionsPlugin, PlayersPlugin, MapsPlugin, PrometheusPlugin, fleet.plugin()]
  return { audit, layer: testController(plugins, { dataPrefix: "garrison-system-", ...options }) }
}

export interface Setting {
  readonly key: string
  readonly source: string
  readonly secret: boolean
  readonly value?: unknown
  readonly set?: boolean
}
export const settingIn = (body: unknown, key: string): Setting | undefined => (body as { settings: Array<Setting> }).settings.find((s) => s.key === key)
