/**
 * Hostile bodies against real routes, through the fixture with the
 * accounts and audit plugins: sign-in (open to anyone, and its username
 * goes to the audit trail) and user creation (signed in). Refusals are
 * 400s that quote nothing; the audit chain still verifies afterwards.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { AccountsPlugin, AuditPlugin } from "@garrison/plugins"
import { ConfigProvider, Effect } from "effect"
import { hostController } from "./fixtures.js"

const ADMIN = { username: "root", password: "correct horse battery staple" }

let clients = 0
const nextIp = () => {
  clients += 1
  return `10.8.${(clients >> 8) & 255}.${clients & 255}`
}

const send = (method: "GET" | "POST", path: string, body?: Uint8Array | string, token?: string) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeader("x-forwarded-for", nextIp()))
    if (body !== undefined) {
      request = HttpClientRequest.bodyUint8Array(request, typeof body === "string" ? Buffer.from(body, "utf8") : body, "application/json")
    }
    if (token !== undefined) request = HttpClientRequest.bearerToken(request, token)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, text, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} }
  }).pipe(Effect.scoped, Effect.orDie)

const withBytes = (prefix: string, bytes: ReadonlyArray<number>, suffix: string) =>
  Buffer.concat([Buffer.from(prefix), Buffer.from(bytes), Buffer.from(suffix)])

describe("hostile bodies on real routes", () => {
  it.scoped("sign-in and user creation refuse them with a 400; the audit chain still verifies", () =>
    Effect.gen(function* () {
      const refusedAtTheDoor = [
        '{"username":"\\ud800x","password":"guess"}',
        '{"username":"root","password":"guess","code":"\\udc00"}',
        withBytes('{"username":"', [0xc0, 0xaf], '","password":"guess"}'),
        withBytes('{"username":"', [0xed, 0xa0, 0x80], '","password":"guess"}'),
        "[".repeat(3_000) + "]".repeat(3_000),
        '{"username":"root","password":' + '{"a":'.repeat(3_000) + "1" + "}".repeat(3_000) + "}"
      ]
      for (const body of refusedAtTheDoor) {
        const reply = yield* send("POST", "/api/auth/login", body)
        expect(reply.status, String(body).slice(0, 60)).toBe(400)
        expect(reply.body.error).toBe("invalid-json")
      }

      const password = "s".repeat(900 * 1024)
      const huge = yield* send("POST", "/api/auth/login", JSON.stringify({ username: "root", password }))
      expect(huge.status).toBe(400)
      expect(huge.text.length).toBeLessThan(1024)
      expect(huge.text).not.toContain("sss")

      // Well-formed but odd usernames pass the door, fail to sign in, and are audited.
      for (const username of ["nul\u0000byte", "\u{1F600}", "x".repeat(128)]) {
        const reply = yield* send("POST", "/api/auth/login", JSON.stringify({ username, password: "guess" }))
        expect(reply.status).toBe(401)
      }

      const login = yield* send("POST", "/api/auth/login", JSON.stringify(ADMIN))
      expect(login.status).toBe(200)
      const token = String(login.body.token)

      const users: ReadonlyArray<readonly [string | Uint8Array, number, string]> = [
        ['{"username":"eve\\ud800","password":"long enough pw","role":"viewer"}', 400, "invalid-json"],
        ['{"username":"eve","password":"long enough \\udfff","role":"viewer"}', 400, "invalid-json"],
        [withBytes('{"username":"eve', [0xf8, 0x88, 0x80, 0x80, 0x80], '","password":"long enough pw","role":"viewer"}'), 400, "invalid-json"],
        ['{"username":"eve\\u0000","password":"long enough pw","role":"viewer"}', 400, "invalid-request"],
        [JSON.stringify({ username: "eve", password: "p".repeat(100 * 1024), role: "viewer" }), 400, "invalid-request"]
      ]
      for (const [body, status, error] of users) {
        const reply = yield* send("POST", "/api/users", body, token)
        expect(reply.status, String(body).slice(0, 60)).toBe(status)
        expect(reply.body.error).toBe(error)
        expect(reply.text.length).toBeLessThan(2048)
        expect(reply.text).not.toContain("ppp")
      }

      const verify = yield* send("GET", "/api/audit/verify", undefined, token)
      expect(verify.status).toBe(200)
      expect(verify.body).toMatchObject({ ok: true })
      expect(verify.body.checked).toBeGreaterThanOrEqual(4)
    }).pipe(
      Effect.provide(hostController({}, { echo: false, plugins: [AccountsPlugin, AuditPlugin] })),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["ADMIN_USERNAME", ADMIN.username], ["ADMIN_PASSWORD", ADMIN.password]])))
    ), 60_000)
})
