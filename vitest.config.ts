/**
 * Two projects: `unit` (every package's and example's tests, in process:
 * `npm run test:unit`) and `e2e` (real processes: the built controller,
 * agent and simulated servers; `test/e2e` and the examples' `*.e2e.test.ts`).
 * `npm test` runs both.
 *
 * In the unit project the workspace packages resolve to their sources, so
 * these tests need no build and every test file, the testkit and the code
 * under test share one copy of each module. The e2e project's processes run
 * the build (`npm run build`).
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const shared = { testTimeout: 30_000, hookTimeout: 30_000 }

export default defineConfig({
  test: {
    // One TMPDIR per run, checked and removed at the end: a test that leaves a `garrison-*` folder behind fails the run.
    globalSetup: [at("packages/testkit/src/globalSetup.ts")],
    projects: [
      {
        resolve: {
          alias: [
            { find: /^@garrison\/runtime$/, replacement: at("packages/runtime/src/index.ts") },
            { find: /^@garrison\/plugins$/, replacement: at("packages/plugins/src/index.ts") },
            { find: /^@garrison\/plugins\/([a-z-]+)$/, replacement: at("packages/plugins/src/$1/index.ts") },
            { find: /^@garrison\/http$/, replacement: at("packages/http/src/index.ts") },
            { find: /^@garrison\/testkit$/, replacement: at("packages/testkit/src/index.ts") },
            { find: /^@garrison\/testkit\/(TestAuthPlugin|globalSetup)$/, replacement: at("packages/testkit/src/$1.ts") }
          ]
        },
        test: {
          ...shared,
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/*.e2e.test.ts"]
        }
      },
      {
        test: {
          ...shared,
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "examples/*/test/**/*.e2e.test.ts"]
        }
      }
    ]
  }
})
