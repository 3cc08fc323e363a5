/**
 * Policy declared on the endpoint, read by the host: a plugin's own
 * rate-limit scope (and its setting), authentication schemes by name (a
 * request with another scheme's credentials is 401), access combinators, and
 * permissions a role grants on some servers only.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiSchema,
  HttpClient,
  HttpClientRequest,
  type HttpClientResponse
} from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import {
  Access,
  AuthenticationFailed,
  AuthSchemes,
  BadGateway,
  CsrfExempt,
  CurrentPrincipal,
  DataDir,
  planPlugins,
  Plugin,
  RateLimit,
  scheme
} from "@garrison/runtime"
import { ConfigProvider, Duration, Effect, Either, Layer, Option, Schema } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { hostController } from "./fixtures.js"

const PARTNER_KEY = "k-3f9a6c1d8e2b47a5"

const ServerPath = Schema.Struct({ id: Schema.String })

/** A plugin's own error class, answered with the code it declares. */
class PartnerExpired extends Schema.TaggedError<PartnerExpired>()(
  "PartnerExpired",
  { message: Schema.String, details: Schema.optional(Schema.Unknown) },
  HttpApiSchema.annotations({ status: 402 })
) {}

const PartnerApi = HttpApi.make("partner").add(
  HttpApiGroup.make("partner")
    .add(
      HttpApiEndpoint.get("export", "/api/v1/partner/export")
        .addSuccess(Schema.String)
        .annotate(Access, Access.anyAuth)
        .annotate(AuthSchemes, ["partner-key"])
        .annotate(RateLimit, "partner")
    )
    .add(
      HttpApiEndpoint.get("either", "/api/v1/partner/either")
        .addSuccess(Schema.String)
        .annotate(Access, Access.anyAuth)
        .annotate(AuthSchemes, ["session", "partner-key"])
    )
    .add(
      HttpApiEndpoint.get("both", "/api/combo/both")
        .addSuccess(Schema.String)
        .annotate(Access, Access.all(Access.permission("players.view"), Access.permission("players.kick")))
    )
    .add(
      HttpApiEndpoint.get("oneOf", "/api/combo/one-of")
        .addSuccess(Schema.String)
        .annotate(Access, Access.any(Access.permission("bans.manage"), Access.permission("players.ban")))
    )
    .add(
      HttpApiEndpoint.post("restart", "/api/servers/:id/restart-probe")
        .setPath(ServerPath)
        .addSuccess(Schema.String)
        .annotate(Access, Access.permission("server.restart"))
    )
    .add(HttpApiEndpoint.get("status", "/api/servers/:id/status-probe").setPath(ServerPath).addSuccess(Schema.String).annotate(Access, Access.anyAuth))
    .add(HttpApiEndpoint.post("hook", "/api/hooks/signed").addSuccess(Schema.String).annotate(Access, Access.anyAuth).annotate(CsrfExempt, true))
    .add(
      HttpApiEndpoint.get("expired", "/api/v1/partner/expired")
        .addSuccess(Schema.String)
        .addError(PartnerExpired)
        .annotate(Access, Access.none)
    )
    .add(HttpApiEndpoint.get("upstream", "/api/v1/partner/upstream").addSuccess(Schema.String).addError(BadGateway).annotate(Access, Access.none))
)

const PartnerHandlers = HttpApiBuilder.group(PartnerApi, "partner", (h) =>
  h
    .handle("export", () => Effect.map(CurrentPrincipal, (p) => `export for ${p.name}`))
    .handle("either", () => Effect.map(CurrentPrincipal, (p) => `either for ${p.name}`))
    .handle("both", () => Effect.succeed("both"))
    .handle("oneOf", () => Effect.succeed("one of"))
    .handle("restart", ({ path }) => Effect.succeed(`restarting ${path.id}`))
    .handle("status", ({ path }) => Effect.succeed(`status of ${path.id}`))
    .handle("hook", () => Effect.succeed("hooked"))
    .handle("expired", () => Effect.fail(new PartnerExpired({ message: "the partner agreement ended on 2026-10-01", details: { tier: "gold" } })))
    .handle("upstream", () => Effect.fail(new BadGateway({ message: "the payment provider answered 500" })))
)

