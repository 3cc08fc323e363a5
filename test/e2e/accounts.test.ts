/**
 * Accounts end to end over HTTP, against the real controller process with
 * the default plugins: the first admin from ADMIN_USERNAME/ADMIN_PASSWORD,
 * setup closed, login, a cookie + CSRF write, a Bearer write, MFA turned on,
 * login with a code, and logout revoking the token (one test each, in
 * order, on one controller). A bad key file in the data directory stops the
 * start with one line naming it, exit code 1.
 *
 * Needs the build (`npx tsc -b`): the controller runs from `dist`.
 */
import { Secret, TOTP } from "otpauth"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import {
  type ControllerHandle,
  makeTempDir,
  removeDir,
  requestJson,
  runControllerToExit,
  startController,
  stopProcess
} from "../support/controller.js"
import { handoff } from "../support/fleet.js"

const ADMIN = { username: "e2e-admin", password: "e2e admin password" }

const dirs: Array<string> = []
const controllers: Array<ControllerHandle> = []
afterAll(async () => {
  for (const controller of controllers) await stopProcess(controller)
  for (const dir of dirs) removeDir(dir)
})

const totpAt = (secret: string, ms: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms, digits: 6, period: 30, algorithm: "SHA1" })

/** `name=value` of each Set-Cookie line. */
const cookiesOf = (headers: Headers): Record<string, string> =>
  Object.fromEntries(
    headers.getSetCookie().map((line) => {
      const [pair = ""] = line.split(";")
      const at = pair.indexOf("=")
      return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))]
    })
  )

