/**
 * `npm run pack`: the installable packages. `garrison-<version>.tgz` runs
 * the controller without a clone (unpacked, `npm ci --omit=dev` in it,
 * then `bin/garrison.mjs start`; `install-debian.sh` does this on a fresh
 * host);
 * `garrison-agent-<version>.tgz` is the agent for each game host.
 *
 * The workspace packages are not published one by one: the controller is
 * already one bundle (`dist/garrison.mjs`, see bundle.mjs), so the package
 * is that bundle, the command line bundled the same way (`dist/cli.mjs`),
 * the built dashboard and a manifest whose dependencies are exactly the
 * packages the bundles leave external (native addons, the lazily loaded
 * ones), at the versions this clone installed, pinned with the lock's
 * part they reach (`npm-shrinkwrap.json`, see shrinkwrap.mjs). Nothing of
 * the testkit, the examples or the tests ships.
 *
 * Usage: node packages/http/scripts/pack.mjs [--out <folder>] [--no-build]
 * (default folder: the clone's root). Builds first (incremental) unless
 * `--no-build` (the tests: the suite has built, and a bundle rewritten
 * while other tests start it would be read half-written). The package is
 * put together in temporary folders, removed after. Prints each tarball's
 * path on a line of its own (the controller's, then the agent's).
 */
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { externalPackages, LAZY_MODULES, NATIVE_MODULES } from "./bundleSettings.mjs"
import { lazyModules } from "./lazyModules.mjs"
import { shrinkwrapFor } from "./shrinkwrap.mjs"

const http = NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..")
const root = NodePath.resolve(http, "..", "..")
const outArg = process.argv.indexOf("--out")
const out = NodePath.resolve(outArg === -1 ? root : (process.argv[outArg + 1] ?? root))

const run = (what, command, args, cwd = root) => {
  const done = spawnSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })
  if (done.status !== 0) {
    console.error(`pack: ${what} failed (exit ${done.status ?? done.signal})`)
    process.exit(done.status ?? 1)
  }
  return done.stdout
}

if (!process.argv.includes("--no-build")) run("the build", process.execPath, [NodePath.join(http, "scripts", "build.mjs")])
if (!existsSync(NodePath.join(http, "dist", "cli", "main.js")) || !existsSync(NodePath.join(http, "dist", "garrison.mjs"))) {
  console.error("pack: packages/http/dist has no controller bundle or command line; run `npm run build` first")
  process.exit(1)
}

