/**
 * Hostile text over HTTP, through every accounts route that writes the
 * audit trail, with the real accounts and audit plugins: lone surrogates,
 * reversed pairs, NUL, noncharacters, a pair straddling the field cut,
 * 100 KB strings in bodies and paths, and bytes that are not UTF-8 wherever
 * HTTP lets them through (headers and bodies; Node refuses a request line
 * holding them). The front door may refuse a request (4xx) or let it
 * through: either way no answer is a 5xx and the chain still verifies.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Net from "node:net"
import { accountsController, ADMIN, call, type CallOptions, freshIp, type Reply, sessionFrom } from "../accounts/support.js"
import { HOSTILE } from "./support.js"

/** Header values as Node reads bytes 0x80-0xFF (latin1): UTF-8 of a lone surrogate, an overlong `/`, a BOM pair, 4 KB. */
const HOSTILE_HEADERS = ["\u00ed\u00a0\u0080", "\u00c0\u00af", "\u00ff\u00fe", "\u00e9".repeat(4000)]

/** Paths with escapes that decode to no UTF-8, to NUL, to a noncharacter, or to 100 KB. */
const HOSTILE_IDS = ["%ED%A0%80x", "%00", "%EF%BF%BF", "%F0%9F%98", "%C0%AF", "%E9".repeat(3000), "a".repeat(100_000)]

const label = (text: string) => `${JSON.stringify(text.slice(0, 12))}${text.length > 12 ? `…(${text.length})` : ""}`

