import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "test/e2e/**/*.test.ts"],
    // One TMPDIR per run, checked and removed at the end (test/support/runTempDir.ts).
    globalSetup: ["test/support/runTempDir.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
