/**
 * The bundle's lazy packages (scripts/lazyModules.mjs): bundled with the
 * plugin, an entry that imports yazl, otpauth and pidusage loads none of
 * them at start-up, and each works on first use as the real package does
 * (`new`, static methods, `instanceof`, a default export called as a
 * function); zxcvbn-ts, listed by the controller, loads at the first
 * password checked, its dictionaries read through the proxies. Run in a
 * child process: the test runner's own module cache would hide what was
 * loaded.
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

/** An entry that loads the password policy's zxcvbn-ts the way policy.ts does (a dynamic import), then checks passwords. */
const ZXCVBN_ENTRY = `
const loaded = () => [...new Set(Object.keys(require.cache).filter((path) => /node_modules\\/@zxcvbn-ts\\//.test(path)).map((path) => path.match(/@zxcvbn-ts\\/([^/]+)\\//)[1]))].sort()
const atStart = loaded()
const [core, common, en] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")])
const afterImport = loaded()
const zxcvbn = new core.ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: { ...common.adjacencyGraphs },
  translations: en.translations
})
const weak = zxcvbn.check("Password1")
console.log(JSON.stringify({
  atStart,
  afterImport,
  afterUse: loaded(),
  weak: weak.score,
  warning: weak.feedback.warning,
  strong: zxcvbn.check("tangerine glacier mosaic harbour").score
}))
`

/** Bundles `source` as the controller's bundle does, with `modules` lazy, runs it in a child process and parses what it prints. */
const bundleAndRun = async (source: string, modules: ReadonlyArray<string>): Promise<Record<string, unknown>> => {
  const dir = mkdtempSync(NodePath.join(tmpdir(), "garrison-lazy-"))
  try {
    const [{ build }, { lazyModules }] = await Promise.all([
      import("esbuild"),
      import(pathToFileURL(NodePath.join(httpPackage, "scripts", "lazyModules.mjs")).href) as Promise<{
        lazyModules: (modules: ReadonlyArray<string>) => import("esbuild").Plugin
      }>
    ])
    const entry = NodePath.join(dir, "entry.mjs")
    writeFileSync(entry, source)
    const out = NodePath.join(dir, "out.mjs")
    await build({
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      plugins: [lazyModules(modules)],
      // As the controller's bundle does, but resolving packages from this workspace (the file lies in a temporary folder).
      banner: { js: `import { createRequire as __cr } from "node:module"; const require = __cr(${JSON.stringify(NodePath.join(httpPackage, "package.json"))});` },
      logLevel: "silent",
      absWorkingDir: httpPackage
    })
    return JSON.parse(execFileSync(process.execPath, [out], { encoding: "utf8", timeout: 30_000 })) as Record<string, unknown>
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe("lazy modules in the bundle", () => {
  it("loads nothing at start-up and behaves like the real package on first use", async () => {
    const report = await bundleAndRun(ENTRY, ["yazl", "otpauth", "pidusage"])
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
  }, 60_000)

  it("loads zxcvbn-ts (the password policy's dictionaries) only when a password is first checked, as the controller lists it", async () => {
    const { LAZY_MODULES } = (await import(pathToFileURL(NodePath.join(httpPackage, "scripts", "bundleSettings.mjs")).href)) as {
      LAZY_MODULES: ReadonlyArray<string>
    }
    const zxcvbn = ["@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "@zxcvbn-ts/language-en"]
    expect(LAZY_MODULES).toEqual(expect.arrayContaining(zxcvbn))
    const report = await bundleAndRun(ZXCVBN_ENTRY, LAZY_MODULES)
    expect(report).toEqual({
      atStart: [],
      // The import itself gives the small generated modules; the packages load on first use.
      afterImport: [],
      afterUse: expect.arrayContaining(["core", "language-common", "language-en"]),
      weak: 0,
      warning: "This is a commonly used password.",
      strong: 4
    })
  }, 60_000)
})
