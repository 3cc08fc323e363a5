/**
 * Each plugin is a subpath of the package (`@garrison/plugins/bans`), so a
 * community plugin can depend on one plugin's public face; nothing else of
 * a plugin is reachable from outside.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"

const root = NodePath.resolve(import.meta.dirname, "..", "..")
const manifest = JSON.parse(readFileSync(NodePath.join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> }
const pluginFolders = readdirSync(NodePath.join(root, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(NodePath.join(root, "src", entry.name, "index.ts")))
  .map((entry) => entry.name)
  .sort()

describe("the package's subpath exports", () => {
  it("name every plugin folder, and nothing else but the package index", () => {
    expect(Object.keys(manifest.exports).sort()).toEqual([".", ...pluginFolders.map((name) => `./${name}`)].sort())
  })

  it.each(pluginFolders)("@garrison/plugins/%s loads and exports that plugin", async (name) => {
    const face = (await import(`@garrison/plugins/${name}`)) as Record<string, unknown>
    const plugins = Object.values(face).filter((value) => typeof value === "object" && value !== null && (value as { id?: unknown }).id === name)
    expect(plugins, `a plugin with id "${name}"`).toHaveLength(1)
  })

  it("does not reach a plugin's internals", async () => {
    const hidden = "@garrison/plugins/players/internal/resolve.js"
    await expect(import(/* @vite-ignore */ hidden)).rejects.toThrow(/not exported|Package subpath|Missing ".\/players\/internal\/resolve.js" specifier/)
  })
})