/** A partner key scheme: `X-Partner-Key`; a wrong key is 401 of its own. */
const PartnerPlugin = Plugin.make({
  id: "partner",
  // The names its routes ask for (in the controller, the plugins that own them declare them).
  permissions: ["players.view", "players.kick", "bans.manage", "players.ban", "server.restart"].map((name) => ({ name, description: name })),
  http: Plugin.http(PartnerApi, PartnerHandlers),
  rateLimits: [{ scope: "partner", limit: 3, window: Duration.minutes(1), description: "partner exports" }],
  errorCodes: [{ tag: "PartnerExpired", code: "partner.expired", status: 402, description: "The partner agreement has ended" }],
  secrets: [{ name: "partner-signing-key", spec: { bytes: 32, what: "the partner proof signing key", ifReplaced: "partners must fetch the new key" } }],
  authentication: [
    scheme({
      name: "partner-key",
      methods: [{ schemes: { partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" } }, requires: () => ["partnerKey"] }],
      authenticator: Effect.succeed({
        carries: (request) => request.headers["x-partner-key"] !== undefined,
        authenticate: (request) =>
          request.headers["x-partner-key"] === PARTNER_KEY
            ? Effect.succeed(Option.some({ kind: "service" as const, id: "p1", name: "partner one", role: "partner", permissions: new Set<string>() }))
            : Effect.fail(new AuthenticationFailed({ status: 401, code: "unauthenticated", message: "unknown partner key" }))
      })
    })
  ]
})

const get = (path: string, headers: Record<string, string> = {}) =>
  HttpClient.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
const post = (path: string, headers: Record<string, string> = {}) =>
  HttpClient.execute(HttpClientRequest.post(path).pipe(HttpClientRequest.setHeaders(headers)))
const json = (response: HttpClientResponse.HttpClientResponse) => Effect.map(response.json, (body) => body as Record<string, unknown>)
const session = (perms: string) => ({ authorization: `Bearer test:alice:${perms}` })
const partner = { "x-partner-key": PARTNER_KEY }

const controller = (settings: Record<string, string> = {}) =>
  hostController({}, { plugins: [PartnerPlugin] }).pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings)))))
  )

describe("authentication schemes named by the endpoint", () => {
  it.scoped("a route takes only its schemes: another scheme's credentials are 401 naming both; its own pass", () =>
    Effect.gen(function* () {
      const wrongScheme = yield* get("/api/v1/partner/export", session("admin"))
      expect(wrongScheme.status).toBe(401)
      expect(yield* json(wrongScheme)).toEqual({
        error: "unauthenticated",
        message: "this endpoint does not accept session credentials; it accepts partner-key",
        details: { sent: ["session"], accepted: ["partner-key"] }
      })
      expect(yield* (yield* get("/api/v1/partner/export", partner)).text).toBe('"export for partner one"')
      const badKey = yield* get("/api/v1/partner/export", { "x-partner-key": "nope" })
      expect(badKey.status).toBe(401)
      expect((yield* json(badKey)).message).toBe("unknown partner key")
      expect((yield* json(yield* get("/api/v1/partner/export"))).message).toContain("sign in first")

      // A route that takes both: either one works, in the order it names them.
      expect(yield* (yield* get("/api/v1/partner/either", session(""))).text).toBe('"either for alice"')
      expect(yield* (yield* get("/api/v1/partner/either", partner)).text).toBe('"either for partner one"')
      // A session route refuses the partner key rather than treating the call as anonymous.
      const onSessionRoute = yield* get("/api/whoami", partner)
      expect(onSessionRoute.status).toBe(401)
      expect((yield* json(onSessionRoute)).message).toBe("this endpoint does not accept partner-key credentials; it accepts session")
    }).pipe(Effect.provide(controller({ RATE_LIMIT_PARTNER: "100/1m" })))
  )
})

describe("a plugin's own rate-limit scope", () => {
  it.scoped("counts the routes that name it, apart from the api scope", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 3; i++) expect((yield* get("/api/v1/partner/export", partner)).status).toBe(200)
      const limited = yield* get("/api/v1/partner/export", partner)
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("60")
      expect((yield* get("/api/v1/partner/either", partner)).status).toBe(200)
    }).pipe(Effect.provide(controller()))
  )

  it.scoped("RATE_LIMIT_<SCOPE> changes its numbers", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 5; i++) expect((yield* get("/api/v1/partner/export", partner)).status).toBe(200)
      expect((yield* get("/api/v1/partner/export", partner)).status).toBe(429)
    }).pipe(Effect.provide(controller({ RATE_LIMIT_PARTNER: "5/1m" })))
  )
})

