/**
 * A role scoped to one server reaches nothing of another, over every route
 * of `/api/openapi.json`, through the built controller with real accounts:
 *
 * - every operation about one server (its path names the server), driven
 *   with generated paths, queries and bodies for server B, as a user whose
 *   role grants every permission a route can ask for (the `server.*` ones
 *   on server A only, the rest everywhere): never a 2xx;
 * - every other GET (lists, exports, event streams), with generated
 *   queries, as the same user: nothing of B in the answer (its id, name
 *   or folder).
 *
 * The same requests as the admin do get 2xx answers about B, so the
 * property is not empty. Deterministic: fixed seeds, `PROPERTY_RUNS`
 * requests per operation (default 8).
 */
import { serverParamOf } from "@garrison/runtime"
import * as fc from "effect/FastCheck"
import { afterAll, describe, expect, it } from "vitest"
import { makeTempDir, removeDir, requestJson, startController, stopProcess } from "../support/controller.js"
import { fleetSimArgs, offlineAdminEnv } from "../support/fleet.js"
import { sendGenerated } from "../support/generatedRequests.js"
import { type GeneratedRequest, type OpenApiDocument, operationsOf, requestsFor } from "../support/openapiArbitrary.js"
import { installSim } from "../support/sim.js"

const RUNS = Number(process.env.PROPERTY_RUNS ?? 8)
const SEED = 20_261_126
const ADMIN = { username: "scope-admin", password: "scope admin password" }
const MODERATOR = { username: "scope-moderator", password: "scope moderator password", changedPassword: "scope moderator's own password" }
/** How much of an event stream is read before it is cut (the first events carry the current state). */
const STREAM_BYTES = 64 * 1024
const STREAM_MS = 1_500

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Answer {
  readonly status: number
  readonly text: string
}

/** One request as `token`'s holder (none or forged as generated); event streams are read for a moment, then cut. */
const send = async (baseUrl: string, req: GeneratedRequest, token: string, ip: string): Promise<Answer> => {
  const answer = await sendGenerated(baseUrl, req, token, ip, { streamMs: STREAM_MS, streamBytes: STREAM_BYTES })
  return { status: answer.status, text: answer.body.toString("utf8") }
}

const describeRequest = (req: GeneratedRequest) => `${req.method} ${req.target.slice(0, 200)} auth=${req.auth}${req.body === undefined ? "" : ` body: ${req.body.subarray(0, 160).toString("latin1")}`}`

/** Every permission a route asks for, as the OpenAPI document says it ("Needs the `x` permission"). */
const permissionsNamed = (document: OpenApiDocument): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const match of JSON.stringify(document).matchAll(/the `([a-z][a-z0-9.-]*)` permission/g)) found.add(match[1]!)
  found.delete("admin")
  return [...found].sort()
}

