/**
 * Answers every request outside `/api` that no route claims, from the
 * dashboard held in memory (`DashboardFiles`), in plain Node like the gate
 * (no fiber, no router):
 *
 * - GET and HEAD only; any other method is 405 with `Allow: GET, HEAD`.
 * - A path with a file extension is a file: answered with its type, an
 *   ETag (304 on `If-None-Match`), and gzip or brotli when the client takes
 *   it; `/assets/*` (hashed names) are kept for a year (`immutable`),
 *   others revalidated (`no-cache`). A file the folder lacks is a 404 in the
 *   one error shape.
 * - `/` and every other path (a client route of the single-page app) is
 *   `index.html`, revalidated on every load, under a strict
 *   Content-Security-Policy: no inline script, nothing from another origin.
 * - Before the dashboard is built, those paths answer a short page saying
 *   to run `npm run build`.
 *
 * Each file is compressed once, on its first request that asks for that
 * encoding, and kept (the folder is small).
 */
import type { ErrorCode } from "@garrison/runtime"
import { errorStatus } from "@garrison/runtime"
import type { IncomingMessage, ServerResponse } from "node:http"
import { promisify } from "node:util"
import { brotliCompress, constants as zlib, gzip } from "node:zlib"
import { gateAnswerHeaders } from "../SecurityHeaders.js"
import type { Dashboard, DashboardFile } from "./DashboardFiles.js"

/** The policy of every dashboard page: scripts, styles and fonts from this origin only, none inline. */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

export const IMMUTABLE = "public, max-age=31536000, immutable"
export const REVALIDATE = "no-cache"

/** Answers a request the gate handed over; `path` is the canonical path (no query). */
export type StaticHandler = (request: IncomingMessage, response: ServerResponse, path: string, requestId: string) => void

type Encoding = "br" | "gzip"

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** Smaller than this, compression does not pay for its headers and CPU. */
const MIN_COMPRESS_BYTES = 512

/** Whether the path is `/api` or below it, in any case (the routers ignore case): those never reach the dashboard. */
export const isApiPath = (path: string): boolean =>
  path.length >= 4 &&
  (path.charCodeAt(1) | 0x20) === 0x61 &&
  (path.charCodeAt(2) | 0x20) === 0x70 &&
  (path.charCodeAt(3) | 0x20) === 0x69 &&
  (path.length === 4 || path.charCodeAt(4) === 0x2f) &&
  path.charCodeAt(0) === 0x2f

/** The encodings the client takes, by `Accept-Encoding` (q=0 refuses; an explicit entry wins over `*`). */
export const acceptedEncodings = (header: string | undefined): { readonly br: boolean; readonly gzip: boolean } => {
  if (header === undefined || header === "") return { br: false, gzip: false }
  const weights = new Map<string, number>()
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((p) => p.trim().toLowerCase())
    const q = parameters.find((p) => p.startsWith("q="))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const takes = (name: string) => (weights.get(name) ?? weights.get("*") ?? 0) > 0
  return { br: takes("br"), gzip: takes("gzip") }
}

