/**
 * The license plugin over HTTP against a fake license server: the
 * community edition gates nothing; activation checks the token offline
 * (forged, HS256, `alg: none` and another machine's tokens are refused);
 * the gate answers 402 for an unactivated license and for features it does
 * not include; the key and token are stored sealed and never answered; the
 * public key is pinned; removal. Time runs on the TestClock.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Access, LicensedFeature, Plugin } from "@garrison/runtime"
import { auditRecorder, call, callWithText, tempDir, testController } from "@garrison/testkit"
import { Effect, Layer, LogLevel, Schema, TestClock } from "effect"
import { ADMIN, DAY, gatedPlugin, licenseController, START, USER } from "./support.js"
import { type FakeLicenseMode, fakeLicenseServer } from "./fakeLicenseServer.js"

const KEY = "GARRISON-PRO-1234-5678"

const withServer = <A, E, R>(use: (fake: Effect.Effect.Success<ReturnType<typeof fakeLicenseServer>>) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(START)
    const fake = yield* fakeLicenseServer({ issuedAt: START, expiresAt: START + 30 * DAY })
    return yield* use(fake)
  })

const activate = (key = KEY) => call("POST", "/api/license/activate", { as: ADMIN, json: { key } })

describe("the community edition (no LICENSE_SERVER_URL)", () => {
  it.scoped("gates nothing, says so, and refuses an activation with a clear 409", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const gated = gatedPlugin()
      yield* Effect.gen(function* () {
        const status = yield* call("GET", "/api/license", { as: USER })
        expect(status.status).toBe(200)
        expect(status.body).toMatchObject({ edition: "community", state: "unactivated", gated: false, readOnly: false, license: null })
        expect((status.body as { message: string }).message).toContain("community edition")
        for (const [method, path] of [["GET", "/api/test-gated/reports"], ["POST", "/api/test-gated/reports"], ["GET", "/api/test-gated/fleet"]] as const) {
          expect((yield* call(method, path, { as: USER })).status, `${method} ${path}`).toBe(200)
        }
        expect(gated.handled).toMatchObject({ read: 1, write: 1, fleet: 1 })
        const refused = yield* activate()
        expect(refused.status).toBe(409)
        expect(refused.body).toMatchObject({ error: "conflict" })
        expect((refused.body as { message: string }).message).toContain("LICENSE_SERVER_URL")
        const tiers = yield* call("GET", "/api/license/tiers", { as: USER })
        expect(tiers.body).toEqual({
          edition: "community",
          tiers: [],
          current: null,
          features: [
            { name: "fleet-sync", routes: 1, entitled: true },
            { name: "reports", routes: 2, entitled: true }
          ],
          fetchedAt: null
        })
      }).pipe(Effect.provide(licenseController({}, { gated })))
    })
  )

  it.scoped("without the license plugin the gate's default lets every feature through", () =>
    Effect.gen(function* () {
      const gated = gatedPlugin()
      yield* Effect.gen(function* () {
        expect((yield* call("POST", "/api/test-gated/reports", { as: USER })).status).toBe(200)
        expect((yield* call("GET", "/api/test-gated/fleet", { as: USER })).status).toBe(200)
        expect((yield* call("GET", "/api/license", { as: USER })).status).toBe(404)
      }).pipe(Effect.provide(licenseController({}, { gated, withoutLicense: true })))
    })
  )
})

describe("activation", () => {
  it.scoped("an admin activates; the gate then follows the entitlements; nothing secret is answered or stored in clear", () =>
    withServer((fake) => {
      const gated = gatedPlugin()
      const audit = auditRecorder()
      return Effect.gen(function* () {
        // Unactivated: every gated route is 402, reads too; the handler never runs; ungated routes are untouched.
        const before = yield* call("GET", "/api/test-gated/reports", { as: USER })
        expect(before.status).toBe(402)
        expect(before.body).toEqual({
          error: "SUBSCRIPTION_INACTIVE",
          message: expect.stringContaining("no license is activated"),
          feature: "reports",
          status: "unactivated",
          details: { feature: "reports", status: "unactivated" }
        })
        expect((yield* call("GET", "/api/test-gated/free", { as: USER })).status).toBe(200)
        // 401 and 403 come before the license: the gate tells nothing to a caller who may not call the route.
        expect((yield* call("GET", "/api/test-gated/reports")).status).toBe(401)
        expect(gated.handled).toMatchObject({ read: 0, write: 0, free: 1 })

        // Admins only; the body is checked, naming the field.
        expect((yield* call("POST", "/api/license/activate", { as: USER, json: { key: KEY } })).status).toBe(403)
        for (const [json, field] of [
          [{}, "key"],
          [{ key: "" }, "key"],
          [{ key: "A\u0000B" }, "key"],
          [{ key: "has space" }, "key"],
          [{ key: KEY, extra: 1 }, "extra"]
        ] as const) {
          const bad = yield* call("POST", "/api/license/activate", { as: ADMIN, json })
          expect(bad.status, JSON.stringify(json)).toBe(400)
          expect(JSON.stringify(bad.body)).toContain(field)
        }
        expect(fake.requests.filter((r) => r.path === "/v1/activate")).toHaveLength(0)

        const activated = yield* callWithText("POST", "/api/license/activate", { as: ADMIN, json: { key: KEY } })
        expect(activated.status, activated.text).toBe(200)
        expect(activated.body).toMatchObject({
          edition: "licensed",
          state: "active",
          gated: true,
          readOnly: false,
          license: {
            id: "lic-1",
            tier: "pro",
            holder: "Test Community",
            entitlements: ["reports"],
            issuedAt: new Date(START).toISOString(),
            expiresAt: new Date(START + 30 * DAY).toISOString(),
            standing: "good"
          },
          checkedAt: new Date(START).toISOString(),
          server: fake.url,
          publicKey: { source: "configured" }
        })
        const machineId = (activated.body as { machineId: string }).machineId
        expect(machineId).toMatch(/^gm-[0-9a-f]{32}$/)
        expect(fake.requests.find((r) => r.path === "/v1/activate")?.body).toMatchObject({ key: KEY, machineId, product: "garrison" })
        // Claims, never the token or the key.
        expect(activated.text).not.toContain(fake.lastToken!)
        expect(activated.text).not.toContain(KEY)

        // Entitled: reads and writes run; a feature the license does not include is 402 FEATURE_NOT_ENTITLED.
        expect((yield* call("GET", "/api/test-gated/reports", { as: USER })).status).toBe(200)
        expect((yield* call("POST", "/api/test-gated/reports", { as: USER })).status).toBe(200)
        const fleet = yield* call("GET", "/api/test-gated/fleet", { as: USER })
        expect(fleet.status).toBe(402)
        expect(fleet.body).toMatchObject({ error: "FEATURE_NOT_ENTITLED", feature: "fleet-sync", status: "active" })
        expect(gated.handled).toMatchObject({ read: 1, write: 1, fleet: 0 })

        // Others see the state and claims, not the host's details.
        const seen = yield* call("GET", "/api/license", { as: USER })
        expect(seen.body).toMatchObject({ state: "active", server: null, machineId: null, lastError: null, publicKey: null })
        expect((seen.body as { license: { tier: string } }).license.tier).toBe("pro")

        // Stored sealed: neither the key nor the token is in the row in clear.
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ license_key: string; token: string }>`SELECT license_key, token FROM license_state`
        expect(row!.license_key.startsWith("sealed:v1:")).toBe(true)
        expect(row!.token.startsWith("sealed:v1:")).toBe(true)
        expect(JSON.stringify(row)).not.toContain(KEY)
        expect(JSON.stringify(row)).not.toContain(fake.lastToken!.split(".")[1]!)

        // Audited with the admin, without the key.
        const rows = audit.rows.filter((r) => r.action === "license.activate")
        expect(rows).toMatchObject([{ actor: "root", result: "success", target: "lic-1", details: { tier: "pro", entitlements: ["reports"] } }])
        expect(JSON.stringify(audit.rows)).not.toContain(KEY)

        // The tiers come from the server; the features say which the license includes.
        const tiers = yield* call("GET", "/api/license/tiers", { as: USER })
        expect(tiers.body).toMatchObject({
          edition: "licensed",
          current: "pro",
          tiers: [{ id: "standard" }, { id: "pro", entitlements: ["reports"] }],
          features: [
            { name: "fleet-sync", entitled: false },
            { name: "reports", entitled: true }
          ]
        })

        // The OpenAPI document names each gated operation's feature and its 402.
        const doc = (yield* call("GET", "/api/openapi.json")).body as { paths: Record<string, Record<string, Record<string, unknown>>> }
        const read = doc.paths["/api/test-gated/reports"]!["get"]!
        expect(read["x-garrison-licensed-feature"]).toBe("reports")
        expect(Object.keys(read["responses"] as object)).toContain("402")
        expect(doc.paths["/api/test-gated/free"]!["get"]!["x-garrison-licensed-feature"]).toBeUndefined()
      }).pipe(Effect.provide(licenseController({ LICENSE_SERVER_URL: fake.url, LICENSE_PUBLIC_KEY: fake.publicKeyPem }, { gated, audit })))
    })
  )

  it.scoped("a forged token, an HS256 or unsigned one and another machine's are refused (502), and nothing is stored", () =>
    withServer((fake) =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [FakeLicenseMode, string]> = [
          ["forge", "signature verification failed"],
          ["hs256", "alg"],
          ["none", "alg"],
          ["wrong-machine", "another machine"]
        ]
        for (const [mode, why] of cases) {
          fake.mode = mode
          const refused = yield* call("POST", "/api/license/activate", { as: ADMIN, json: { key: KEY } })
          expect(refused.status, mode).toBe(502)
          expect(refused.body, mode).toMatchObject({ error: "bad-gateway", details: { reason: "token" } })
          expect((refused.body as { message: string }).message, mode).toContain(why)
          expect((yield* call("GET", "/api/license", { as: ADMIN })).body, mode).toMatchObject({ state: "unactivated", license: null })
        }
        expect((yield* call("GET", "/api/test-gated/reports", { as: USER })).status).toBe(402)
        // A key the server refuses: 422 with its words.
        fake.mode = "refuse"
        const refusedKey = yield* call("POST", "/api/license/activate", { as: ADMIN, json: { key: KEY } })
        expect(refusedKey.status).toBe(422)
        expect(refusedKey.body).toMatchObject({ error: "license-refused", details: { serverStatus: 403 } })
        expect((refusedKey.body as { message: string }).message).toContain("unknown license key")
        // A server that is down: 502 naming it (without credentials).
        fake.mode = "down"
        const down = yield* call("POST", "/api/license/activate", { as: ADMIN, json: { key: KEY } })
        expect(down.status).toBe(502)
        expect(down.body).toMatchObject({ details: { reason: "unreachable" } })
      }).pipe(Effect.provide(licenseController({ LICENSE_SERVER_URL: fake.url, LICENSE_PUBLIC_KEY: fake.publicKeyPem })))
    )
  )

  it.scoped("without LICENSE_PUBLIC_KEY the server's key is fetched at activation and pinned: a token it signs with another key later is refused", () =>
    withServer((fake) =>
      Effect.gen(function* () {
        const activated = yield* activate()
        expect(activated.status).toBe(200)
        expect(activated.body).toMatchObject({ state: "active", publicKey: { source: "pinned" } })
        expect(fake.requests.map((r) => r.path)).toEqual(["/v1/public-key", "/v1/activate"])
        // The server now signs with another key (and would hand it out): the pinned key refuses its tokens.
        fake.mode = "forge"
        const again = yield* activate()
        expect(again.status).toBe(502)
        expect(fake.requests.filter((r) => r.path === "/v1/public-key")).toHaveLength(1)
        expect((yield* call("GET", "/api/license", { as: ADMIN })).body).toMatchObject({ state: "active", license: { id: "lic-1" } })
      }).pipe(Effect.provide(licenseController({ LICENSE_SERVER_URL: fake.url })))
    )
  )

  it.scoped("the license and the machine id outlive a restart; removing it forgets it, tells the server and is audited", () =>
    withServer((fake) => {
      const dataDir = tempDir("garrison-license-data-")
      const config = { LICENSE_SERVER_URL: fake.url, LICENSE_PUBLIC_KEY: fake.publicKeyPem }
      const audit = auditRecorder()
      return Effect.gen(function* () {
        const machineId = yield* Effect.gen(function* () {
          const activated = yield* activate()
          expect(activated.status).toBe(200)
          return (activated.body as { machineId: string }).machineId
        }).pipe(Effect.provide(licenseController(config, { dataDir })), Effect.scoped)
        yield* Effect.gen(function* () {
          const status = yield* call("GET", "/api/license", { as: ADMIN })
          expect(status.body).toMatchObject({ state: "active", machineId, license: { id: "lic-1" } })
          expect((yield* call("GET", "/api/test-gated/reports", { as: USER })).status).toBe(200)

          expect((yield* call("DELETE", "/api/license", { as: USER })).status).toBe(403)
          const removed = yield* call("DELETE", "/api/license", { as: ADMIN })
          expect(removed.status).toBe(200)
          expect(removed.body).toMatchObject({ state: "unactivated", license: null })
          expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/deactivate", body: { key: KEY, machineId } })
          expect(audit.rows.filter((r) => r.action === "license.remove")).toMatchObject([{ actor: "root", target: "lic-1", result: "success" }])
          expect((yield* call("GET", "/api/test-gated/reports", { as: USER })).status).toBe(402)
          expect((yield* call("DELETE", "/api/license", { as: ADMIN })).status).toBe(404)
          const sql = yield* SqlClient.SqlClient
          expect(yield* sql`SELECT id FROM license_state`).toEqual([])
        }).pipe(Effect.provide(licenseController(config, { dataDir, audit })), Effect.scoped)
      })
    })
  )

  it.scoped("a bad LICENSE_SERVER_URL or LICENSE_PUBLIC_KEY stops the start in one line", () =>
    Effect.gen(function* () {
      for (const [config, words] of [
        [{ LICENSE_SERVER_URL: "ftp://licenses.example" }, "LICENSE_SERVER_URL"],
        [{ LICENSE_SERVER_URL: "http://127.0.0.1:1", LICENSE_PUBLIC_KEY: "not a key" }, "LICENSE_PUBLIC_KEY"],
        [{ LICENSE_SERVER_URL: "http://127.0.0.1:1", LICENSE_PUBLIC_KEY: '{"kty":"RSA","n":"x","e":"AQAB","d":"secret"}' }, "private key"]
      ] as const) {
        const failed = yield* Effect.flip(Effect.scoped(Layer.build(licenseController(config))))
        expect(String((failed as { message?: string }).message ?? failed), JSON.stringify(config)).toContain(words)
      }
    })
  )

  it.scoped("a route naming a badly spelled feature stops the start, naming the plugin and the route", () =>
    Effect.gen(function* () {
      const api = HttpApi.make("bad-feature").add(
        HttpApiGroup.make("bad").add(
          HttpApiEndpoint.get("read", "/api/bad-feature").addSuccess(Schema.Void).annotate(Access, Access.anyAuth).annotate(LicensedFeature, "Fleet Sync")
        )
      )
      const plugin = Plugin.make({
        id: "bad-feature",
        http: Plugin.http(api, HttpApiBuilder.group(api, "bad", (handlers) => Effect.succeed(handlers.handle("read", () => Effect.void))))
      })
      const failed = yield* Effect.flip(Effect.scoped(Layer.build(testController([plugin], { logLevel: LogLevel.None }))))
      expect(String((failed as { message?: string }).message)).toContain('plugin "bad-feature" endpoint GET /api/bad-feature names the licensed feature "Fleet Sync"')
    })
  )
})
