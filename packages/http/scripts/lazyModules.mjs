/**
 * An esbuild plugin that leaves some packages out of the bundle and loads
 * each one the first time it is used, not at start-up.
 *
 * Why: evaluating a module costs start-up time and memory whether or not
 * the controller ever needs it. Zip (backups), XML (types), TOTP (MFA),
 * process metrics, the WebSocket server `@effect/platform-node` imports
 * and never uses here, MIME types for file responses: none is needed to
 * answer the first request, and together they were ~15 % of the bundle.
 *
 * How: an import of a lazy package resolves to a small generated module
 * with the same export names (read from the real package at build time).
 * Each export is a Proxy over a function: calling it, `new`-ing it or
 * reading a property loads the real package (from node_modules, like the
 * native addons) and forwards to the real export, so `new ZipFile()`,
 * `Secret.fromBase32(...)` and `x instanceof TOTP` behave as before.
 * Primitive exports (a version string) are copied as values. A package
 * whose top level runs on import (`new XMLParser()` at module scope) is
 * still loaded at start-up: keep such calls inside functions.
 */
import { createRequire } from "node:module"

const requireHere = createRequire(import.meta.url)

/** The generated module for `name`: its exports, each loading the package on first use. */
const shimSource = (name) => {
  const real = requireHere(name)
  const names = Object.keys(real).filter((key) => key !== "default" && key !== "__esModule" && /^[A-Za-z_$][\w$]*$/.test(key))
  const hasDefault = "default" in real && real.__esModule === true
  const lazy = (path) =>
    typeof path.value === "function" || (typeof path.value === "object" && path.value !== null)
      ? `lazyExport(() => ${path.access})`
      : JSON.stringify(path.value ?? null)
  const lines = [
    `let loaded`,
    // esbuild turns this into a require from node_modules at run time (the bundle's banner defines require).
    `const load = () => (loaded ??= require(${JSON.stringify(name)}))`,
    // A bound function: constructible, and without the non-configurable `prototype` a Proxy would have to report.
    `const lazyExport = (get) => new Proxy(function () {}.bind(null), {`,
    `  apply: (_, self, args) => Reflect.apply(get(), self, args),`,
    `  construct: (_, args, target) => Reflect.construct(get(), args),`,
    `  get: (_, key) => { const value = get()[key]; return typeof value === "function" && key !== "prototype" && !/^[A-Z]/.test(String(key)) ? value.bind(get()) : value },`,
    `  has: (_, key) => key in get(),`,
    `  ownKeys: () => Reflect.ownKeys(get()),`,
    `  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(get(), key); return d && { ...d, configurable: true } },`,
    `  getPrototypeOf: () => Reflect.getPrototypeOf(get())`,
    `})`,
    ...names.map((key) => `export const ${key} = ${lazy({ value: real[key], access: `load()[${JSON.stringify(key)}]` })}`),
    `export default ${hasDefault ? lazy({ value: real.default, access: "load().default" }) : lazy({ value: real, access: "load()" })}`
  ]
  return lines.join("\n")
}

/** Leaves `modules` out of the bundle, each loaded on first use (see above). */
export const lazyModules = (modules) => ({
  name: "lazy-modules",
  setup(build) {
    const filter = new RegExp(`^(${modules.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`)
    build.onResolve({ filter }, (args) =>
      // The shim's own require of the package stays a run-time require.
      args.namespace === "lazy-module" ? { path: args.path, external: true } : { path: args.path, namespace: "lazy-module" }
    )
    build.onLoad({ filter: /.*/, namespace: "lazy-module" }, (args) => ({ contents: shimSource(args.path), loader: "js", resolveDir: process.cwd() }))
  }
})
