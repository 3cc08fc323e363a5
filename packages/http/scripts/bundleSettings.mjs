import { builtinModules } from "node:module"

/** What the bundles (bundle.mjs, pack.mjs) leave out, shared so the controller and the command line agree. */

/** Native addons: they load their `.node` binaries at run time, from node_modules. */
export const NATIVE_MODULES = ["better-sqlite3", "@node-rs/argon2"]

/**
 * Loaded on first use, not at start-up (see lazyModules.mjs); each is a dependency of a workspace package.
 * zxcvbn-ts (the password policy) is several megabytes of dictionaries: loaded by the first password checked.
 */
export const LAZY_MODULES = [
  "yazl",
  "yauzl",
  "fast-xml-parser",
  "otpauth",
  "pidusage",
  "ws",
  "mime",
  "@zxcvbn-ts/core",
  "@zxcvbn-ts/language-common",
  "@zxcvbn-ts/language-en"
]

/** The packages (not Node's built-ins) an esbuild metafile's outputs import from node_modules at run time, sorted. */
export const externalPackages = (metafile) => {
  const names = new Set()
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith("node:") || imported.path.startsWith(".") || imported.path.startsWith("/")) continue
      const name = imported.path.startsWith("@") ? imported.path.split("/").slice(0, 2).join("/") : imported.path.split("/")[0]
      if (!builtinModules.includes(name)) names.add(name)
    }
  }
  return [...names].sort()
}
