import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Schema } from "effect"
import { AuditTrail } from "../src/access/AuditTrail.js"
import { Access, type AccessRule } from "../src/access/Access.js"
import { ConstantResponse } from "../src/http/ConstantResponse.js"
import { AuthSchemes, RateLimit } from "../src/http/RoutePolicy.js"
import * as Plugin from "../src/kernel/Plugin.js"
import { planPlugins } from "../src/kernel/PluginPlan.js"

const apiWith = (id: string, method: "GET" | "POST", path: `/${string}`, access?: AccessRule) => {
  const endpoint = HttpApiEndpoint.make(method)("ep", path).addSuccess(Schema.String)
  return HttpApi.make(id).add(
    HttpApiGroup.make(`${id}-group`).add(access ? endpoint.annotate(Access, access) : endpoint)
  )
}

/** A plugin whose routes layer is never built: planning only reads the API. */
const plugin = (
  id: string,
  options: {
    dependsOn?: Array<string>
    permissions?: Array<string>
    route?: { method: "GET" | "POST"; path: `/${string}`; access?: AccessRule }
  } = {}
) =>
  Plugin.make({
    id,
    dependsOn: options.dependsOn,
    permissions: (options.permissions ?? []).map((name) => ({ name, description: name })),
    http: options.route
      ? {
          api: apiWith(id, options.route.method, options.route.path, options.route.access),
          routes: undefined as never
        }
      : undefined
  })

const failure = (result: ReturnType<typeof planPlugins>) => {
  if (Either.isRight(result)) throw new Error("expected the plan to fail")
  return result.left
}

