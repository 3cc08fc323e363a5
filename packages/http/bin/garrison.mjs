#!/usr/bin/env node
/**
 * The `garrison` command (the http package's bin; `npx garrison` in a clone after `npm ci`): runs the built
 * command line, `dist/cli/main.js`. When it (or the bundle `garrison start` runs) is missing in a clone, it
 * builds first, as `npm start` does; where there is nothing to build from, it says to run `npm run build`.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const pkg = NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..")
const entry = NodePath.join(pkg, "dist", "cli", "main.js")
const needed = [entry, NodePath.join(pkg, "dist", "start.js"), NodePath.join(pkg, "dist", "garrison.mjs")]
const build = NodePath.join(pkg, "scripts", "build.mjs")

if (needed.some((file) => !existsSync(file))) {
  if (!existsSync(build)) {
    console.error(`garrison: ${entry} is missing: run \`npm run build\` where Garrison was installed`)
    process.exit(1)
  }
  console.error("garrison: not built yet; building first (npm run build)...")
  const run = spawnSync(process.execPath, [build], { cwd: NodePath.resolve(pkg, "..", ".."), stdio: ["ignore", "inherit", "inherit"] })
  if (run.status !== 0 || !existsSync(entry)) {
    console.error("garrison: the build failed; run `npm run build` in the repository and read its output")
    process.exit(run.status || 1)
  }
}
await import(pathToFileURL(entry).href)
