#!/usr/bin/env node
/**
 * `npm test`'s last step: the suite once per database engine, one after
 * the other (each pass gets the machine to itself).
 *
 * - SQLite (the embedded default): every project (unit, e2e, browser).
 * - PostgreSQL: the unit and e2e projects with GARRISON_TEST_DATABASE=postgres
 *   (the testkit's global setup starts one PostgreSQL 15 for the pass). The
 *   dashboard's browser tests are about the pages, which read the same API on
 *   either engine, so they run once.
 *
 * GARRISON_TEST_DATABASE=sqlite or =postgres runs that pass alone, for a quick
 * local run. Arguments go to vitest (`npm test -- packages/plugins/test/bans`).
 * Exits with the first failing pass's code, after running both: one engine's
 * failures never hide the other's.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const VARIABLE = "GARRISON_TEST_DATABASE"
const root = fileURLToPath(new URL("..", import.meta.url))
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url))

const PASSES = {
  sqlite: { label: "SQLite", projects: [] },
  postgres: { label: "PostgreSQL", projects: ["unit", "e2e"] }
}

const chosen = (process.env[VARIABLE] ?? "").trim().toLowerCase()
const engines =
  chosen === "" ? ["sqlite", "postgres"] : chosen === "sqlite" ? ["sqlite"] : chosen === "postgres" || chosen === "postgresql" ? ["postgres"] : undefined
if (engines === undefined) {
  console.error(`${VARIABLE}=${process.env[VARIABLE]} is not a database engine: use sqlite or postgres, or leave it unset for both passes`)
  process.exit(2)
}

const results = []
for (const engine of engines) {
  const pass = PASSES[engine]
  const args = [vitest, "run", ...pass.projects.flatMap((name) => ["--project", name]), ...process.argv.slice(2)]
  console.log(`\n== tests on ${pass.label} (${VARIABLE}=${engine}): vitest ${args.slice(1).join(" ")}\n`)
  const started = Date.now()
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, [VARIABLE]: engine } })
  const code = run.status ?? 1
  results.push({ label: pass.label, code, seconds: Math.round((Date.now() - started) / 1000), signal: run.signal })
  // Stopped by hand (Ctrl-C) or by CI: no next pass.
  if (run.signal === "SIGINT" || run.signal === "SIGTERM") break
}

console.log("")
for (const { label, code, seconds, signal } of results) {
  console.log(`tests on ${label}: ${code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s`)
}
process.exit(results.find((result) => result.code !== 0)?.code ?? 0)
