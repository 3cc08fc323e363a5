/**
 * The real controller with the real accounts plugin: spellings of the
 * login path (case, escapes, slashes, absolute-form) share the one
 * 15-per-15-minutes budget of /api/auth/*, and the answers that carry a
 * session token are never cacheable.
 *
 * Needs the build (`npm run build`): the controller runs from `dist`.
 */
import { afterAll, describe, expect, it } from "vitest"
import { type ControllerHandle, makeTempDir, removeDir, startController, stopProcess } from "../support/controller.js"
import { rawRequest } from "@garrison/testkit"

const ADMIN = { username: "limit-admin", password: "limit admin password" }

const dirs: Array<string> = []
const controllers: Array<ControllerHandle> = []
afterAll(async () => {
  for (const controller of controllers) await stopProcess(controller)
  for (const dir of dirs) removeDir(dir)
})

const spellings = [
  "/api/auth/login",
  "/API/auth/login",
  "/%61pi/auth/%6Cogin",
  "/api//auth/login",
  "/api/auth/login/",
  "http://garrison/api/auth/login",
  "HTTP://Garrison:80//Api/Auth/Login/"
]

describe("the auth rate limit over HTTP", () => {
  it("spellings of the login path share 15 requests per 15 minutes", async () => {
    const dataDir = makeTempDir()
    dirs.push(dataDir)
    const controller = await startController({
      dataDir,
      logLevel: "Warn",
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }
    })
    controllers.push(controller)
    const login = (target: string) =>
      rawRequest({
        port: controller.port,
        method: "POST",
        target,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
        timeoutMs: 10_000
      })

    for (let i = 0; i < 15; i++) {
      const target = spellings[i % spellings.length]!
      const signedIn = await login(target)
      expect(signedIn.status, target).toBe(200)
      expect((JSON.parse(signedIn.body) as { token?: unknown }).token, target).toEqual(expect.any(String))
      // A session token in the body and a cookie: no cache may keep it.
      expect(signedIn.headers["cache-control"], target).toBe("no-store")
      expect(signedIn.headers["x-content-type-options"], target).toBe("nosniff")
    }
    for (const target of spellings) {
      const limited = await login(target)
      expect(limited.status, target).toBe(429)
      expect(JSON.parse(limited.body), target).toMatchObject({ error: "rate-limited" })
      expect(Number(limited.headers["retry-after"]), target).toBeGreaterThan(800)
    }
    // A spelling that has no canonical form is refused, not a way around the limit.
    const refused = await login("/api/auth/login%2F..")
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body)).toMatchObject({ error: "invalid-request" })
  }, 60_000)
})
