/**
 * `npm start`'s entry: runs the bundled controller (`garrison.mjs`, built by
 * scripts/bundle.mjs), which loads several times faster than ~800 separate
 * modules, unless PLUGINS names plugins from outside the bundle.
 *
 * Those plugins import `@garrison/runtime`, `@garrison/plugins` and `effect`
 * from node_modules; next to the bundle they would meet a second copy of
 * each, and a second copy of an event class or service is a different one
 * (an `instanceof` or a reference check fails silently). So with PLUGINS set
 * the unbundled controller runs, and everything shares one copy.
 */
const external = (process.env["PLUGINS"] ?? "").trim() !== ""
await import(new URL(external ? "./main.js" : "./garrison.mjs", import.meta.url).href)

export {}