describe("access combinators", () => {
  it.scoped("all needs every permission, any needs one; a 403 names what is missing", () =>
    Effect.gen(function* () {
      expect((yield* get("/api/combo/both", session("players.view,players.kick"))).status).toBe(200)
      const half = yield* get("/api/combo/both", session("players.view"))
      expect(half.status).toBe(403)
      expect(yield* json(half)).toMatchObject({ message: 'missing permission "players.kick"', details: { permission: "players.kick" } })
      expect((yield* get("/api/combo/one-of", session("players.ban"))).status).toBe(200)
      const none = yield* get("/api/combo/one-of", session("players.view"))
      expect(none.status).toBe(403)
      expect((yield* json(none)).message).toBe('missing one of the permissions "bans.manage", "players.ban"')
    }).pipe(Effect.provide(controller()))
  )
})

describe("permissions scoped to servers", () => {
  it.scoped("a permission granted on server A counts on A only; a caller scoped to A sees nothing of B", () =>
    Effect.gen(function* () {
      const modA = session("server.restart@A,players.view")
      expect(yield* (yield* post("/api/servers/A/restart-probe", modA)).text).toBe('"restarting A"')
      const onB = yield* post("/api/servers/B/restart-probe", modA)
      expect(onB.status).toBe(403)
      expect((yield* json(onB)).message).toBe('your role "test" has no access to server B')
      // Any signed-in caller may read a status, but not of a server outside their scope.
      expect((yield* get("/api/servers/A/status-probe", modA)).status).toBe(200)
      expect((yield* get("/api/servers/B/status-probe", modA)).status).toBe(403)
      // A server permission granted everywhere sees every server; a scoped grant still counts only where it is.
      const mixed = session("server.view,server.restart@A")
      expect((yield* get("/api/servers/B/status-probe", mixed)).status).toBe(200)
      const restartB = yield* post("/api/servers/B/restart-probe", mixed)
      expect(restartB.status).toBe(403)
      expect((yield* json(restartB)).message).toBe('missing permission "server.restart" on server B')
    }).pipe(Effect.provide(controller()))
  )
})

describe("a plugin's error codes and secrets", () => {
  it.scoped("its error class answers its own code; the new table codes (402, 502) answer theirs", () =>
    Effect.gen(function* () {
      const expired = yield* get("/api/v1/partner/expired")
      expect(expired.status).toBe(402)
      expect(yield* json(expired)).toEqual({
        error: "partner.expired",
        message: "the partner agreement ended on 2026-10-01",
        details: { tier: "gold" }
      })
      const upstream = yield* get("/api/v1/partner/upstream")
      expect(upstream.status).toBe(502)
      expect(yield* json(upstream)).toEqual({ error: "bad-gateway", message: "the payment provider answered 500" })
    }).pipe(Effect.provide(controller()))
  )

  it.scoped("its secrets are made on the first start, private to the controller's user", () =>
    Effect.gen(function* () {
      const { dir } = yield* DataDir.pipe(Effect.map((d) => ({ dir: d.resolve("secrets") })))
      const file = NodePath.join(dir, "partner-signing-key.key")
      expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(Buffer.from(Fs.readFileSync(file, "utf8").trim(), "base64url").length).toBe(32)
    }).pipe(Effect.provide(controller()))
  )

  it("a code the table or another plugin answers with another status stops the start", () => {
    const clash = planPlugins([
      Plugin.make({ id: "x", errorCodes: [{ tag: "XConflict", code: "conflict", status: 400, description: "" }] })
    ])
    expect(Either.getLeft(clash).pipe(Option.map((e) => e.message))).toEqual(
      Option.some('plugin "x" declares error code "conflict" with status 400; the built-in catalog answers it with 409')
    )
    const twice = planPlugins([
      Plugin.make({ id: "a", secrets: [{ name: "k", spec: { bytes: 32, what: "k", ifReplaced: "" } }] }),
      Plugin.make({ id: "b", secrets: [{ name: "k", spec: { bytes: 32, what: "k", ifReplaced: "" } }] })
    ])
    expect(Either.getLeft(twice).pipe(Option.map((e) => e.reason))).toEqual(Option.some("duplicate-secret"))
  })
})

describe("CSRF exemption", () => {
  it("is read from the endpoint into the plan", () => {
    const plan = Either.getOrThrow(planPlugins([PartnerPlugin as never]))
    expect(plan.routes.find((r) => r.path === "/api/hooks/signed")?.csrfExempt).toBe(true)
    expect(plan.routes.find((r) => r.path === "/api/combo/both")?.csrfExempt).toBe(false)
    expect(plan.routes.find((r) => r.path === "/api/servers/:id/restart-probe")?.serverParam).toBe("id")
    expect(plan.routes.find((r) => r.path === "/api/v1/partner/export")).toMatchObject({ rateLimit: "partner", schemes: ["partner-key"] })
  })
})
