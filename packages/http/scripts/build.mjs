/**
 * `npm run build` (and so `npm start`, `npm run reset-admin`, ...): compiles
 * every package (`tsc -b`), bundles the controller (`bundle.mjs`) and builds
 * the web dashboard (the `@garrison/dashboard` workspace's `build` script,
 * `vite build`, into `packages/dashboard/dist`), saying what it does and how
 * long it took. On a fresh clone this is the silent minute before the
 * controller starts; later builds only redo what changed and take seconds
 * (the bundle is made again only when a file it is made from is newer than
 * `dist/garrison.mjs`, see `bundleUpToDate`; the dashboard only when a file
 * it may be made from is newer than its `dist/index.html`; delete
 * `packages/http/dist/garrison.mjs` or `packages/dashboard/dist` to force
 * either). A failed step fails the build.
 *
 * `GARRISON_ROOT` points it at another checkout (a copy: the test of the
 * up-to-date checks builds one, never the real dist that other tests run).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const root = process.env["GARRISON_ROOT"] || NodePath.resolve(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const first = !existsSync(NodePath.join(root, "packages", "http", "dist", "garrison.mjs"))

const step = (what, args, command = process.execPath) => {
  const started = Date.now()
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit" })
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

/** The newest modification time of the files under `dir` whose names pass `keep` (0 when there is no such folder). */
const newestIn = (dir, keep) => {
  let newest = 0
  const walk = (at) => {
    let entries
    try {
      entries = readdirSync(at, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = NodePath.join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && keep(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  walk(dir)
  return newest
}

/**
 * Whether `dist/garrison.mjs` is newer than everything it is bundled from: the compiled JavaScript of
 * the runtime, the plugins, the agent and the http package (every `.js` file in their `dist` folders,
 * which tsc rewrites only when a source changed), the lockfile (the dependencies bundled in) and the bundle's own scripts. The
 * bundle's side files (source map, externals list) are written with it.
 */
const bundleUpToDate = () => {
  const http = NodePath.join(root, "packages", "http")
  const built = NodePath.join(http, "dist", "garrison.mjs")
  if (!existsSync(built) || !existsSync(NodePath.join(http, "dist", "garrison.externals.json"))) return false
  const compiledJs = (name) => name.endsWith(".js")
  const inputs = [
    ...["runtime", "plugins", "agent"].map((name) => newestIn(NodePath.join(root, "packages", name, "dist"), compiledJs)),
    newestIn(NodePath.join(http, "dist"), compiledJs),
    ...["package-lock.json", ...["bundle.mjs", "bundleSettings.mjs", "lazyModules.mjs"].map((name) => NodePath.join("packages", "http", "scripts", name))].map(
      (file) => statSync(NodePath.join(root, file)).mtimeMs
    )
  ]
  return statSync(built).mtimeMs >= Math.max(...inputs)
}

let bundled = 0
let bundleNote
if (bundleUpToDate()) {
  bundleNote = "bundle up to date"
  console.error("build: bundle up to date (packages/http/dist/garrison.mjs)")
} else {
  bundled = step("the bundle", [NodePath.join(root, "packages", "http", "scripts", "bundle.mjs")])
  bundleNote = `bundle ${(bundled / 1000).toFixed(1)} s`
}

// The dashboard: its workspace's own `build` script, when it has one (the app may not exist yet).
const dashboard = NodePath.join(root, "packages", "dashboard")
const dashboardScript = (() => {
  try {
    const manifest = JSON.parse(readFileSync(NodePath.join(dashboard, "package.json"), "utf8"))
    return typeof manifest?.scripts?.build === "string" ? manifest.scripts.build : undefined
  } catch {
    return undefined
  }
})()

/** The newest modification time of the files under `dir` (no dist, node_modules or dot folders). */
const newestUnder = (dir) => {
  let newest = 0
  const walk = (at) => {
    let entries
    try {
      entries = readdirSync(at, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name === "dist") continue
      const path = NodePath.join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  walk(dir)
  return newest
}

/** Whether `dist/index.html` is newer than everything the dashboard may be made from (its sources, the plugins' contracts and ui, the lockfile). */
const dashboardUpToDate = () => {
  const built = NodePath.join(dashboard, "dist", "index.html")
  if (!existsSync(built)) return false
  const inputs = [dashboard, ...["runtime", "plugins", "agent"].map((name) => NodePath.join(root, "packages", name, "src"))]
  const newest = Math.max(statSync(NodePath.join(root, "package-lock.json")).mtimeMs, ...inputs.map(newestUnder))
  return statSync(built).mtimeMs >= newest
}

let dashboardMs = 0
let dashboardNote = "dashboard: no build script yet"
if (dashboardScript === undefined) {
  console.error("build: packages/dashboard has no build script yet; the controller will say so at /")
} else if (dashboardUpToDate()) {
  dashboardNote = "dashboard up to date"
  console.error("build: the dashboard is up to date (packages/dashboard/dist)")
} else {
  console.error(`build: building the dashboard (${dashboardScript}) into packages/dashboard/dist...`)
  // npm's own CLI under this Node when npm runs us (npm_execpath), else npm from the PATH.
  const npmCli = process.env["npm_execpath"]
  const viaNode = npmCli !== undefined && /\.c?js$/.test(npmCli)
  const args = ["run", "build", "--workspace", "@garrison/dashboard", "--if-present"]
  dashboardMs = step("the dashboard", viaNode ? [npmCli, ...args] : args, viaNode ? process.execPath : "npm")
  if (!existsSync(NodePath.join(dashboard, "dist", "index.html"))) {
    console.error("build: the dashboard's build wrote no packages/dashboard/dist/index.html")
    process.exit(1)
  }
  dashboardNote = `dashboard ${(dashboardMs / 1000).toFixed(1)} s`
}
console.error(
  `build: done in ${((compiled + bundled + dashboardMs) / 1000).toFixed(1)} s (tsc ${(compiled / 1000).toFixed(1)} s, ${bundleNote}, ${dashboardNote})`
)
