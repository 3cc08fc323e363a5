/**
 * Three projects, run by `npm test` through `test/passes.mjs`: all three on
 * SQLite, then `unit` and `e2e` again with `GARRISON_TEST_DATABASE=postgres`:
 *
 * - `unit` (`npm run test:unit`): every package's and example's tests, in
 *   process. The workspace packages and the examples resolve to their
 *   sources, so these need no build (`npm ci && npx vitest run --project
 *   unit` works in a fresh clone), and test files, the testkit and the code under test share one
 *   copy of each module. Test files share their worker's modules too
 *   (`isolate: false`): the sources load once per worker, not once per file,
 *   which is most of the time saved. So a test file must not leave state
 *   behind in shared modules; the testkit's `tempDir` folders go after each
 *   file (`fileSetup`), and `@effect/vitest`'s `layer()` is not used here
 *   (it rebinds `it.effect` for every later file of its worker).
 * - `e2e`: real processes (the built controller, agent and simulated
 *   servers; run `npm run build` first): `test/e2e` and the examples'
 *   `*.e2e.test.ts`. One file at a time, in one worker, each file with
 *   fresh modules, so the processes of two files never compete for the CPU.
 * - `browser` (`npm run test:browser`): the dashboard in Debian's Chromium,
 *   after the other two (SQLite pass only: the pages read the same API on
 *   either engine).
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const timeouts = { testTimeout: 30_000, hookTimeout: 30_000 }

export default defineConfig({
  test: {
    // One TMPDIR per run, checked and removed at the end: a test that leaves a `garrison-*` folder behind fails the run.
    globalSetup: [at("packages/testkit/src/globalSetup.ts")],
    // An error thrown outside a test (a timer or writer a test left running) fails the run, whichever file it lands in.
    dangerouslyIgnoreUnhandledErrors: false,
    // Workers are kept from file to file (see each project's `isolate`). Three on two cores: much of a
    // unit test's time is spent waiting (fsync, loopback HTTP, polling), not computing.
    maxWorkers: 3,
    minWorkers: 3,
    poolOptions: { forks: { isolate: false } },
    projects: [
      {
        // Dashboard components compile as the dashboard's build compiles them (React's automatic runtime).
        esbuild: { jsx: "automatic" },
        resolve: {
          alias: [
            { find: /^@garrison\/runtime$/, replacement: at("packages/runtime/src/index.ts") },
            { find: /^@garrison\/plugins$/, replacement: at("packages/plugins/src/index.ts") },
            { find: /^@garrison\/plugins\/([a-z-]+)$/, replacement: at("packages/plugins/src/$1/index.ts") },
            { find: /^@garrison\/http$/, replacement: at("packages/http/src/index.ts") },
            { find: /^@garrison\/agent$/, replacement: at("packages/agent/src/index.ts") },
            { find: /^@garrison\/agent\/(contract|client)$/, replacement: at("packages/agent/src/$1/index.ts") },
            // Dashboard components rendered to markup in unit tests (their own imports use this alias).
            { find: /^@dashboard\/(.*)$/, replacement: at("packages/dashboard/src/$1") },
            { find: /^@garrison\/testkit$/, replacement: at("packages/testkit/src/index.ts") },
            { find: /^@garrison\/testkit\/(core|TestAuthPlugin|DriverStatements|globalSetup|fileSetup|filePostgres)$/, replacement: at("packages/testkit/src/$1.ts") },
            // The examples, by their package names (what tests import), from source too.
            { find: /^@garrison\/example-(sim-server|sim-steamcmd|fake-payments|community-plugin)$/, replacement: at("examples/$1/src/index.ts") }
          ]
        },
        test: {
          ...timeouts,
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/*.e2e.test.ts"],
          isolate: false,
          setupFiles: [at("packages/testkit/src/fileSetup.ts")]
        }
      },
      {
        test: {
          ...timeouts,
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "examples/*/test/**/*.e2e.test.ts"],
          isolate: true,
          poolOptions: { forks: { singleFork: true } }
        }
      },
      {
        test: {
          // A browser's first page load (starting Chromium, compiling the app's script) is slower than an API call.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          isolate: true,
          poolOptions: { forks: { singleFork: true } }
        }
      }
    ]
  }
})
