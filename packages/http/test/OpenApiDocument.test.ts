/**
 * The OpenAPI document of the default plugins, built as the controller
 * builds it (no server needed): every operation has a summary, a
 * description naming what it needs, an exact `security`, an example for
 * its body that its own schema accepts, errors in the one shape, and query
 * numbers and times described as a person reads them. A plugin list with
 * another authentication method, or none, changes `security` accordingly.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { defaultPlugins, HealthPlugin } from "@garrison/plugins"
import {
  Access,
  type AnyPlugin,
  type AuthenticationMethod,
  AuthSchemes,
  BodyExample,
  planPlugins,
  Plugin,
  scheme,
  undocumentedEndpoints
} from "@garrison/runtime"
import { Context, Effect, Either, Layer, Schema } from "effect"
import { docsHostRoutes } from "../src/OpenApiDocs.js"
import { combinedApi } from "../src/openapi/Document.js"

interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly description?: string; readonly schema: Record<string, unknown> }>
  readonly requestBody?: { readonly content: Record<string, { readonly schema: unknown; readonly example?: unknown }> }
  readonly responses: Record<string, { readonly description: string; readonly content?: Record<string, { readonly schema: unknown }> }>
  readonly "x-garrison-access": string
}

interface Document {
  readonly info: { readonly description?: string }
  readonly security?: unknown
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Record<string, unknown>>; readonly securitySchemes: Record<string, unknown> }
}

const documentFor = (plugins: ReadonlyArray<AnyPlugin>): Document => {
  const plan = planPlugins(plugins, docsHostRoutes)
  if (Either.isLeft(plan)) throw new Error(plan.left.message)
  return OpenApi.fromApi(combinedApi(plan.right, "test")) as unknown as Document
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, method, path, operation }))
  )

const document = documentFor(defaultPlugins)
const all = operations(document)
const find = (method: string, path: string) => {
  const operation = document.paths[path]?.[method]
  if (operation === undefined) throw new Error(`no ${method} ${path} in the document`)
  return operation
}

describe("the OpenAPI document", () => {
  it("covers every endpoint of the default plugins", () => {
    expect(all.length).toBeGreaterThan(60)
    // Not stated for the whole document: each operation says what it accepts.
    expect(document.security).toBeUndefined()
  })

  it("gives every operation a summary and a description whose last sentence names what it needs", () => {
    const problems = all.flatMap(({ label, operation }) => {
      const access = operation["x-garrison-access"]
      const last = (operation.description ?? "").split("\n\n").at(-1) ?? ""
      const expected =
        access === "None"
          ? "Public: no sign-in needed."
          : access === "Any auth"
            ? "Needs a signed-in caller; any role may call it."
            : access === "admin"
              ? "Needs the `admin` permission: admins only."
              : // A rule of several permissions names each in turn ("Needs the `a` permission (...) and the `b` permission").
                `Needs the \`${access.split(/ and | or /)[0]}\` permission`
      return [
        ...((operation.summary ?? "").trim() === "" ? [`${label}: no summary`] : []),
        ...(last.startsWith(expected) ? [] : [`${label}: description ends ${JSON.stringify(last)}, not ${JSON.stringify(expected)}`])
      ]
    })
    expect(problems).toEqual([])
    // A permission's own words come along.
    expect(find("post", "/api/bans").description).toContain(
      "Needs the `bans.manage` permission (Manage the global ban database). Admins may call every operation."
    )
    // A plugin's own description stays in front.
    expect(find("post", "/api/servers/{id}/start").description).toMatch(/^409 when already running/)
  })

  it("lists no undocumented endpoint in any default plugin", () => {
    const missing = defaultPlugins.flatMap((plugin) => (plugin.http ? undocumentedEndpoints(plugin.http.api).map((e) => `${plugin.id}: ${e}`) : []))
    expect(missing).toEqual([])
  })

  it("finds an endpoint without a summary", () => {
    const api = HttpApi.make("x").add(
      HttpApiGroup.make("g")
        .add(HttpApiEndpoint.get("named", "/api/named").annotate(OpenApi.Summary, "Named"))
        .add(HttpApiEndpoint.post("unnamed", "/api/unnamed"))
        .add(HttpApiEndpoint.get("blank", "/api/blank").annotate(OpenApi.Summary, "  "))
    )
    expect(undocumentedEndpoints(api)).toEqual(["POST /api/unnamed", "GET /api/blank"])
  })

  it("states exactly which credentials each operation accepts", () => {
    expect(document.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
      cookie: expect.objectContaining({ type: "apiKey", in: "cookie", name: "auth-token" }),
      csrf: expect.objectContaining({ type: "apiKey", in: "header", name: "X-CSRF-Token" }),
      // The prometheus plugin's scrape token, accepted by GET /metrics alone.
      metricsToken: expect.objectContaining({ type: "http", scheme: "bearer" })
    })
    // Bearer first: the accounts plugin lists it first, so curl snippets work without a CSRF header.
    const read = [{ bearer: [] }, { cookie: [] }]
    const write = [{ bearer: [] }, { cookie: [], csrf: [] }]
    for (const { label, method, operation } of all) {
      const access = operation["x-garrison-access"]
      const expected =
        label === "GET /metrics"
          ? [{ metricsToken: [] }]
          : access === "None"
            ? []
            : label === "POST /api/auth/logout" || method === "get"
              ? read
              : write
      expect(operation.security, label).toEqual(expected)
    }
    // Spot checks against the spec's table.
    expect(find("post", "/api/auth/login").security).toEqual([])
    expect(find("post", "/api/setup/admin").security).toEqual([])
    expect(find("get", "/api/health/ping").security).toEqual([])
    expect(find("delete", "/api/bans/{id}").security).toEqual(write)
  })

  it("has an example for every JSON body, which the endpoint's own schema accepts (no unknown field)", () => {
    const withBody = all.filter(({ operation }) => operation.requestBody?.content["application/json"] !== undefined)
    expect(withBody.length).toBeGreaterThan(25)
    expect(withBody.filter(({ operation }) => operation.requestBody?.content["application/json"]?.example === undefined).map((o) => o.label)).toEqual([])

    const rejected: Array<string> = []
    for (const plugin of defaultPlugins) {
      if (plugin.http === undefined) continue
      HttpApi.reflect(plugin.http.api as HttpApi.HttpApi<string, never, never, never>, {
        onGroup: () => {},
        onEndpoint: ({ endpoint }) => {
          const example = Context.getOption(endpoint.annotations, BodyExample)
          if (example._tag === "None" || endpoint.payloadSchema._tag === "None") return
          const decoded = Schema.decodeUnknownEither(endpoint.payloadSchema.value as unknown as Schema.Schema<unknown, unknown>, {
            onExcessProperty: "error"
          })(example.value)
          if (Either.isLeft(decoded)) rejected.push(`${endpoint.method} ${endpoint.path}: ${decoded.left.message}`)
        }
      })
    }
    expect(rejected).toEqual([])
    expect(find("post", "/api/bans").requestBody?.content["application/json"]?.example).toMatchObject({
      platformId: "76561198000000001",
      expiresAt: "2026-03-01T00:00:00Z"
    })
  })

  it("describes query numbers and times as a person reads them", () => {
    const parameters = all.flatMap(({ label, operation }) => (operation.parameters ?? []).map((p) => ({ label, ...p })))
    const encodedSide = parameters.filter((p) => JSON.stringify(p).includes("decoded into a number"))
    expect(encodedSide.map((p) => `${p.label} ${p.name}`)).toEqual([])

    const limit = (find("get", "/api/bans").parameters ?? []).find((p) => p.name === "limit")
    expect(limit).toMatchObject({
      in: "query",
      description: "Items per page (integer, 1 to 500, default 50)",
      schema: { type: "integer", minimum: 1, maximum: 500, default: 50 }
    })
    const offset = (find("get", "/api/servers/{id}/logs").parameters ?? []).find((p) => p.name === "offset")
    expect(offset?.description).toBe("Byte offset in the file to read from (integer, 0 or more, default 0)")

    // Times: a shared schema with the form in words and examples a person would type.
    const from = (find("get", "/api/audit").parameters ?? []).find((p) => p.name === "from")
    expect(from?.schema).toEqual({ $ref: "#/components/schemas/IsoDateOrDateTime" })
    expect(document.components.schemas["IsoDateOrDateTime"]).toMatchObject({
      type: "string",
      description: expect.stringContaining("e.g. 2026-01-31T12:00:00Z"),
      examples: ["2026-01-31", "2026-01-31T12:00:00Z"]
    })
    // An expiry (a ban's, a priority entry's): a date, a date-time or a duration, in words and examples.
    const expiry = JSON.stringify(find("post", "/api/priority-queue").requestBody)
    for (const form of ["midnight UTC", "30m, 12h, 7d or 2w", "30d", "2027-01-31"]) expect(expiry).toContain(form)
  })

  it("documents errors in the one shape the controller sends, with the front door's 401, 403 and 429", () => {
    expect(document.components.schemas["ApiError"]).toMatchObject({ required: ["error", "message"] })
    // The platform's own error schemas are gone: nothing answers `{_tag, ...}`.
    expect(Object.keys(document.components.schemas).filter((name) => /DecodeError|^BadRequest$|^NotFound$|^Conflict$/.test(name))).toEqual([])
    for (const { label, operation } of all) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        expect(response.content?.["application/json"]?.schema, `${label} ${status}`).toEqual({ $ref: "#/components/schemas/ApiError" })
      }
      const statuses = Object.keys(operation.responses)
      expect(statuses, label).toContain("429")
      if (operation["x-garrison-access"] !== "None") expect(statuses, label).toEqual(expect.arrayContaining(["401", "403"]))
    }
    expect(find("post", "/api/bans").responses["409"]?.description).toBe("`error` is `conflict`.")
  })
})

describe("security from the plugins' authentication methods", () => {
  const PartnerApi = HttpApi.make("partner").add(
    HttpApiGroup.make("partner")
      .add(
        HttpApiEndpoint.get("stats", "/api/partner/stats")
          .annotate(Access, Access.permission("partner.read"))
          .annotate(AuthSchemes, ["partner-key"])
          .annotate(OpenApi.Summary, "Partner statistics")
      )
      .add(
        HttpApiEndpoint.get("feed", "/api/partner/feed")
          .annotate(Access, Access.anyAuth)
          .annotate(AuthSchemes, ["session", "partner-key"])
          .annotate(OpenApi.Summary, "Partner feed")
      )
      .add(HttpApiEndpoint.post("note", "/api/notes").annotate(Access, Access.anyAuth).annotate(OpenApi.Summary, "Leave a note"))
  )
  const partnerKey: AuthenticationMethod = {
    schemes: { partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" } },
    requires: () => ["partnerKey"]
  }
  const PartnerPlugin = Plugin.make({
    id: "partner",
    permissions: [{ name: "partner.read", description: "Read partner statistics" }],
    http: { api: PartnerApi, routes: Layer.empty },
    authentication: [
      scheme({ name: "partner-key", methods: [partnerKey], authenticator: Effect.die("not used by the document") })
    ]
  }) as AnyPlugin

  it("adds a plugin's scheme where a route accepts it, and claims nothing where no scheme applies", () => {
    const withPartner = documentFor([HealthPlugin, PartnerPlugin])
    expect(withPartner.components.securitySchemes).toEqual({ partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" } })
    expect(withPartner.paths["/api/partner/stats"]?.get?.security).toEqual([{ partnerKey: [] }])
    expect(withPartner.paths["/api/partner/feed"]?.get?.security).toEqual([{ partnerKey: [] }])
    // Needs a caller, but no loaded plugin provides the session: not documented as public.
    expect(withPartner.paths["/api/notes"]?.post).not.toHaveProperty("security")
    expect(withPartner.paths["/api/health"]?.get?.security).toEqual([])
  })

  it("offers every scheme a route accepts, in its order, each with its methods", () => {
    const both = documentFor([...defaultPlugins, PartnerPlugin])
    expect(both.paths["/api/partner/stats"]?.get?.security).toEqual([{ partnerKey: [] }])
    expect(both.paths["/api/partner/feed"]?.get?.security).toEqual([{ bearer: [] }, { cookie: [] }, { partnerKey: [] }])
    expect(both.paths["/api/notes"]?.post?.security).toEqual([{ bearer: [] }, { cookie: [], csrf: [] }])
  })
})