/** The tag `If-None-Match` names among the file's (weak comparison, as for GET; `*` is the file's own), if any. */
const matchingTag = (header: string | undefined, tags: ReadonlyArray<string>): string | undefined => {
  if (header === undefined) return undefined
  if (header.trim() === "*") return tags[0]
  for (const raw of header.split(",")) {
    const tag = raw.trim().replace(/^W\//, "")
    if (tags.includes(tag)) return tag
  }
  return undefined
}

/** The tag of one encoding of a file: the file's, with the encoding inside the quotes. */
const taggedFor = (etag: string, encoding: Encoding | undefined) => (encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`)

const NOT_BUILT_PAGE = Buffer.from(
  [
    "<!doctype html>",
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Garrison</title></head>',
    "<body>",
    "<h1>Garrison</h1>",
    "<p>The web dashboard has not been built. Run <code>npm run build</code> (or <code>npm start</code>, which builds), then reload this page.</p>",
    '<p>The API is up: <a href="/api/docs">/api/docs</a>.</p>',
    "</body>",
    "</html>",
    ""
  ].join("\n"),
  "utf8"
)

/** Each file's compressed forms, made once on first use and kept; `null`: not smaller, send it as it is. */
class Encoded {
  /** Finished, so an answer already compressed does not wait a turn of the event loop. */
  private readonly ready = new Map<string, Buffer | null>()
  private readonly pending = new Map<string, Promise<Buffer | null>>()

  now(file: DashboardFile, encoding: Encoding): Buffer | null | undefined {
    return this.ready.get(`${encoding}:${file.urlPath}`)
  }

  later(file: DashboardFile, encoding: Encoding): Promise<Buffer | null> {
    const key = `${encoding}:${file.urlPath}`
    let found = this.pending.get(key)
    if (found === undefined) {
      found = compress(file.bytes, encoding).then(
        (compressed) => (compressed.length < file.bytes.length * 0.95 ? compressed : null),
        () => null
      )
      found = found.then((made) => {
        this.ready.set(key, made)
        this.pending.delete(key)
        return made
      })
      this.pending.set(key, found)
    }
    return found
  }
}

/**
 * Brotli at quality 9 and gzip at level 9: about 40 ms each for 550 KB of
 * script, paid by the first request for that encoding (quality 11 saves
 * another 9% but takes 15 times as long, a wait someone would notice).
 */
const compress = (bytes: Buffer, encoding: Encoding): Promise<Buffer> =>
  encoding === "br"
    ? brotliAsync(bytes, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT }
      })
    : gzipAsync(bytes, { level: 9 })

export const makeStaticHandler = (dashboard: Dashboard): StaticHandler => {
  const encoded = new Encoded()

  const baseHeaders = (requestId: string): Record<string, string | number> => ({
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy": DASHBOARD_CSP,
    "x-frame-options": "DENY",
    "x-request-id": requestId
  })

  const sendFile = (request: IncomingMessage, response: ServerResponse, file: DashboardFile, requestId: string) => {
    const headers = baseHeaders(requestId)
    headers["cache-control"] = file.immutable ? IMMUTABLE : REVALIDATE
    if (file.compressible) headers["vary"] = "accept-encoding"
    // A copy the client holds (any of the file's encodings) is still good: nothing to compress or send.
    const held = matchingTag(header(request, "if-none-match"), [file.etag, taggedFor(file.etag, "br"), taggedFor(file.etag, "gzip")])
    if (held !== undefined) {
      headers["etag"] = held
      response.writeHead(304, headers)
      response.end()
      return
    }
    const write = (encoding: Encoding | undefined, body: Buffer) => {
      if (response.destroyed || response.headersSent) return
      headers["etag"] = taggedFor(file.etag, encoding)
      headers["content-type"] = file.contentType
      headers["content-length"] = body.length
      if (encoding !== undefined) headers["content-encoding"] = encoding
      response.writeHead(200, headers)
      // Node sends no body for HEAD, only the headers GET would have.
      response.end(body)
    }
    if (!file.compressible || file.bytes.length < MIN_COMPRESS_BYTES) return write(undefined, file.bytes)
    const accepted = acceptedEncodings(header(request, "accept-encoding"))
    const encodings: ReadonlyArray<Encoding> = accepted.br ? (accepted.gzip ? ["br", "gzip"] : ["br"]) : accepted.gzip ? ["gzip"] : []
    // The first accepted encoding that makes the file smaller (brotli before gzip).
    const pick = (at: number): void => {
      const encoding = encodings[at]
      if (encoding === undefined) return write(undefined, file.bytes)
      const ready = encoded.now(file, encoding)
      if (ready !== undefined) return ready === null ? pick(at + 1) : write(encoding, ready)
      void encoded.later(file, encoding).then((made) => (made === null ? pick(at + 1) : write(encoding, made)))
    }
    pick(0)
  }

  const sendNotBuilt = (response: ServerResponse, requestId: string) => {
    const headers = baseHeaders(requestId)
    headers["cache-control"] = "no-store"
    headers["content-type"] = "text/html; charset=utf-8"
    headers["content-length"] = NOT_BUILT_PAGE.length
    response.writeHead(200, headers)
    response.end(NOT_BUILT_PAGE)
  }

  return (request, response, path, requestId) => {
    const method = request.method ?? "GET"
    if (method !== "GET" && method !== "HEAD") {
      return writeError(response, requestId, "method-not-allowed", `${method} is not allowed on ${shown(path)}; it takes GET, HEAD`, {
        allow: "GET, HEAD"
      })
    }
    const name = decoded(path)
    if (hasExtension(name)) {
      const file = dashboard._tag === "Built" && name !== undefined ? dashboard.files.get(name) : undefined
      if (file === undefined) return writeError(response, requestId, "not-found", `no file ${shown(path)}`)
      return sendFile(request, response, file, requestId)
    }
    if (dashboard._tag === "NotBuilt") return sendNotBuilt(response, requestId)
    return sendFile(request, response, dashboard.index, requestId)
  }
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/**
 * The path as file names spell it. The gate's canonical form keeps escapes
 * of reserved characters and refuses dot segments, escaped slashes,
 * backslashes and control characters; whatever this decodes to is only
 * ever a key into the map of files held in memory.
 */
const decoded = (path: string): string | undefined => {
  if (!path.includes("%")) return path
  try {
    return decodeURIComponent(path)
  } catch {
    return undefined
  }
}

/** A file's path: its last segment has a dot (`/assets/x.js`, `/.env`; not `/servers/12`). */
const hasExtension = (path: string | undefined): boolean => {
  if (path === undefined) return true
  const last = path.slice(path.lastIndexOf("/") + 1)
  return last.includes(".")
}

const writeError = (response: ServerResponse, requestId: string, code: ErrorCode, message: string, extra?: Record<string, string>) => {
  const json = JSON.stringify({ error: code, message })
  const headers = gateAnswerHeaders(requestId, Buffer.byteLength(json))
  if (extra !== undefined) Object.assign(headers, extra)
  response.writeHead(errorStatus[code], headers)
  response.end(json)
}

/** A path as an error message quotes it: at most 200 characters. */
const shown = (path: string) => (path.length <= 200 ? path : `${path.slice(0, 200)}… (${path.length} characters)`)
