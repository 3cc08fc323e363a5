/**
 * The dashboard's build: React + Vite, one `index.html` and hashed
 * `dist/assets/*`. The plugins' HTTP contracts are imported from their
 * sources (aliases below), so browser and controller share one set of types;
 * everything else those modules reach (SQLite, the file system, ...) is
 * dropped by tree-shaking: the workspace sources are declared free of
 * import-time side effects here (`moduleSideEffects`), and `check-browser`
 * fails the build if a Node-only package is still in the bundle.
 */
import react from "@vitejs/plugin-react"
import { fileURLToPath } from "node:url"
import { defineConfig, type Plugin } from "vite"

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const workspaceSources = /\/packages\/(runtime|plugins|agent)\/src\//

/** Modules that must never reach the browser bundle. */
const NODE_ONLY = /(^|\/)node_modules\/(better-sqlite3|@effect\/sql-sqlite-node|@effect\/platform-node|@node-rs|pidusage|rcon-client|croner|jose|otpauth)\//

/**
 * Contracts that name another plugin's schemas import that plugin's index
 * (the plugins' boundary rule); in the browser they get the same schemas
 * from its contract files, without the plugin's implementation.
 */
const contractFaces = (): Plugin => ({
  name: "garrison:contract-faces",
  enforce: "pre",
  async resolveId(source, importer) {
    if (importer === undefined || !/\/packages\/plugins\/src\/[a-z-]+\/contract\//.test(importer)) return null
    const face = /^\.\.\/\.\.\/(servers)\/index\.js$/.exec(source)
    if (face !== null) return at(`../plugins/src/${face[1]}/contract/fields.ts`)
    return null
  }
})

const checkBrowser = (): Plugin => ({
  name: "garrison:check-browser",
  generateBundle(_options, bundle) {
    const offenders = new Set<string>()
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk") continue
      for (const id of Object.keys(chunk.modules)) {
        if (NODE_ONLY.test(id) || id.includes("__vite-browser-external")) offenders.add(id)
      }
    }
    if (offenders.size > 0) this.error(`Node-only modules reached the browser bundle: ${[...offenders].join(", ")}`)
  }
})

export default defineConfig({
  root: at("."),
  base: "/",
  plugins: [contractFaces(), react(), checkBrowser()],
  resolve: {
    alias: [
      { find: /^@dashboard\//, replacement: at("src") + "/" },
      { find: /^node:crypto$/, replacement: at("src/api/nodeCrypto.ts") },
      { find: /^@garrison\/runtime$/, replacement: at("src/api/runtime.ts") },
      { find: /^@garrison\/agent\/(contract|client)$/, replacement: at("../agent/src/$1/index.ts") },
      { find: /^@garrison\/plugins\/([a-z-]+)$/, replacement: at("../plugins/src/$1/index.ts") }
    ]
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
    // Keep the CSS and the JS out of the HTML: the controller's CSP has no 'unsafe-inline'.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
    modulePreload: { polyfill: false },
    rollupOptions: {
      treeshake: {
        moduleSideEffects: (id) => !workspaceSources.test(id)
      }
    }
  },
  server: {
    proxy: { "/api": { target: process.env.GARRISON_URL ?? "http://127.0.0.1:8080", changeOrigin: false } }
  }
})
