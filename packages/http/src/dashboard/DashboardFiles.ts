/**
 * The web dashboard's built folder (`vite build` of `packages/dashboard`:
 * `index.html` and hashed files under `assets/`), read whole into memory
 * once, at start-up. Requests are then answered from that map alone: no
 * path a request names ever reaches the file system, so no spelling of
 * `..`, no escape and no symbolic link planted later can make the
 * controller read anything else.
 *
 * Only regular files are taken, each opened without following a symbolic
 * link (a link in the folder is skipped, never followed); dot files are
 * left out. The folder is small (a few hundred kilobytes); a folder past
 * the bounds below is refused at start rather than held in memory.
 */
import * as Effect from "effect/Effect"
import { errorMessage, StartupError } from "@garrison/runtime"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

/** One file of the folder, as served. */
export interface DashboardFile {
  /** The URL path it answers: `/index.html`, `/assets/index-3fa9c1.js`. */
  readonly urlPath: string
  readonly bytes: Buffer
  readonly contentType: string
  /** Strong validator of the bytes: `"<22 characters of SHA-256, base64url>"`. */
  readonly etag: string
  /** Whether compressing it is worth trying (text, scripts, styles, SVG, fonts that are not WOFF). */
  readonly compressible: boolean
  /** Under `assets/`: its name carries a hash of its content, so it may be kept for a year. */
  readonly immutable: boolean
}

export type Dashboard =
  | { readonly _tag: "Built"; readonly dir: string; readonly index: DashboardFile; readonly files: ReadonlyMap<string, DashboardFile>; readonly totalBytes: number }
  | { readonly _tag: "NotBuilt"; readonly dir: string | undefined }

/** Bounds of what is held in memory: a dashboard is a few hundred kilobytes; this is a wrong folder. */
export const MAX_FILES = 2_000
export const MAX_TOTAL_BYTES = 64 * 1024 * 1024
const MAX_DEPTH = 8

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm"
}

/** Formats that are already compressed (images, WOFF fonts) are not compressed again. */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".webmanifest", ".txt", ".xml", ".svg", ".ico", ".ttf", ".otf", ".wasm"])

export const contentTypeOf = (name: string): string => CONTENT_TYPES[NodePath.extname(name).toLowerCase()] ?? "application/octet-stream"

/**
 * The default folder: `packages/dashboard/dist` beside the http package,
 * found from this module's own location (the nearest folder up whose
 * package.json is `@garrison/http`; in the installable package, whose
 * package.json names its `garrisonDashboard` folder), so it is the same from the sources
 * (tests), the compiled `dist/` and the bundle `dist/garrison.mjs`,
 * whatever the working directory.
 */