describe("planPlugins", () => {
  it("orders plugins after their dependencies and collects permissions and routes", () => {
    const result = planPlugins([
      plugin("b", { dependsOn: ["a"], permissions: ["b.use"], route: { method: "GET", path: "/api/b", access: Access.permission("b.use") } }),
      plugin("a", { route: { method: "GET", path: "/api/a/:id", access: Access.anyAuth } })
    ])
    expect(Either.isRight(result)).toBe(true)
    if (Either.isLeft(result)) return
    expect(result.right.ordered.map((p) => p.id)).toEqual(["a", "b"])
    expect(result.right.permissions.find((p) => p.name === "b.use")?.owner).toBe("b")
    // The kernel declares admin alone; every other name is a plugin's.
    expect(result.right.permissions.map((p) => `${p.name}:${p.owner}`)).toEqual(["admin:built-in", "b.use:b"])
    expect(result.right.routes.map((r) => `${r.method} ${r.path} ${r.owner}`)).toEqual([
      "GET /api/a/:id a",
      "GET /api/b b"
    ])
  })

  it("builds the provider of an extension point before every plugin that requires it, whatever the list's order", () => {
    const Slot = Context.GenericTag<{ readonly n: number }>("test/Slot")
    const provider = Plugin.make({ id: "provider", provides: [Slot] })
    const consumers = [Plugin.make({ id: "first", requires: [Slot] }), Plugin.make({ id: "second", requires: [Slot], dependsOn: [provider] })]
    for (const list of [[...consumers, provider], [consumers[0]!, provider, consumers[1]!], [provider, ...consumers]]) {
      const ordered = Either.getOrThrow(planPlugins(list)).ordered.map((p) => p.id)
      expect(ordered.indexOf("provider")).toBeLessThan(ordered.indexOf("first"))
      expect(ordered.indexOf("provider")).toBeLessThan(ordered.indexOf("second"))
    }
    // A plugin value in dependsOn is its id.
    expect(consumers[1]!.dependsOn).toEqual(["provider"])
  })

  it("builds the provider of an extension point a plugin uses (optionally) first when it is loaded; none loaded is no error", () => {
    const Slot = Context.GenericTag<{ readonly n: number }>("test/OptionalSlot")
    const provider = Plugin.make({ id: "provider", provides: [Slot] })
    const user = Plugin.make({ id: "user", uses: [Slot] })
    for (const list of [[user, provider], [provider, user]]) {
      expect(Either.getOrThrow(planPlugins(list)).ordered.map((p) => p.id)).toEqual(["provider", "user"])
    }
    expect(Either.getOrThrow(planPlugins([user])).ordered.map((p) => p.id)).toEqual(["user"])
  })

  it("refuses to start a plugin that records audit rows without a plugin that stores them, naming both", () => {
    const error = failure(planPlugins([Plugin.make({ id: "bans", requires: [AuditTrail] })]))
    expect(error.reason).toBe("missing-dependency")
    expect(error.message).toBe(
      'plugin "bans" requires @garrison/runtime/AuditTrail, which no loaded plugin provides: load the "audit" plugin (audit rows would be lost)'
    )
    // A plugin providing what it requires itself does not count as its provider.
    expect(failure(planPlugins([Plugin.make({ id: "self", requires: [AuditTrail], provides: [AuditTrail] })])).reason).toBe("missing-dependency")
  })

  it("refuses a duplicate plugin id", () => {
    const error = failure(planPlugins([plugin("x"), plugin("x")]))
    expect(error.reason).toBe("duplicate-plugin")
    expect(error.message).toContain('"x"')
  })

  it("refuses a missing dependency, naming both plugins", () => {
    const error = failure(planPlugins([plugin("bans", { dependsOn: ["servers"] })]))
    expect(error.reason).toBe("missing-dependency")
    expect(error.message).toContain('"bans"')
    expect(error.message).toContain('"servers"')
  })

  it("refuses a dependency cycle", () => {
    const error = failure(planPlugins([plugin("a", { dependsOn: ["b"] }), plugin("b", { dependsOn: ["a"] })]))
    expect(error.reason).toBe("dependency-cycle")
    expect(error.message).toMatch(/a -> b -> a|b -> a -> b/)
  })

  it("refuses a permission declared twice, naming both sides", () => {
    const error = failure(planPlugins([plugin("one", { permissions: ["x.do"] }), plugin("two", { permissions: ["x.do"] })]))
    expect(error.reason).toBe("duplicate-permission")
    expect(error.message).toContain('"two"')
    expect(error.message).toContain('"one"')
  })

  it("refuses a plugin redeclaring a built-in permission", () => {
    const error = failure(planPlugins([plugin("rogue", { permissions: ["admin"] })]))
    expect(error.reason).toBe("duplicate-permission")
    expect(error.message).toContain("built-in")
  })

  it("refuses two plugins claiming the same method and path, whatever the parameter names", () => {
    const error = failure(
      planPlugins([
        plugin("first", { route: { method: "GET", path: "/api/servers/:id", access: Access.anyAuth } }),
        plugin("second", { route: { method: "GET", path: "/api/servers/:serverId", access: Access.anyAuth } })
      ])
    )
    expect(error.reason).toBe("route-conflict")
    expect(error.message).toContain('"first"')
    expect(error.message).toContain('"second"')
  })

  it("lets two plugins share a path with different methods", () => {
    const result = planPlugins([
      plugin("reader", { route: { method: "GET", path: "/api/x", access: Access.anyAuth } }),
      plugin("writer", { route: { method: "POST", path: "/api/x", access: Access.anyAuth } })
    ])
    expect(Either.isRight(result)).toBe(true)
  })

  it("refuses a plugin claiming a host route", () => {
    const error = failure(
      planPlugins([plugin("docs", { route: { method: "GET", path: "/api/openapi.json", access: Access.none } })], [
        { method: "GET", path: "/api/openapi.json", access: Access.none }
      ])
    )
    expect(error.reason).toBe("route-conflict")
    expect(error.message).toContain("the host")
  })

  it("refuses an endpoint without an Access annotation", () => {
    const error = failure(planPlugins([plugin("careless", { route: { method: "GET", path: "/api/open" } })]))
    expect(error.reason).toBe("missing-access")
    expect(error.message).toContain("/api/open")
  })

  it("refuses a constant response on an endpoint that requires authentication", () => {
    const api = HttpApi.make("c").add(
      HttpApiGroup.make("c").add(
        HttpApiEndpoint.get("ep", "/api/c")
          .addSuccess(Schema.String)
          .annotate(Access, Access.anyAuth)
          .annotate(ConstantResponse, { status: 200, body: "x" })
      )
    )
    const error = failure(planPlugins([Plugin.make({ id: "const", http: { api, routes: undefined as never } })]))
    expect(error.message).toContain("ConstantResponse")
  })

  it("pre-encodes a constant response for the front door", () => {
    const api = HttpApi.make("c").add(
      HttpApiGroup.make("c").add(
        HttpApiEndpoint.get("ep", "/api/c")
          .addSuccess(Schema.String)
          .annotate(Access, Access.none)
          .annotate(ConstantResponse, { status: 200, body: { status: "ok" } })
      )
    )
    const result = planPlugins([Plugin.make({ id: "const", http: { api, routes: undefined as never } })])
    expect(Either.getOrThrow(result).routes[0]?.constant).toEqual({ status: 200, json: '{"status":"ok"}' })
  })

  it("refuses an endpoint requiring a permission nobody declares", () => {
    const error = failure(
      planPlugins([plugin("typo", { route: { method: "GET", path: "/api/t", access: Access.permission("sever.start") } })])
    )
    expect(error.reason).toBe("unknown-permission")
    expect(error.message).toContain("sever.start")
  })
})

