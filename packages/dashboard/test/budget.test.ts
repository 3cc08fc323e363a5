/**
 * The dashboard's build, checked: `vite build` succeeds (its own check fails
 * the build when a Node-only module reaches the bundle), the first load
 * (the entry script and the chunks `index.html` preloads) stays under
 * 300 KB of gzip-compressed JavaScript, and `index.html` has no inline
 * script or style for the controller's CSP to refuse.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"

const BUDGET_BYTES = 300 * 1024
const root = NodePath.resolve(import.meta.dirname, "..")
const out = mkdtempSync(NodePath.join(tmpdir(), "dashboard-build-"))
afterAll(() => rmSync(out, { recursive: true, force: true }))

const vite = NodePath.join(NodePath.dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js")

describe("the dashboard build", () => {
  it("builds, and its first load is under 300 KB of gzipped JavaScript", () => {
    const build = spawnSync(process.execPath, [vite, "build", "--outDir", out, "--emptyOutDir", "--logLevel", "error"], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } })
    expect(build.status, build.stderr + build.stdout).toBe(0)

    const html = readFileSync(NodePath.join(out, "index.html"), "utf8")
    // CSP: no inline scripts, no style attributes, nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/\sstyle=/)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)

    const firstLoad = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
    expect(firstLoad.length).toBeGreaterThan(0)
    const gzipped = firstLoad.map((file) => gzipSync(readFileSync(NodePath.join(out, file)), { level: 9 }).length)
    const total = gzipped.reduce((a, b) => a + b, 0)
    console.info(`dashboard first load: ${firstLoad.length} script(s), ${(total / 1024).toFixed(1)} KB gzipped`)
    expect(total).toBeLessThan(BUDGET_BYTES)

    // Pages are split off: more chunks exist than the first load fetches.
    const all = readdirSync(NodePath.join(out, "assets")).filter((f) => f.endsWith(".js"))
    expect(all.length).toBeGreaterThan(firstLoad.length)
  }, 180_000)
})
