/**
 * The docs page: a few hundred bytes of HTML that load Scalar from this
 * controller (a hashed static file, see ScalarScript) and point it at the
 * OpenAPI document. No inline script at all, so the policy allows scripts
 * from this origin only.
 */

export interface DocsPage {
  /** The page, UTF-8 encoded once. */
  readonly html: Uint8Array
  readonly contentSecurityPolicy: string
}

/**
 * Scalar's settings, read from the `data-configuration` attribute:
 * `withDefaultFonts: false`, or it loads its fonts from a CDN;
 * `showToolbar: "never"`, or on localhost it offers to upload the document
 * to Scalar's registry ("Share").
 */
const scalarConfiguration = JSON.stringify({ withDefaultFonts: false, showToolbar: "never" })

/**
 * The policy: scripts only from this origin ('self': the Scalar file), plus
 * compiling WebAssembly ('wasm-unsafe-eval': Scalar hashes the document
 * with xxhash-wasm and shows nothing without it; JavaScript eval stays
 * refused), styles inline (Scalar injects `<style>` elements at run time,
 * so they cannot be hashed in advance), images from data: URIs (Scalar's
 * icons), requests (the document, "Try it") only to this origin, nothing
 * else loaded, no framing, no `<base>`, no form posts.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

export const docsPage = (options: { readonly title: string; readonly documentPath: string; readonly scriptPath: string }): DocsPage => {
  // `type="application/json"`: a data block, never run, so the policy needs no hash for it; Scalar reads its attributes.
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${escapeHtml(options.documentPath)}" data-configuration="${escapeHtml(scalarConfiguration)}"></script>
    <script src="${escapeHtml(options.scriptPath)}"></script>
  </body>
</html>
`
  return { html: new TextEncoder().encode(html), contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)
