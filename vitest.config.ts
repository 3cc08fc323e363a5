import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "test/e2e/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
