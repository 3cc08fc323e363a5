/**
 * `PLUGINS`: a plugin module named by package is imported, its plugins
 * returned, and its import cost logged at Debug (start-up cost per plugin,
 * issue 29); a module without a plugin is a start-up error naming it.
 */
import { describe, expect, it } from "@effect/vitest"
import { captureLogs, type LogLine } from "@garrison/testkit"
import * as Effect from "effect/Effect"
import { loadPlugins } from "../src/PluginLoader.js"

describe("loadPlugins", () => {
  it.effect("imports a plugin package and logs how long its import took", () =>
    Effect.gen(function* () {
      const lines: Array<LogLine> = []
      const plugins = yield* loadPlugins(["@garrison/example-community-plugin"]).pipe(Effect.provide(captureLogs(lines)))
      expect(plugins.map((plugin) => plugin.id)).toEqual(["motd"])
      expect(lines.map((line) => line.message)).toContainEqual(
        expect.stringMatching(/^plugin module "@garrison\/example-community-plugin" imported in \d+ ms$/)
      )
    })
  )

  it.effect("refuses a module that exports no plugin, naming it", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(loadPlugins(["effect/Duration"]))
      expect(error.message).toBe(
        `module "effect/Duration" does not export a plugin (default export, "plugin" or "plugins" built with Plugin.make)`
      )
    })
  )
})