describe("a role scoped to one server, over every route", () => {
  it("never gets a 2xx about another server, and no list or stream shows one", { timeout: 600_000 }, async () => {
    const dataDir = makeTempDir()
    cleanups.push(() => removeDir(dataDir))
    const installs = [await installSim(), await installSim()]
    for (const install of installs) cleanups.push(() => install.remove())
    const controller = await startController({
      dataDir,
      logLevel: "Warning",
      env: { ...offlineAdminEnv(dataDir, ADMIN), RATE_LIMIT_AUTH: "off" }
    })
    cleanups.push(() => stopProcess(controller))

    let ipCounter = 0
    const freshIp = () => {
      ipCounter++
      return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
    }
    const signIn = async (who: { readonly username: string; readonly password: string }) => {
      const answer = await requestJson(controller.baseUrl, "POST", "/api/auth/login", { body: who, headers: { "x-forwarded-for": freshIp() } })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return (answer.body as { token: string }).token
    }
    let adminToken = await signIn(ADMIN)
    const api = (method: string, path: string, body?: unknown) =>
      requestJson(controller.baseUrl, method, path, { headers: { authorization: `Bearer ${adminToken}`, "x-forwarded-for": freshIp() }, ...(body === undefined ? {} : { body }) })

    const make = async (name: string, index: number) => {
      const install = installs[index]!
      const created = await api("POST", "/api/servers", { name, installDir: install.dir, gamePort: install.gamePort, extraArgs: fleetSimArgs })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      return { id: (created.body as { id: string }).id, name, dir: install.dir }
    }
    const a = await make("Alpha-Scoped", 0)
    const b = await make("Bravo-Elsewhere", 1)
    // Things about B that lists could show: a scheduled job.
    expect((await api("POST", `/api/servers/${b.id}/scheduler`, { kind: "message", cron: "0 4 * * *", message: "hi" })).status).toBe(201)

    const document = (await requestJson(controller.baseUrl, "GET", "/api/openapi.json")).body as OpenApiDocument
    const permissions = permissionsNamed(document)
    expect(permissions).toEqual(expect.arrayContaining(["server.config", "server.deploy", "server.rcon", "players.ban", "mods.install"]))
    const role = await api("POST", "/api/roles", {
      name: "moderator-of-alpha",
      permissions: permissions.map((permission) => (permission.startsWith("server.") ? { permission, servers: [a.id] } : permission))
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const user = await api("POST", "/api/users", { username: MODERATOR.username, password: MODERATOR.password, role: "moderator-of-alpha" })
    expect(user.status, JSON.stringify(user.body)).toBe(201)
    // A user an admin made changes their password first.
    const first = await signIn({ username: MODERATOR.username, password: MODERATOR.password })
    const changed = await requestJson(controller.baseUrl, "POST", "/api/auth/change-password-forced", {
      headers: { authorization: `Bearer ${first}`, "x-forwarded-for": freshIp() },
      body: { currentPassword: MODERATOR.password, newPassword: MODERATOR.changedPassword }
    })
    expect(changed.status, JSON.stringify(changed.body)).toBeLessThan(300)
    const moderator = { username: MODERATOR.username, password: MODERATOR.changedPassword }
    let moderatorToken = await signIn(moderator)
    // The moderator sees A, and only A.
    const listed = await requestJson(controller.baseUrl, "GET", "/api/servers", { headers: { authorization: `Bearer ${moderatorToken}`, "x-forwarded-for": freshIp() } })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect((listed.body as { items: ReadonlyArray<{ id: string }> }).items.map((s) => s.id)).toEqual([a.id])

    const operations = operationsOf(document)
    const aboutOneServer = operations.flatMap((operation) => {
      const parameter = serverParamOf(operation.path.replace(/\{([^}]+)\}/g, ":$1"))
      return parameter === undefined ? [] : [{ operation, parameter }]
    })
    const others = operations.filter((operation) => operation.method === "GET" && !aboutOneServer.some((o) => o.operation === operation))
    expect(aboutOneServer.length).toBeGreaterThan(60)

    const failures: Array<string> = []
    let adminSuccesses = 0
    let requests = 0
    // A refusal may repeat the id the caller sent; B's name and folder are what it must not tell.
    const tellsOfB = (text: string) => text.includes(b.name) || text.includes(b.dir)
    const holdsB = (text: string) => text.includes(b.id) || tellsOfB(text)

    for (const [index, { operation, parameter }] of aboutOneServer.entries()) {
      const generated = fc.sample(requestsFor(document, operation, [a.id, b.id], { [parameter]: b.id }), { seed: SEED + index, numRuns: RUNS })
      for (const req of generated) {
        requests++
        const answer = await send(controller.baseUrl, req, moderatorToken, freshIp())
        if (answer.status >= 200 && answer.status < 300) failures.push(`${answer.status} <- ${describeRequest(req)} => ${answer.text.slice(0, 200)}`)
        else if (tellsOfB(answer.text)) failures.push(`${answer.status} tells of B <- ${describeRequest(req)} => ${answer.text.slice(0, 200)}`)
        if (answer.status === 401 && req.auth === "admin") moderatorToken = await signIn(moderator)
      }
      // The control: the first request as the admin.
      if (operation.method === "GET") {
        const control = await send(controller.baseUrl, { ...generated[0]!, auth: "admin" }, adminToken, freshIp())
        if (control.status >= 200 && control.status < 300) adminSuccesses++
        if (control.status === 401) adminToken = await signIn(ADMIN)
      }
    }

    let adminSawB = 0
    for (const [index, operation] of others.entries()) {
      const generated = fc.sample(requestsFor(document, operation, [a.id, b.id]), { seed: SEED + 10_000 + index, numRuns: RUNS })
      for (const req of [{ method: "GET", target: operation.path, auth: "admin" } satisfies GeneratedRequest, ...generated]) {
        requests++
        const answer = await send(controller.baseUrl, req, moderatorToken, freshIp())
        const sentB = req.target.includes(b.id) || (req.body?.includes(b.id) ?? false)
        if ((sentB ? tellsOfB : holdsB)(answer.text)) failures.push(`${answer.status} shows B <- ${describeRequest(req)} => ${answer.text.slice(0, 300)}`)
        if (answer.status === 401 && req.auth === "admin") moderatorToken = await signIn(moderator)
      }
      const control = await send(controller.baseUrl, { method: "GET", target: operation.path, auth: "admin" }, adminToken, freshIp())
      if (holdsB(control.text)) adminSawB++
    }
    if (controller.hasExited()) failures.push(`the controller exited: ${controller.output().slice(-2_000)}`)

    expect(failures.slice(0, 30), `${failures.length} answers reached server B`).toEqual([])
    // Not empty: the admin's same requests reach B, and some lists show it to the admin.
    expect(adminSuccesses).toBeGreaterThan(10)
    expect(adminSawB).toBeGreaterThan(0)
    console.log(`${aboutOneServer.length} server routes, ${others.length} other GETs, ${requests} requests as the moderator; admin: ${adminSuccesses} 2xx about B, ${adminSawB} lists showing B`)
  })
})