describe("planPlugins: route policy", () => {
  const withPolicy = (
    id: string,
    policy: { readonly rateLimit?: string; readonly schemes?: ReadonlyArray<string> },
    extra: Partial<Parameters<typeof Plugin.make>[0]> = {}
  ) => {
    let endpoint = HttpApiEndpoint.get("ep", `/api/${id}`).addSuccess(Schema.String).annotate(Access, Access.anyAuth)
    if (policy.rateLimit !== undefined) endpoint = endpoint.annotate(RateLimit, policy.rateLimit)
    if (policy.schemes !== undefined) endpoint = endpoint.annotate(AuthSchemes, policy.schemes)
    return Plugin.make({
      id,
      ...extra,
      http: { api: HttpApi.make(id).add(HttpApiGroup.make(`${id}-group`).add(endpoint)), routes: undefined as never }
    })
  }
  const scheme = (name: string) => ({ name, methods: [], authenticator: Effect.die("not built by the plan") })

  it("refuses a route counting against a scope nobody declares, naming the plugin and the known scopes", () => {
    const error = failure(planPlugins([withPolicy("trust", { rateLimit: "lookups" })]))
    expect(error.reason).toBe("unknown-rate-limit")
    expect(error.message).toBe(
      'GET /api/trust of plugin "trust" counts against rate-limit scope "lookups", which no plugin declares (known: api, auth, chat, exempt)'
    )
  })

  it("takes a scope the plugin declares, and refuses one declared twice or named badly", () => {
    const declared = planPlugins([
      withPolicy("trust", { rateLimit: "lookups" }, { rateLimits: [{ scope: "lookups", limit: 30, window: "1 minute" }] })
    ])
    expect(Either.getOrThrow(declared).routes[0]?.rateLimit).toBe("lookups")
    expect(Either.getOrThrow(declared).rateLimits.map((r) => `${r.scope}:${r.owner}`)).toEqual([
      "api:built-in",
      "auth:built-in",
      "chat:built-in",
      "lookups:trust"
    ])
    const twice = failure(planPlugins([Plugin.make({ id: "a", rateLimits: [{ scope: "chat", limit: 1, window: "1 minute" }] })]))
    expect(twice.reason).toBe("duplicate-rate-limit")
    expect(twice.message).toBe('plugin "a" declares rate-limit scope "chat", already declared by the built-in catalog')
    expect(failure(planPlugins([Plugin.make({ id: "b", rateLimits: [{ scope: "Bad Scope", limit: 1, window: "1 minute" }] })])).reason).toBe(
      "invalid-plugin"
    )
  })

  it("refuses a route accepting a scheme no plugin provides, and a scheme provided twice", () => {
    const unknown = failure(planPlugins([withPolicy("chat", { schemes: ["chat-signature"] })]))
    expect(unknown.reason).toBe("unknown-scheme")
    expect(unknown.message).toBe('GET /api/chat of plugin "chat" accepts authentication scheme "chat-signature", which no plugin provides')
    const provided = planPlugins([
      withPolicy("chat", { schemes: ["chat-signature"] }, { authentication: [scheme("chat-signature")] })
    ])
    expect(Either.getOrThrow(provided).schemes.map((s) => `${s.name}:${s.owner}`)).toEqual(["chat-signature:chat"])
    const twice = failure(planPlugins([Plugin.make({ id: "x", authentication: [scheme("session")] }), Plugin.make({ id: "y", authentication: [scheme("session")] })]))
    expect(twice.reason).toBe("duplicate-scheme")
    expect(twice.message).toBe(
      'plugin "y" declares authentication scheme "session", already provided by plugin "x" (a plugin that means to take its place says `replaces: true`)'
    )
    const replaced = planPlugins([
      Plugin.make({ id: "x", authentication: [scheme("session")] }),
      Plugin.make({ id: "y", authentication: [{ ...scheme("session"), replaces: true }] })
    ])
    expect(Either.getOrThrow(replaced).schemes.map((s) => `${s.name}:${s.owner}`)).toEqual(["session:y"])
  })

  it("checks every permission inside access combinators", () => {
    const error = failure(
      planPlugins([
        plugin("combo", {
          permissions: ["combo.read"],
          route: { method: "GET", path: "/api/combo", access: Access.all(Access.permission("combo.read"), Access.any(Access.permission("combo.nope"))) }
        })
      ])
    )
    expect(error.reason).toBe("unknown-permission")
    expect(error.message).toContain('requires permission "combo.nope"')
  })

  it("defaults: the api scope, the session scheme, CSRF required, not during a password change", () => {
    const route = Either.getOrThrow(planPlugins([withPolicy("plain", {})])).routes[0]!
    expect(route).toMatchObject({ rateLimit: "api", schemes: ["session"], csrfExempt: false, duringPasswordChange: false })
    expect(route.serverParam).toBeUndefined()
  })
})
