/**
 * The OpenAPI document, as the controller builds it with the default
 * plugins, passes `@redocly/cli lint` (the repository's `redocly.yaml`)
 * with no error and no warning. The CLI runs from node_modules, offline:
 * the document has no remote `$ref`, and telemetry is off.
 */
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { defaultPlugins } from "@garrison/plugins"
import { planPlugins } from "@garrison/runtime"
import { Either } from "effect"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { docsHostRoutes } from "../src/OpenApiDocs.js"
import { combinedApi } from "../src/openapi/Document.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const cli = NodePath.join(root, "node_modules/@redocly/cli/bin/cli.js")

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string }>
}

const writeDocument = (): string => {
  const plan = planPlugins(defaultPlugins, docsHostRoutes)
  if (Either.isLeft(plan)) throw new Error(plan.left.message)
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-openapi-lint-"))
  const file = NodePath.join(dir, "openapi.json")
  Fs.writeFileSync(file, JSON.stringify(OpenApi.fromApi(combinedApi(plan.right, "1.0.0")), null, 2))
  return file
}

describe("the OpenAPI document under @redocly/cli lint", () => {
  it("has no error and no warning", { timeout: 60_000 }, () => {
    const file = writeDocument()
    try {
      const run = spawnSync(process.execPath, [cli, "lint", "--config", NodePath.join(root, "redocly.yaml"), "--format", "json", file], {
        cwd: root,
        encoding: "utf8",
        // Offline: no telemetry, no check for a newer CLI.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
        timeout: 55_000
      })
      const report = JSON.parse(run.stdout) as LintReport
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)
      expect(problems).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
      expect(run.status, run.stderr).toBe(0)
    } finally {
      Fs.rmSync(NodePath.dirname(file), { recursive: true, force: true })
    }
  })
})
