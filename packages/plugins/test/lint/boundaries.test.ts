/**
 * The lint rule that keeps plugins apart: another plugin is reached only
 * through its index, however the path is spelled; a plugin's own folders and
 * files outside the plugins are not its business.
 */
import { RuleTester } from "eslint"
import * as NodePath from "node:path"
import { describe, it } from "vitest"
// @ts-expect-error: a plain JavaScript module (the ESLint config loads it as is), without types.
import { pluginBoundaries } from "../../lint/boundaries.js"

RuleTester.describe = describe
RuleTester.it = it
RuleTester.itOnly = it.only

const src = NodePath.resolve(import.meta.dirname, "..", "..", "src")
const inBans = NodePath.join(src, "bans", "routes", "playerBan.ts")
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: "module" } })

tester.run("plugin-boundaries", pluginBoundaries, {
  valid: [
    { filename: inBans, code: 'import { findPlayer } from "../../players/index.js"' },
    { filename: inBans, code: 'import { kick } from "../internal/kick.js"' },
    { filename: NodePath.join(src, "bans", "Bans.ts"), code: 'export { ServerPath } from "../servers/index.js"' },
    { filename: inBans, code: 'import { Plugin } from "@garrison/runtime"' },
    // Outside the plugins folder (the package index, tests) the rule has nothing to say.
    { filename: NodePath.join(src, "index.ts"), code: 'import { x } from "./bans/internal/kick.js"' }
  ],
  invalid: [
    { filename: inBans, code: 'import { findPlayer } from "../../players/internal/resolve.js"', errors: [{ messageId: "internal" }] },
    { filename: NodePath.join(src, "bans", "Bans.ts"), code: 'import { routes } from "../players/routes.js"', errors: [{ messageId: "internal" }] },
    { filename: inBans, code: 'export * from "../../servers/ServerEntries.js"', errors: [{ messageId: "internal" }] },
    { filename: inBans, code: 'const m = import("../../servers/./internal/../internal/view.js")', errors: [{ messageId: "internal" }] }
  ]
})