describe("accounts over HTTP", () => {
  let controller: ControllerHandle
  const api = (method: string, path: string, options: Parameters<typeof requestJson>[3] = {}) =>
    requestJson(controller.baseUrl, method, path, options)

  beforeAll(async () => {
    const dataDir = makeTempDir()
    dirs.push(dataDir)
    controller = await startController({
      dataDir,
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }
    })
    controllers.push(controller)
  }, 30_000)

  const session = handoff<{ readonly token: string; readonly csrf: string; readonly cookie: string }>("login answers a token and the auth-token and csrf-token cookies")
  const bearer = () => ({ authorization: `Bearer ${session.get().token}` })
  const mfa = handoff<string>("MFA: turned on with a code from the authenticator, after which login needs one")
  const secondSession = handoff<string>("with MFA on, login with a code opens a second session")
  const signedOut = handoff<true>("logout revokes that token and clears its cookie; the other session stays")

  // In order: one admin on one controller. The session from the login test is used by the tests after it,
  // MFA turned on stays on, and the last test logs out the first session.
  describe.sequential("one admin, in order", () => {
    it("the first admin comes from the environment: setup is closed, and the password is not logged", async () => {
      expect((await api("GET", "/api/setup/status")).body).toEqual({ open: false })
      expect((await api("POST", "/api/setup/admin", { body: { username: "late", password: "late-password" } })).status).toBe(409)
      expect(controller.output()).not.toContain(ADMIN.password)
    })

    it("login answers a token and the auth-token and csrf-token cookies", async () => {
      const signedIn = await api("POST", "/api/auth/login", { body: ADMIN })
      expect(signedIn.status).toBe(200)
      const { token, user } = signedIn.body as { token: string; user: { id: string; username: string; role: string } }
      expect(user).toMatchObject({ username: ADMIN.username, role: "admin" })
      const cookies = cookiesOf(signedIn.headers)
      expect(cookies["auth-token"]).toBe(token)
      const csrf = cookies["csrf-token"] ?? ""
      expect(csrf.length).toBeGreaterThan(20)
      session.set({ token, csrf, cookie: `auth-token=${token}; csrf-token=${csrf}` })
    })

    it("a write with the cookie needs the CSRF header: without it, 403 csrf-mismatch", async () => {
      const { cookie, csrf } = session.get()
      const browserWrite = await api("POST", "/api/roles", {
        body: { name: "ops", permissions: ["server.view"] },
        headers: { cookie, "x-csrf-token": csrf }
      })
      expect(browserWrite.status).toBe(201)
      const forged = await api("POST", "/api/roles", { body: { name: "forged", permissions: [] }, headers: { cookie } })
      expect(forged.status).toBe(403)
      expect(forged.body).toMatchObject({ error: "csrf-mismatch" })
    })

    it("a write with the Bearer token needs no CSRF token", async () => {
      expect((await api("POST", "/api/roles", { body: { name: "scripts", permissions: [] }, headers: bearer() })).status).toBe(201)
      expect((await api("GET", "/api/users", { headers: bearer() })).status).toBe(200)
    })

    it("MFA: turned on with a code from the authenticator, after which login needs one", async () => {
      const setup = await api("POST", "/api/auth/mfa/setup", { headers: bearer() })
      expect(setup.status).toBe(200)
      const { secret, uri } = setup.body as { secret: string; uri: string }
      expect(uri).toMatch(/^otpauth:\/\/totp\//)
      const verify = await api("POST", "/api/auth/mfa/verify", { body: { code: totpAt(secret, Date.now()) }, headers: bearer() })
      expect(verify.status).toBe(200)
      expect((verify.body as { recoveryCodes: Array<string> }).recoveryCodes).toHaveLength(10)
      // Login now needs a code.
      const noCode = await api("POST", "/api/auth/login", { body: ADMIN })
      expect(noCode.status).toBe(401)
      expect(noCode.body).toMatchObject({ error: "mfa-required" })
      mfa.set(secret)
    })

    it("with MFA on, login with a code opens a second session", async () => {
      const secret = mfa.get()
      // The next step's code is within the window and not used yet.
      const withCode = await api("POST", "/api/auth/login", { body: { ...ADMIN, code: totpAt(secret, Date.now() + 30_000) } })
      expect(withCode.status).toBe(200)
      secondSession.set((withCode.body as { token: string }).token)
    })

    it("logout revokes that token and clears its cookie; the other session stays", async () => {
      const second = secondSession.get()
      const { cookie } = session.get()
      const out = await api("POST", "/api/auth/logout", { headers: { authorization: `Bearer ${second}` } })
      expect(out.status).toBe(204)
      expect(out.headers.getSetCookie().some((c) => c.startsWith("auth-token=;") && c.includes("Max-Age=0"))).toBe(true)
      expect((await api("GET", "/api/users", { headers: { authorization: `Bearer ${second}` } })).status).toBe(401)
      expect((await api("POST", "/api/auth/logout", { headers: { authorization: `Bearer ${second}` } })).status).toBe(401)
      expect((await api("GET", "/api/users", { headers: { cookie } })).status).toBe(200)
      signedOut.set(true)
    })

    it("the cookie session logs out without a CSRF token (exempt), and is refused after", async () => {
      signedOut.get()
      const { cookie } = session.get()
      expect((await api("POST", "/api/auth/logout", { headers: { cookie } })).status).toBe(204)
      expect((await api("GET", "/api/users", { headers: { cookie } })).status).toBe(401)
      expect((await api("GET", "/api/users", { headers: bearer() })).status).toBe(401)
    })
  })
})

describe("key files", () => {
  it("an empty session signing key stops the start before the port opens: one line naming the file, exit code 1", async () => {
    const dataDir = makeTempDir()
    dirs.push(dataDir)
    const file = NodePath.join(dataDir, "secrets", "session-signing-key.key")
    mkdirSync(NodePath.dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(file, "", { mode: 0o600 })

    const result = await runControllerToExit({ dataDir })
    expect(result.code, result.output).toBe(1)
    const lines = result.output.split("\n").filter((line) => line.includes(file))
    expect(lines, result.output).toHaveLength(1)
    expect(lines[0]).toMatch(/cannot start: the session and CSRF signing key \(HS256\) in \S+ is empty: restore it from a backup/)
    expect(lines[0]).toContain("or delete it to have a new key generated at the next start")
    expect(lines[0]).toContain("everyone signs in again")
    expect(result.output).not.toMatch(/listening on/)
    // Nothing else went wrong on the way out: no stack trace, no second error.
    expect(result.output).not.toMatch(/\n\s+at /)
    expect(result.output.split("\n").filter((line) => /\b(ERROR|FATAL)\b/.test(line))).toHaveLength(1)
  }, 30_000)
})