describe("hostile text through the accounts routes", () => {
  it.scoped("no answer is a 5xx, and GET /api/audit/verify says ok", () =>
    Effect.gen(function* () {
      const answers: Array<{ readonly what: string; readonly status: number }> = []
      let sent = 0
      /** A client address from a hostile header value, unique per request (so no limit or lockout is shared). */
      const hostileIp = () => `${HOSTILE_HEADERS[sent % HOSTILE_HEADERS.length]}-${sent}`
      const send = (what: string, method: HttpMethod, path: string, options: CallOptions = {}) =>
        Effect.map(
          call(method, path, { ...options, headers: { "x-forwarded-for": hostileIp(), ...options.headers } }),
          (reply) => {
            sent++
            answers.push({ what, status: reply.status })
            return reply
          }
        )
      const raw = (what: string, bytes: Buffer) =>
        Effect.map(rawRequest(bytes), (status) => {
          answers.push({ what, status })
          return status
        })

      // First admin: setup opens once no user exists (as after removing them all by hand).
      yield* Effect.orDie((yield* SqlClient.SqlClient)`DELETE FROM accounts_users`)
      for (const text of HOSTILE) {
        yield* send(`setup username ${label(text)}`, "POST", "/api/setup/admin", { json: { username: text, password: "a-good-password" } })
        yield* send(`setup password ${label(text)}`, "POST", "/api/setup/admin", { json: { username: "someone", password: text } })
      }
      const created = yield* send("setup", "POST", "/api/setup/admin", { json: ADMIN, headers: { "x-forwarded-for": freshIp() } })
      expect(created.status).toBe(201)

      // Sign-in.
      for (const text of HOSTILE) {
        yield* send(`login username ${label(text)}`, "POST", "/api/auth/login", { json: { username: text, password: "wrong-password" } })
        yield* send(`login password ${label(text)}`, "POST", "/api/auth/login", { json: { username: ADMIN.username, password: text } })
        yield* send(`login code ${label(text)}`, "POST", "/api/auth/login", { json: { ...ADMIN, code: text } })
      }
      const adminIp = freshIp()
      const signedIn = yield* call("POST", "/api/auth/login", { json: ADMIN, headers: { "x-forwarded-for": adminIp } })
      expect(signedIn.status).toBe(200)
      const admin = sessionFrom(signedIn, adminIp)
      const asAdmin = { authorization: admin.bearer.authorization! }

      // Users.
      const user = yield* send("create user", "POST", "/api/users", {
        json: { username: "victim", password: "a-good-password", role: "moderator", mustChangePassword: false },
        headers: asAdmin
      })
      expect(user.status).toBe(201)
      const userId = (user.body as { id: string }).id
      for (const text of HOSTILE) {
        yield* send(`create user username ${label(text)}`, "POST", "/api/users", {
          json: { username: text, password: "a-good-password", role: "moderator" },
          headers: asAdmin
        })
        yield* send(`create user role ${label(text)}`, "POST", "/api/users", {
          json: { username: "other", password: "a-good-password", role: text },
          headers: asAdmin
        })
        yield* send(`update user username ${label(text)}`, "PATCH", `/api/users/${userId}`, { json: { username: text }, headers: asAdmin })
        yield* send(`update user password ${label(text)}`, "PATCH", `/api/users/${userId}`, { json: { password: text }, headers: asAdmin })
      }
      for (const id of HOSTILE_IDS) {
        yield* send(`update user id ${label(id)}`, "PATCH", `/api/users/${id}`, { json: { disabled: true }, headers: asAdmin })
        yield* send(`delete user id ${label(id)}`, "DELETE", `/api/users/${id}`, { headers: asAdmin })
      }

      // Roles.
      for (const [i, text] of HOSTILE.entries()) {
        yield* send(`create role name ${label(text)}`, "POST", "/api/roles", { json: { name: text, permissions: [] }, headers: asAdmin })
        yield* send(`create role permission ${label(text)}`, "POST", "/api/roles", {
          json: { name: `p${i}`, permissions: [text] },
          headers: asAdmin
        })
        // Cut by UTF-16 units on purpose: the cut may split a pair.
        yield* send(`create role description ${label(text)}`, "POST", "/api/roles", {
          json: { name: `d${i}`, description: text.slice(0, 500), permissions: [] },
          headers: asAdmin
        })
        yield* send(`update role ${label(text)}`, "PATCH", `/api/roles/d${i}`, {
          json: { description: text, permissions: ["server.view"] },
          headers: asAdmin
        })
      }
      for (const id of HOSTILE_IDS) {
        yield* send(`update role id ${label(id)}`, "PATCH", `/api/roles/${id}`, { json: { permissions: [] }, headers: asAdmin })
      }

      // MFA and the password change (each from its own address, so the lockout never answers instead).
      expect((yield* send("mfa setup", "POST", "/api/auth/mfa/setup", { headers: asAdmin })).status).toBe(200)
      for (const text of HOSTILE) {
        yield* send(`mfa verify ${label(text)}`, "POST", "/api/auth/mfa/verify", { json: { code: text }, headers: asAdmin })
        yield* send(`mfa disable password ${label(text)}`, "POST", "/api/auth/mfa/disable", { json: { password: text }, headers: asAdmin })
        yield* send(`mfa disable code ${label(text)}`, "POST", "/api/auth/mfa/disable", { json: { code: text }, headers: asAdmin })
        yield* send(`password change ${label(text)}`, "POST", "/api/auth/change-password-forced", {
          json: { currentPassword: text, newPassword: `${text}-new-password` },
          headers: asAdmin
        })
      }

      // Logout, from a session of its own.
      const other = yield* call("POST", "/api/auth/login", { json: ADMIN, headers: { "x-forwarded-for": freshIp() } })
      const logout = yield* send("logout", "POST", "/api/auth/logout", { headers: { authorization: `Bearer ${(other.body as { token: string }).token}` } })
      expect(logout.status).toBe(204)

      // Bytes that are not UTF-8, sent as they are.
      const notUtf8 = Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xff, 0xfe, 0x80])
      yield* raw("login body with invalid UTF-8", request("POST", "/api/auth/login", {
        body: Buffer.concat([Buffer.from('{"username":"'), notUtf8, Buffer.from('","password":"'), notUtf8, Buffer.from('x"}')])
      }))
      yield* raw("role body with invalid UTF-8", request("POST", "/api/roles", {
        headers: [`authorization: ${asAdmin.authorization}`],
        body: Buffer.concat([Buffer.from('{"name":"raw-body","description":"'), notUtf8, Buffer.from('","permissions":[]}')])
      }))
      const rawIpRole = yield* raw("X-Forwarded-For with invalid UTF-8", request("POST", "/api/roles", {
        headers: [`authorization: ${asAdmin.authorization}`],
        rawHeader: Buffer.concat([Buffer.from("x-forwarded-for: "), notUtf8]),
        body: Buffer.from('{"name":"raw-ip","permissions":[]}')
      }))
      yield* raw("request line with invalid UTF-8", request("PATCH", "/api/users/", {
        pathBytes: notUtf8,
        headers: [`authorization: ${asAdmin.authorization}`],
        body: Buffer.from('{"disabled":true}')
      }))

      const failures = answers.filter((a) => a.status >= 500)
      expect(failures, JSON.stringify(failures)).toEqual([])
      expect(answers.length).toBeGreaterThan(200)

      // The trail holds the hostile rows, lists them, and its chain verifies.
      const report = yield* call("GET", "/api/audit/verify", { headers: asAdmin })
      expect(report.status).toBe(200)
      expect(report.body).toMatchObject({ ok: true })
      expect((report.body as { checked: number }).checked).toBeGreaterThan(100)
      // Node reads header bytes as latin1, so such an address reaches the trail as text (unless the door refuses it).
      const roleList = yield* call("GET", "/api/audit?action=roles.create&limit=500", { headers: asAdmin })
      const roleRows = (roleList.body as { items: Array<{ ip: string; target: string }> }).items
      if (rawIpRole === 201) expect(roleRows).toContainEqual(expect.objectContaining({ ip: notUtf8.toString("latin1"), target: "raw-ip" }))
      expect(roleRows.some((row) => HOSTILE_HEADERS.some((header) => row.ip.startsWith(header)))).toBe(true)
      for (let cursor: string | null = null, pages = 0; pages === 0 || cursor !== null; pages++) {
        const page: Reply = yield* call("GET", `/api/audit?limit=500${cursor === null ? "" : `&cursor=${cursor}`}`, { headers: asAdmin })
        expect(page.status).toBe(200)
        cursor = (page.body as { nextCursor: string | null }).nextCursor
      }
    }).pipe(Effect.provide(accountsController({ auditChain: true }))),
  120_000)
})

