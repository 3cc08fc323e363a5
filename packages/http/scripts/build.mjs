/**
 * `npm run build` (and so `npm start`, `npm run reset-admin`, ...): compiles
 * every package (`tsc -b`) and bundles the controller (`bundle.mjs`), saying
 * what it does and how long it took. On a fresh clone this is the silent
 * minute before the controller starts; later builds only redo what changed
 * and take seconds.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const root = NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const first = !existsSync(NodePath.join(root, "packages", "http", "dist", "garrison.mjs"))

const step = (what, args) => {
  const started = Date.now()
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" })
  if (run.status !== 0) {
    console.error(`build: ${what} failed (exit ${run.status ?? run.signal})`)
    process.exit(run.status ?? 1)
  }
  return Date.now() - started
}

console.error(
  first
    ? "build: compiling Garrison with tsc, then bundling the controller (the first build takes 20 s to a minute on 2 cores)..."
    : "build: compiling what changed and bundling the controller..."
)
const compiled = step("tsc -b", [tsc, "-b"])
const bundled = step("the bundle", [NodePath.join(root, "packages", "http", "scripts", "bundle.mjs")])
console.error(`build: done in ${((compiled + bundled) / 1000).toFixed(1)} s (tsc ${(compiled / 1000).toFixed(1)} s, bundle ${(bundled / 1000).toFixed(1)} s)`)