const stages = []
process.on("exit", () => stages.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const newStage = () => {
  const dir = mkdtempSync(NodePath.join(tmpdir(), "garrison-pack-"))
  stages.push(dir)
  return dir
}
const stage = newStage()
mkdirSync(NodePath.join(stage, "dist"), { recursive: true })
mkdirSync(NodePath.join(stage, "bin"), { recursive: true })

// The controller's bundle as `npm start` runs it, and the command line bundled the same way.
for (const file of ["garrison.mjs", "garrison.mjs.map"]) cpSync(NodePath.join(http, "dist", file), NodePath.join(stage, "dist", file))
const cli = await build({
  entryPoints: [NodePath.join(http, "dist", "cli", "main.js")],
  outfile: NodePath.join(stage, "dist", "cli.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: [...NATIVE_MODULES, "./garrison.mjs"],
  plugins: [lazyModules(LAZY_MODULES)],
  banner: { js: 'import { createRequire as __garrisonCreateRequire } from "node:module"; const require = __garrisonCreateRequire(import.meta.url);' },
  legalComments: "eof",
  logLevel: "warning",
  metafile: true
})
writeFileSync(NodePath.join(stage, "bin", "garrison.mjs"), '#!/usr/bin/env node\nimport "../dist/cli.mjs"\n')
chmodSync(NodePath.join(stage, "bin", "garrison.mjs"), 0o755)

const dashboard = NodePath.join(root, "packages", "dashboard", "dist")
if (!existsSync(NodePath.join(dashboard, "index.html"))) {
  console.error("pack: packages/dashboard/dist/index.html is missing after the build")
  process.exit(1)
}
cpSync(dashboard, NodePath.join(stage, "dashboard"), { recursive: true })

const externals = new Set([
  ...JSON.parse(readFileSync(NodePath.join(http, "dist", "garrison.externals.json"), "utf8")),
  ...externalPackages(cli.metafile)
])

/** The version this clone installed (the lockfile's), so the package runs what the tests ran. */
const installedVersion = (name) => {
  try {
    return JSON.parse(readFileSync(NodePath.join(root, "node_modules", name, "package.json"), "utf8")).version
  } catch {
    return undefined
  }
}
const dependencies = {}
const optional = []
for (const name of [...externals].sort()) {
  const version = installedVersion(name)
  // A `require` in a try (pg's optional pg-native) of a package nobody installed: not a dependency.
  if (version === undefined) optional.push(name)
  else dependencies[name] = version
}

const rootManifest = JSON.parse(readFileSync(NodePath.join(root, "package.json"), "utf8"))
const manifest = {
  name: "garrison",
  version: rootManifest.version,
  description: rootManifest.description,
  type: "module",
  license: rootManifest.license ?? "UNLICENSED",
  engines: rootManifest.engines,
  bin: { garrison: "bin/garrison.mjs" },
  // Where the controller finds its web dashboard (DashboardFiles' default folder).
  garrisonDashboard: "dashboard",
  files: ["bin", "dist", "dashboard", "README.md", "npm-shrinkwrap.json"],
  dependencies
}
writeFileSync(NodePath.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
writeFileSync(
  NodePath.join(stage, "README.md"),
  [
    "# Garrison",
    "",
    "Runs and guards DayZ-style dedicated game servers: the controller (REST API, web dashboard) and its command line.",
    "",
    "```sh",
    "garrison start            # DATA_DIR (default ./data), PORT (8080), HOST (127.0.0.1)",
    "garrison --help",
    "```",
    "",
    "Built from a Garrison clone with `npm run pack`; the clone's README documents every setting.",
    ""
  ].join("\n")
)

const writeShrinkwrap = (folder, { name, version, dependencies }) =>
  writeFileSync(NodePath.join(folder, "npm-shrinkwrap.json"), `${JSON.stringify(shrinkwrapFor({ root, name, version, dependencies }), null, 2)}\n`)
writeShrinkwrap(stage, manifest)

mkdirSync(out, { recursive: true })
const npmPack = (folder) => NodePath.join(out, run("npm pack", "npm", ["pack", "--silent", "--pack-destination", out], folder).trim().split("\n").pop())
const controllerTarball = npmPack(stage)
if (optional.length > 0) console.error(`pack: left out optional packages not installed here: ${optional.join(", ")}`)
console.error(`pack: the controller's dependencies: ${Object.keys(dependencies).join(", ")}`)

// The agent: its compiled files (no sources, tests or build info) and its own dependencies, nothing of the controller.
const agentDir = NodePath.join(root, "packages", "agent")
const agentStage = newStage()
cpSync(NodePath.join(agentDir, "dist"), NodePath.join(agentStage, "dist"), {
  recursive: true,
  filter: (source) => !/\.tsbuildinfo$|\.test\.[cm]?js(\.map)?$|\.test\.d\.ts(\.map)?$/.test(source)
})
cpSync(NodePath.join(agentDir, "README.md"), NodePath.join(agentStage, "README.md"))
const { private: _private, devDependencies: _dev, ...agentManifest } = JSON.parse(readFileSync(NodePath.join(agentDir, "package.json"), "utf8"))
const agentFiles = [...(agentManifest.files ?? ["dist", "README.md"]), "npm-shrinkwrap.json"]
writeFileSync(NodePath.join(agentStage, "package.json"), `${JSON.stringify({ ...agentManifest, files: agentFiles, engines: rootManifest.engines }, null, 2)}\n`)
writeShrinkwrap(agentStage, agentManifest)
const agentTarball = npmPack(agentStage)

console.log(controllerTarball)
console.log(agentTarball)
