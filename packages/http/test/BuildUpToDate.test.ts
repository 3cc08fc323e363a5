/**
 * `npm run build` (scripts/build.mjs) bundles the controller only when
 * something the bundle is made from changed: a second build says "bundle up
 * to date" and leaves `dist/garrison.mjs` as it was (same bytes, same mtime).
 *
 * Run against a copy, never the real checkout: other test files run the
 * real `packages/http/dist/garrison.mjs` at the same time (the e2e tests
 * start it), and a bundle rewritten under them could be read half written.
 * So the real build.mjs runs with `GARRISON_ROOT` on a small tree in a
 * temporary folder that has the same layout: the compiled `dist/*.js` of
 * runtime, plugins, agent and http, the lockfile, and a `bundle.mjs` that
 * stands in for esbuild (it writes the bundle and counts its runs), a
 * one-file TypeScript project for `tsc -b`, and no dashboard. The decision
 * under test (which files, which times) is build.mjs's own; only the
 * expensive steps are stand-ins.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const buildScript = NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "scripts", "build.mjs")

/** What the stand-in bundle.mjs does: write the bundle and its externals list, and count its runs. */
const FAKE_BUNDLE = `
import { appendFileSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
const dist = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "dist")
writeFileSync(NodePath.join(dist, "garrison.mjs"), "// bundled at " + Date.now() + "\\n")
writeFileSync(NodePath.join(dist, "garrison.externals.json"), "[]\\n")
appendFileSync(NodePath.join(dist, "..", "bundle-runs.log"), "ran\\n")
`

const write = (path: string, text: string) => {
  mkdirSync(NodePath.dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** A checkout-shaped tree whose every file is `ageSeconds` old. */
const fakeCheckout = (root: string) => {
  const files: Record<string, string> = {
    "package-lock.json": "{}\n",
    "tsconfig.json": JSON.stringify({ compilerOptions: { composite: true, outDir: "out", rootDir: "." }, files: ["index.ts"] }),
    "index.ts": "export const x = 1\n",
    "packages/runtime/dist/index.js": "export {}\n",
    "packages/plugins/dist/accounts/passwords/policy.js": "export {}\n",
    "packages/agent/dist/index.js": "export {}\n",
    "packages/http/dist/main.js": "export {}\n",
    "packages/http/scripts/bundle.mjs": FAKE_BUNDLE,
    "packages/http/scripts/bundleSettings.mjs": "export {}\n",
    "packages/http/scripts/lazyModules.mjs": "export {}\n"
  }
  for (const [path, text] of Object.entries(files)) write(NodePath.join(root, path), text)
  return Object.keys(files).filter((path) => !path.endsWith(".ts") && path !== "tsconfig.json")
}

/** The real build.mjs on the copy at `root`; it speaks on stderr. */
const spawnBuild = (root: string) => {
  const run = spawnSync(process.execPath, [buildScript], {
    cwd: root,
    // Not under npm: the copy has no dashboard to build with it anyway.
    env: { ...process.env, GARRISON_ROOT: root, npm_execpath: "" },
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: run.status, stderr: run.stderr }
}

const age = (path: string, secondsAgo: number) => {
  const at = new Date(Date.now() - secondsAgo * 1000)
  utimesSync(path, at, at)
}

describe("npm run build", () => {
  it("skips the bundle when nothing it is made from changed, and bundles again when one input did", () => {
    const root = mkdtempSync(NodePath.join(tmpdir(), "garrison-build-"))
    try {
      const inputs = fakeCheckout(root)
      for (const path of inputs) age(NodePath.join(root, path), 600)
      const bundle = NodePath.join(root, "packages", "http", "dist", "garrison.mjs")
      const runs = () => readFileSync(NodePath.join(root, "packages", "http", "bundle-runs.log"), "utf8").split("\n").filter(Boolean).length

      // First build: no bundle yet, so it bundles.
      const first = spawnBuild(root)
      expect(first.status, first.stderr).toBe(0)
      expect(first.stderr).not.toContain("bundle up to date")
      expect(runs()).toBe(1)
      age(bundle, 300)
      const before = statSync(bundle).mtimeMs
      const bytes = readFileSync(bundle, "utf8")

      // Second build: every input is older than the bundle.
      const second = spawnBuild(root)
      expect(second.status, second.stderr).toBe(0)
      expect(second.stderr).toContain("build: bundle up to date")
      expect(second.stderr).toMatch(/build: done in .*bundle up to date/)
      expect(runs()).toBe(1)
      expect(statSync(bundle).mtimeMs).toBe(before)
      expect(readFileSync(bundle, "utf8")).toBe(bytes)

      // Any one input newer than the bundle (a recompiled plugin, the lockfile, the bundle's scripts) bundles again.
      let expected = 1
      for (const input of ["packages/plugins/dist/accounts/passwords/policy.js", "packages/http/dist/main.js", "package-lock.json", "packages/http/scripts/bundleSettings.mjs"]) {
        age(NodePath.join(root, input), 0)
        const again = spawnBuild(root)
        expected += 1
        expect(again.status, again.stderr).toBe(0)
        expect(again.stderr, input).not.toContain("bundle up to date")
        expect(runs(), input).toBe(expected)
        // Back to a bundle newer than every input, for the next one.
        age(bundle, 300)
        for (const path of inputs) age(NodePath.join(root, path), 600)
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