interface RawOptions {
  readonly headers?: ReadonlyArray<string>
  /** A header line written as bytes. */
  readonly rawHeader?: Buffer
  /** Bytes appended to the path as they are. */
  readonly pathBytes?: Buffer
  readonly body: Buffer
}

/** An HTTP/1.1 request as bytes, JSON body, connection closed after. */
const request = (method: string, path: string, options: RawOptions): Buffer =>
  Buffer.concat([
    Buffer.from(`${method} ${path}`),
    options.pathBytes ?? Buffer.alloc(0),
    Buffer.from(
      [" HTTP/1.1", "host: 127.0.0.1", "connection: close", "content-type: application/json", `content-length: ${options.body.length}`,
        `x-forwarded-for: ${freshIp()}`, ...(options.headers ?? [])].join("\r\n") + "\r\n"
    ),
    options.rawHeader === undefined ? Buffer.alloc(0) : Buffer.concat([options.rawHeader, Buffer.from("\r\n")]),
    Buffer.from("\r\n"),
    options.body
  ])

/** Sends `bytes` to the controller under test over a plain socket; the status of the answer. */
const rawRequest = (bytes: Buffer) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.async<number>((resume) => {
      const address = server.address
      if (address._tag !== "TcpAddress") return resume(Effect.dieMessage("the test server has no TCP address"))
      const socket = Net.connect(address.port, "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.on("data", (chunk) => chunks.push(chunk))
      socket.on("error", (error) => resume(Effect.dieMessage(`raw request failed: ${error.message}`)))
      socket.on("close", () => {
        const head = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString("latin1"))
        resume(head === null ? Effect.dieMessage("no HTTP answer to the raw request") : Effect.succeed(Number(head[1])))
      })
      // Written, not ended: the server closes once it has answered (`connection: close`).
      socket.write(bytes)
    })
  )
