/**
 * Bundles the compiled controller (`dist/main.js`) into one ES module,
 * `dist/garrison.mjs`, which `npm start` runs (through `dist/start.js`).
 *
 * Why: unbundled, the controller loads ~800 modules at start-up (effect,
 * @effect/platform, fast-check via Schema, ...); resolving, reading and
 * compiling them took 1.2-2.5 s and ~40 MB of the start-up time and memory
 * that issue 5's benchmark bounds. One tree-shaken file loads in a fraction
 * of that. With PLUGINS set, `start.js` runs the unbundled `main.js`
 * instead, so outside plugins and the controller share one copy of every
 * module (see src/start.ts).
 *
 * Native addons stay external: they load their `.node` binaries at run time.
 * Packages no request needs at start-up (zip, XML, TOTP, process metrics,
 * WebSocket, MIME types, the password policy's zxcvbn dictionaries) stay
 * out too and load on first use
 * (`lazyModules.mjs`).
 * The source map is written next to the bundle; run with
 * `node --enable-source-maps` to get TypeScript positions in stack traces.
 */
import { build } from "esbuild"
import { writeFileSync } from "node:fs"
import { externalPackages, LAZY_MODULES, NATIVE_MODULES } from "./bundleSettings.mjs"
import { lazyModules } from "./lazyModules.mjs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const dist = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "dist")


const result = await build({
  entryPoints: [NodePath.join(dist, "main.js")],
  outfile: NodePath.join(dist, "garrison.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: NATIVE_MODULES,
  plugins: [lazyModules(LAZY_MODULES)],
  // CommonJS dependencies (pidusage, rcon-client, ...) call `require` for Node built-ins.
  banner: { js: 'import { createRequire as __garrisonCreateRequire } from "node:module"; const require = __garrisonCreateRequire(import.meta.url);' },
  sourcemap: "linked",
  legalComments: "eof",
  logLevel: "warning",
  metafile: true
})

// Test code never ships: the testkit (and anything else built only for tests) must not reach the controller.
const testOnly = Object.keys(result.metafile.inputs).filter((input) => /(^|\/)packages\/testkit\/|(^|\/)test\/dist\//.test(input))
if (testOnly.length > 0) {
  console.error(`bundle: test code reached the controller: ${testOnly.join(", ")}`)
  process.exit(1)
}
// A lazy package's code in the bundle would be evaluated at start-up after all (imported some other way).
const lazyInside = Object.keys(result.metafile.inputs).filter((input) =>
  LAZY_MODULES.some((name) => input.includes(`node_modules/${name}/`))
)
if (lazyInside.length > 0) {
  console.error(`bundle: packages meant to load on first use were bundled: ${lazyInside.slice(0, 5).join(", ")}`)
  process.exit(1)
}
// What the bundle loads from node_modules at run time: the installable package's dependencies (pack.mjs).
writeFileSync(NodePath.join(dist, "garrison.externals.json"), `${JSON.stringify(externalPackages(result.metafile), null, 2)}\n`)