export const defaultDashboardDir = (moduleUrl: string = import.meta.url): string | undefined => {
  let dir: string
  try {
    dir = NodePath.dirname(fileURLToPath(moduleUrl))
  } catch {
    return undefined
  }
  for (let up = 0; up < 6; up++) {
    const manifest = NodePath.join(dir, "package.json")
    try {
      const parsed: unknown = JSON.parse(Fs.readFileSync(manifest, "utf8"))
      if (typeof parsed === "object" && parsed !== null) {
        if ((parsed as { name?: unknown }).name === "@garrison/http") return NodePath.join(dir, "..", "dashboard", "dist")
        // The installable package (`npm run pack`) carries the built dashboard inside itself.
        const packaged = (parsed as { garrisonDashboard?: unknown }).garrisonDashboard
        if (typeof packaged === "string" && !NodePath.isAbsolute(packaged) && !packaged.split(/[\\/]/).includes("..")) return NodePath.join(dir, packaged)
      }
    } catch {
      // No manifest here (or not readable): look further up.
    }
    const parent = NodePath.dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
  return undefined
}

const etagOf = (bytes: Buffer) => `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`

class TooLarge {
  constructor(readonly message: string) {}
}

/** A regular file's bytes, opened without following a symbolic link; `undefined` for anything else. */
const readRegularFile = (path: string): Buffer | undefined => {
  let fd: number
  try {
    fd = Fs.openSync(path, Fs.constants.O_RDONLY | Fs.constants.O_NOFOLLOW)
  } catch {
    return undefined
  }
  try {
    if (!Fs.fstatSync(fd).isFile()) return undefined
    return Fs.readFileSync(fd)
  } finally {
    Fs.closeSync(fd)
  }
}

/** Every regular file under `root` (no dot files, no links followed), keyed by URL path. */
const readFolder = (root: string): Map<string, DashboardFile> => {
  const files = new Map<string, DashboardFile>()
  let total = 0
  const walk = (dir: string, urlDir: string, depth: number) => {
    if (depth > MAX_DEPTH) return
    const entries = Fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue
      const path = NodePath.join(dir, entry.name)
      const urlPath = `${urlDir}/${entry.name}`
      if (entry.isDirectory()) {
        walk(path, urlPath, depth + 1)
        continue
      }
      if (!entry.isFile()) continue
      const bytes = readRegularFile(path)
      if (bytes === undefined) continue
      total += bytes.length
      if (files.size >= MAX_FILES) throw new TooLarge(`it holds more than ${MAX_FILES} files`)
      if (total > MAX_TOTAL_BYTES) throw new TooLarge(`its files take more than ${MAX_TOTAL_BYTES / 1024 / 1024} MiB`)
      const extension = NodePath.extname(entry.name).toLowerCase()
      files.set(urlPath, {
        urlPath,
        bytes,
        contentType: contentTypeOf(entry.name),
        etag: etagOf(bytes),
        compressible: COMPRESSIBLE.has(extension),
        immutable: urlPath.startsWith("/assets/")
      })
    }
  }
  walk(root, "", 0)
  return files
}

/**
 * The dashboard in `dir` (`DASHBOARD_DIR`), or the default folder when it
 * is `undefined`. A default folder that has not been built is `NotBuilt`
 * (the controller then answers `/` with a page saying to run `npm run
 * build`); a `DASHBOARD_DIR` without an `index.html`, or a folder past the
 * bounds, stops the start with one line.
 */
export const loadDashboard = (dir: string | undefined): Effect.Effect<Dashboard, StartupError> =>
  Effect.suspend(() => {
    const explicit = dir !== undefined
    const root = dir ?? defaultDashboardDir()
    if (root === undefined) return Effect.succeed<Dashboard>({ _tag: "NotBuilt", dir: undefined })
    const refuse = (why: string) =>
      Effect.fail(new StartupError({ reason: "config", message: `DASHBOARD_DIR ${root}: ${why}` }))
    let isFolder = false
    try {
      isFolder = Fs.statSync(root).isDirectory()
    } catch {
      isFolder = false
    }
    if (!isFolder) {
      return explicit
        ? refuse("no such folder (build the dashboard with `npm run build`, or unset DASHBOARD_DIR)")
        : Effect.succeed<Dashboard>({ _tag: "NotBuilt", dir: root })
    }
    let files: Map<string, DashboardFile>
    try {
      files = readFolder(root)
    } catch (error) {
      if (error instanceof TooLarge) return refuse(`too large to serve from memory: ${error.message}`)
      return refuse(`cannot be read: ${errorMessage(error)}`)
    }
    const index = files.get("/index.html")
    if (index === undefined) {
      return explicit
        ? refuse("has no index.html (build the dashboard with `npm run build`, or unset DASHBOARD_DIR)")
        : Effect.succeed<Dashboard>({ _tag: "NotBuilt", dir: root })
    }
    let totalBytes = 0
    for (const file of files.values()) totalBytes += file.bytes.length
    return Effect.succeed<Dashboard>({ _tag: "Built", dir: root, index, files, totalBytes })
  })
