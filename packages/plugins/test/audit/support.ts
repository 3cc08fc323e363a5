/**
 * An in-process controller for the audit tests: real HTTP on a loopback
 * port (`Controller.layerTest`), a temporary data directory, a header
 * authenticator (`Authorization: Bearer test:<user>:<perm,perm>`, copied
 * from the host's fixtures) and a small probe plugin with mutating routes.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import { Access, Conflict, GarrisonConfig, Plugin } from "@garrison/runtime"
import { Duration, Effect, Layer, Logger, LogLevel, Schema } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { AuditLog, AuditPlugin } from "../../src/audit/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

const ProbeApi = HttpApi.make("probe").add(
  HttpApiGroup.make("probe")
    .add(
      HttpApiEndpoint.post("poke", "/api/probe/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .addSuccess(Schema.Struct({ poked: Schema.String }))
        .addError(Conflict)
        .annotate(Access, Access.permission("probe.use"))
    )
)

/** `POST /api/probe/:id` answers 200, or 409 when the id is `busy`. */
const ProbePlugin = Plugin.make({
  id: "probe",
  permissions: [{ name: "probe.use", description: "Poke the probe" }],
  http: Plugin.http(
    ProbeApi,
    HttpApiBuilder.group(ProbeApi, "probe", (h) =>
      h.handle("poke", ({ path }) =>
        path.id === "busy" ? Effect.fail(new Conflict({ message: "busy" })) : Effect.succeed({ poked: path.id })
      )
    )
  )
})

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

export const tempDataDir = (): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-audit-"))
  created.push(dir)
  return dir
}

/** A fresh controller (own data directory) with the audit plugin. */
export const auditController = () => {
  const controller = Controller.layerTest([AuditPlugin, HeaderAuthPlugin, ProbePlugin]).pipe(
    // Tests move the clock by years; scheduled database backups would fire on every step.
    Layer.provide(GarrisonConfig.layerWith({ dataDir: tempDataDir(), trustProxyHops: 1, backupInterval: Duration.days(365_000) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  // The host takes a dynamic plugin list, so its type cannot say what the plugins provide.
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | AuditLog, Layer.Layer.Error<typeof controller>>
}

export interface Reply {
  readonly status: number
  readonly body: unknown
}

/** `as` is `"<user>:<perm,perm>"`; `ip` goes out as `X-Forwarded-For`. */
export const call = (
  method: HttpMethod,
  path: string,
  options: { readonly as?: string; readonly json?: unknown; readonly ip?: string } = {}
) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.ip !== undefined) request = HttpClientRequest.setHeader(request, "x-forwarded-for", options.ip)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, body: text.length === 0 ? undefined : (JSON.parse(text) as unknown) } satisfies Reply
  }).pipe(Effect.scoped)

export const ADMIN = "root:admin"
