/**
 * The bundle's lazy packages (scripts/lazyModules.mjs): bundled with the
 * plugin, an entry that imports yazl, otpauth and pidusage loads none of
 * them at start-up, and each works on first use as the real package does
 * (`new`, static methods, `instanceof`, a default export called as a
 * function). Run in a child process: the test runner's own module cache
 * would hide what was loaded.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const httpPackage = NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..")

const ENTRY = `
import { ZipFile } from "yazl"
import pidusage from "pidusage"
import { Secret, TOTP } from "otpauth"
const loaded = () => Object.keys(require.cache).filter((path) => /node_modules\\/(yazl|otpauth|pidusage)\\//.test(path)).map((path) => path.match(/node_modules\\/([^/]+)\\//)[1])
const atStart = [...new Set(loaded())].sort()
const zip = new ZipFile()
const totp = new TOTP({ secret: Secret.fromBase32("JBSWY3DPEHPK3PXP"), period: 30, digits: 6 })
const usage = await pidusage(process.pid)
console.log(JSON.stringify({
  atStart,
  afterUse: [...new Set(loaded())].sort(),
  zipIsZipFile: zip instanceof ZipFile,
  totpIsTotp: totp instanceof TOTP,
  plainObjectIsTotp: {} instanceof TOTP,
  code: totp.generate({ timestamp: 0 }),
  memory: typeof usage.memory
}))
`

describe("lazy modules in the bundle", () => {
  it("loads nothing at start-up and behaves like the real package on first use", async () => {
    const dir = mkdtempSync(NodePath.join(tmpdir(), "garrison-lazy-"))
    try {
      const [{ build }, { lazyModules }] = await Promise.all([
        import("esbuild"),
        import(pathToFileURL(NodePath.join(httpPackage, "scripts", "lazyModules.mjs")).href) as Promise<{
          lazyModules: (modules: ReadonlyArray<string>) => import("esbuild").Plugin
        }>
      ])
      const entry = NodePath.join(dir, "entry.mjs")
      writeFileSync(entry, ENTRY)
      const out = NodePath.join(dir, "out.mjs")
      await build({
        entryPoints: [entry],
        outfile: out,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        plugins: [lazyModules(["yazl", "otpauth", "pidusage"])],
        // As the controller's bundle does, but resolving packages from this workspace (the file lies in a temporary folder).
        banner: { js: `import { createRequire as __cr } from "node:module"; const require = __cr(${JSON.stringify(NodePath.join(httpPackage, "package.json"))});` },
        logLevel: "silent",
        absWorkingDir: httpPackage
      })
      const report = JSON.parse(execFileSync(process.execPath, [out], { encoding: "utf8", timeout: 30_000 })) as Record<string, unknown>
      expect(report).toEqual({
        atStart: [],
        afterUse: ["otpauth", "pidusage", "yazl"],
        zipIsZipFile: true,
        totpIsTotp: true,
        plainObjectIsTotp: false,
        // The real library's code for this secret at t=0.
        code: "282760",
        memory: "number"
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
