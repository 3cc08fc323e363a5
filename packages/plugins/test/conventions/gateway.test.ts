/**
 * The servers gateway is the one way to a server: no plugin but `servers`
 * reaches the entry store (`ServerEntries`) or the `Supervisor`, no domain
 * service runs effects on the default runtime, and no service fails with
 * an HTTP refusal (each plugin's `errors.ts` names its own, its routes map
 * them once). Read off the
 * sources, so a new plugin that copies an old habit fails here, naming
 * the file and line.
 */
import { describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { defaultPlugins } from "../../src/index.js"

const SRC = fileURLToPath(new URL("../../src", import.meta.url))

/** Every `.ts` source of the plugins, as `plugin/relative/path.ts`. */
const sources = (dir = SRC): ReadonlyArray<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = NodePath.join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [NodePath.relative(SRC, path)] : []
  })

/** `file:line: text` for each line of the sources matching `pattern` (comments skipped), outside `except`. */
const findings = (pattern: RegExp, except: (file: string) => boolean = () => false) =>
  sources()
    .filter((file) => !except(file))
    .flatMap((file) =>
      Fs.readFileSync(NodePath.join(SRC, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []))
    )

/**
 * Route files, where a plugin's errors become HTTP errors: a `routes.ts`, a
 * `routes/` folder, a plugin's `http/` folder (request and response helpers
 * of its routes).
 */
const isRouteFile = (file: string) => {
  const parts = file.split(NodePath.sep)
  return parts.at(-1) === "routes.ts" || parts.slice(1, -1).some((folder) => folder === "routes" || folder === "http")
}

/**
 * Request-edge helpers outside a route folder, each imported by routes only,
 * that build HTTP errors on purpose (named, so a new one is a choice, not a
 * habit).
 */
const REQUEST_EDGE: Readonly<Record<string, string>> = {
  [NodePath.join("servers", "internal", "httpErrors.ts")]: "the servers routes' mapper: InstallDirInUse, InstallDirReserved and PortsInUse as the errors the routes fail with",
  [NodePath.join("servers", "internal", "entryInput.ts")]: "a create or update body as an entry; `invalidToBadRequest` is the routes' 400 for InvalidServerEntry",
  [NodePath.join("servers", "internal", "hostFields.ts")]: "the request's check that only admin sets host-level fields (403 naming them), run by the routes before the service"
}

describe("the servers gateway", () => {
  it("no plugin but servers uses ServerEntries or the Supervisor", () => {
    expect(findings(/\b(ServerEntries|Supervisor|SupervisorShape|ServerEntriesShape)\b/, (file) => file.startsWith(`servers${NodePath.sep}`))).toEqual([])
  })

  it("no plugin runs effects on the default runtime (a callback runs with the runtime captured where it was made)", () => {
    expect(findings(/\bEffect\.run(Sync|Fork|Promise|Callback)\b/)).toEqual([])
  })

  it("domain services fail with tagged domain errors, never the runtime's HTTP refusals (routes map them once)", () => {
    expect(findings(/\b(Refusal\.of\(|new Refusal\(|\bRefusal\b)/)).toEqual([])
  })

  it("only routes build the runtime's HTTP errors or answer a ConfinedFileError (services fail with their plugin's errors and ConfinedFileError as it is)", () => {
    expect(Object.keys(REQUEST_EDGE).filter((file) => !Fs.existsSync(NodePath.join(SRC, file)))).toEqual([])
    expect(
      findings(
        /\bnew (Conflict|NotFound|BadRequest|Forbidden|Unavailable|Unauthorized|PreconditionFailed|PaymentRequired|BadGateway|GatewayTimeout)\(|\bconfinedFileHttpError\(/,
        (file) => isRouteFile(file) || file in REQUEST_EDGE
      )
    ).toEqual([])
  })

  it("a plugin that imports another lists it in dependsOn (so it is loaded and built first), or shares an optional extension point with it", () => {
    const missing = defaultPlugins.flatMap((plugin) => {
      const imported = new Set(
        findings(/from "(\.\.\/)+[a-z]+\/index\.js"/, (file) => !file.startsWith(`${plugin.id}${NodePath.sep}`)).map(
          (line) => /from "(?:\.\.\/)+([a-z]+)\/index\.js"/.exec(line)![1]!
        )
      )
      imported.delete(plugin.id)
      // An optional extension point joins two plugins without a dependency (the `uses` seam): the one that uses it
      // imports the provider's tag, or the provider imports the tag of the plugin that uses it.
      const byId = new Map(defaultPlugins.map((p) => [p.id, p]))
      const seam = (id: string) => {
        const other = byId.get(id)
        if (other === undefined) return false
        const keys = (services: ReadonlyArray<{ readonly key: string }>) => new Set(services.map((service) => service.key))
        const provided = keys(other.provides)
        const usedThere = keys(other.uses)
        return plugin.uses.some((service) => provided.has(service.key)) || plugin.provides.some((service) => usedThere.has(service.key))
      }
      return [...imported].filter((id) => !plugin.dependsOn.includes(id) && !seam(id)).map((id) => `${plugin.id} imports ${id}`)
    })
    expect(missing).toEqual([])
  })
})

