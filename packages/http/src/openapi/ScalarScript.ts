/**
 * The docs page's script: the Scalar standalone bundle that
 * `@effect/platform` ships (~3.4 MB), served as a static file whose name
 * carries a hash of its content, so browsers keep it for a year and fetch
 * it again only when an upgrade changes it. It is loaded on the first
 * request for the page or the file, never at start-up, and compressed with
 * gzip once (about a quarter of the size).
 */
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { gzip } from "node:zlib"

export interface ScalarScript {
  /** `scalar-<first 16 hex of its SHA-256>.js` */
  readonly fileName: string
  readonly bytes: Uint8Array
  readonly gzipped: Uint8Array
}

/** Long-lived and shared: the name changes whenever the content does. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable"

const gzipAsync = promisify(gzip)

/**
 * The bundle's source. Its module is not in the package's exports, so it is
 * loaded by file URL from the package folder (`@effect/platform` is pinned
 * exactly; the docs tests fetch the script and check its start).
 */
const loadSource: Effect.Effect<string> = Effect.promise(async () => {
  const packageJson = createRequire(import.meta.url).resolve("@effect/platform/package.json")
  const scalarModule = pathToFileURL(NodePath.join(NodePath.dirname(packageJson), "dist", "esm", "internal", "httpApiScalar.js"))
  const loaded = (await import(scalarModule.href)) as { readonly javascript: string }
  return loaded.javascript
})

export const makeScalarScript = (source: string): Effect.Effect<ScalarScript> =>
  Effect.gen(function* () {
    const bytes = new TextEncoder().encode(source)
    const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16)
    // Level 9: done once per process, and a smaller file on every first visit.
    const gzipped = yield* Effect.promise(() => gzipAsync(bytes, { level: 9 }))
    return { fileName: `scalar-${hash}.js`, bytes, gzipped: new Uint8Array(gzipped.buffer, gzipped.byteOffset, gzipped.byteLength) }
  })

export const loadScalarScript: Effect.Effect<ScalarScript> = Effect.flatMap(loadSource, makeScalarScript)

/** Whether the client takes gzip: `Accept-Encoding` names it (or `*`) without `q=0`; an explicit `gzip` entry wins over `*`. */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => {
  if (acceptEncoding === undefined) return false
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((p) => p.trim().toLowerCase())
    const q = parameters.find((p) => p.startsWith("q="))
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)))
  }
  const weight = weights.get("gzip") ?? weights.get("*") ?? 0
  return weight > 0
}
