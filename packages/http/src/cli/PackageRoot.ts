/**
 * Where the package that holds this command line is, however it runs: compiled (`dist/cli/main.js` in the
 * clone's `packages/http`) or bundled into one file by `npm run pack` (`dist/cli.mjs` in the installed
 * package). The root is the nearest folder up whose package.json declares the `garrison` bin.
 */
import { existsSync, readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const findRoot = (): { readonly root: string; readonly version: string } => {
  let dir = NodePath.dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(NodePath.join(dir, "package.json"), "utf8")) as { readonly bin?: unknown; readonly version?: unknown }
      if (typeof manifest.bin === "object" && manifest.bin !== null && "garrison" in manifest.bin) {
        return { root: dir, version: typeof manifest.version === "string" ? manifest.version : "0.0.0" }
      }
    } catch {
      // no package.json here
    }
    const parent = NodePath.dirname(dir)
    if (parent === dir) return { root: NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..", ".."), version: "0.0.0" }
    dir = parent
  }
}

const found = findRoot()

/** The package's folder (`packages/http` in a clone). */
export const packageRoot = found.root
export const packageVersion = found.version
export const distDir = NodePath.join(packageRoot, "dist")

/** What `npm start` runs: `dist/start.js` (the bundle, or the unbundled controller with PLUGINS), or the bundle alone where only it ships. */
export const startScript = existsSync(NodePath.join(distDir, "start.js")) ? NodePath.join(distDir, "start.js") : NodePath.join(distDir, "garrison.mjs")
