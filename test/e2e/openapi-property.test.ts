/**
 * No input produces a 5xx: every operation of `/api/openapi.json` is driven
 * with generated paths, queries and bodies (schema-shaped values with
 * hostile leaves, and hostile raw bodies) against the real controller with
 * the default plugins and a simulated server entry, signed in as an admin
 * (and sometimes not, or with a forged token). Every answer must be below
 * 500 (a 503 only with Retry-After, as "unavailable": a game server that is
 * not reachable yet, or "provider-unavailable": no agent or RCON can do an
 * admin action now, as the spec names it), carry the security headers, and every error must be
 * JSON in the one shape `{error, message, details?}` and small (errors
 * never echo a huge input back).
 *
 * Deterministic: a fixed seed per operation and a bounded number of
 * requests (`PROPERTY_RUNS` per operation, default 20; raise it locally to
 * search harder, and set `PROPERTY_SEED` to try other inputs).
 */
import * as fc from "effect/FastCheck"
import { afterAll, describe, expect, it } from "vitest"
import {
  type ControllerHandle,
  makeTempDir,
  removeDir,
  requestJson,
  startController,
  stopProcess
} from "../support/controller.js"
import { fleetSimArgs, offlineAdminEnv } from "../support/fleet.js"
import { type RawAnswer, sendGenerated } from "../support/generatedRequests.js"
import {
  type GeneratedRequest,
  type OpenApiDocument,
  operationsOf,
  requestsFor
} from "../support/openapiArbitrary.js"
import { installSim, type SimInstall } from "../support/sim.js"

const RUNS = Number(process.env.PROPERTY_RUNS ?? 20)
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123)
const ADMIN = { username: "property-admin", password: "property admin password" }
/** An error body larger than this echoes input back. */
const MAX_ERROR_BYTES = 16 * 1024

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

type Answer = RawAnswer

/** Event streams are cut right after their headers. */
const send = (baseUrl: string, req: GeneratedRequest, token: string, ip: string): Promise<Answer> => sendGenerated(baseUrl, req, token, ip)

/** What is wrong with an answer, or undefined when it keeps the rules. */
const problemWith = (answer: Answer): string | undefined => {
  if (answer.headers["x-content-type-options"] !== "nosniff") return `status ${answer.status} without the security headers`
  if (answer.status < 400) return undefined
  const shapeProblem = errorShapeProblem(answer)
  if (shapeProblem !== undefined) return shapeProblem
  // A 503 is a passing state of a game server (no RCON session or agent yet), never a fault of ours: it says when to retry.
  if (answer.status === 503) {
    const code = (JSON.parse(answer.body.toString("utf8")) as { error: string }).error
    if (code !== "unavailable" && code !== "provider-unavailable") return `503 ${code}: only unavailable and provider-unavailable are passing states`
    return answer.headers["retry-after"] !== undefined ? undefined : `503 ${code} without Retry-After`
  }
  return answer.status >= 500 ? `status ${answer.status}` : undefined
}

/** Errors are JSON in the one shape, and small. */
const errorShapeProblem = (answer: Answer): string | undefined => {
  if (!String(answer.headers["content-type"] ?? "").startsWith("application/json")) {
    return `error ${answer.status} is not JSON (${String(answer.headers["content-type"])})`
  }
  if (answer.body.length > MAX_ERROR_BYTES) return `error body of ${answer.body.length} bytes`
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.body.toString("utf8"))
  } catch {
    return "error body is not valid JSON"
  }
  const shaped =
    typeof parsed === "object" && parsed !== null &&
    typeof (parsed as { error?: unknown }).error === "string" &&
    typeof (parsed as { message?: unknown }).message === "string" &&
    Object.keys(parsed).every((key) => key === "error" || key === "message" || key === "details")
  return shaped ? undefined : "error body is not {error, message, details?}"
}

const describeRequest = (req: GeneratedRequest) => {
  const body = req.body === undefined ? "" : ` body(${req.body.length} B, ${req.contentType}): ${req.body.subarray(0, 200).toString("latin1")}`
  return `${req.method} ${req.target.slice(0, 200)} auth=${req.auth}${body}`
}

describe("the OpenAPI document, driven with generated input", () => {
  it("no operation answers 5xx, and every error has the one shape", { timeout: 600_000 }, async () => {
    const dataDir = makeTempDir()
    cleanups.push(() => removeDir(dataDir))
    const install: SimInstall = await installSim()
    cleanups.push(() => install.remove())
    const controller: ControllerHandle = await startController({
      dataDir,
      logLevel: "Warning",
      env: offlineAdminEnv(dataDir, ADMIN)
    })
    cleanups.push(() => stopProcess(controller))

    let token = ""
    const signIn = async () => {
      const answer = await requestJson(controller.baseUrl, "POST", "/api/auth/login", {
        body: ADMIN,
        headers: { "x-forwarded-for": `10.255.${Math.floor(Math.random() * 250)}.1` }
      })
      token = answer.status === 200 ? (answer.body as { token: string }).token : ""
      return answer.status === 200
    }
    expect(await signIn()).toBe(true)
    const api = (method: string, path: string, body?: unknown) =>
      requestJson(controller.baseUrl, method, path, {
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "10.254.0.1" },
        ...(body === undefined ? {} : { body })
      })

    // Things that exist, so generated ids sometimes reach past the lookups.
    const server = await api("POST", "/api/servers", {
      name: "Property",
      installDir: install.dir,
      gamePort: install.gamePort,
      extraArgs: fleetSimArgs,
      stop: { shutdownWaitMs: 2_000, terminateWaitMs: 1_000 }
    })
    expect(server.status, JSON.stringify(server.body)).toBe(201)
    const serverId = (server.body as { id: string }).id
    cleanups.push(async () => {
      // Generated requests may have started it; game servers outlive the controller by design.
      await signIn()
      const status = await api("GET", `/api/servers/${serverId}/status`).catch(() => undefined)
      await api("POST", `/api/servers/${serverId}/stop`).catch(() => undefined)
      const pid = (status?.body as { pid?: number | null } | undefined)?.pid
      if (typeof pid === "number") {
        try {
          process.kill(pid, "SIGKILL")
        } catch {
          // Already gone.
        }
      }
    })
    const ban = await api("POST", "/api/bans", { platformId: "76561198000000001", playerName: "p", reason: "r" })
    const priority = await api("POST", "/api/priority-queue", { platformId: "76561198000000002", name: "v", role: "VIP" })
    const role = await api("POST", "/api/roles", { name: "property-role", permissions: ["server.view"] })
    const user = await api("POST", "/api/users", { username: "property-user", password: "property user pw", role: "moderator" })
    const job = await api("POST", `/api/servers/${serverId}/scheduler`, { kind: "message", cron: "0 4 * * *", message: "hi" })
    const knownIds = [serverId, ban, priority, role, user, job].flatMap((answer) => {
      const id = typeof answer === "string" ? answer : (answer.body as { id?: unknown } | undefined)?.id
      return typeof id === "string" ? [id] : []
    })
    expect(knownIds.length).toBe(6)

    const document = (await requestJson(controller.baseUrl, "GET", "/api/openapi.json")).body as OpenApiDocument
    const operations = operationsOf(document)
    expect(operations.length).toBeGreaterThan(50)

    const failures: Array<string> = []
    const statuses = new Map<number, number>()
    let adminRequests = 0
    let adminPastAuth = 0
    let ipCounter = 0
    for (const [index, operation] of operations.entries()) {
      const requests = fc.sample(requestsFor(document, operation, knownIds), { seed: SEED + index, numRuns: RUNS })
      for (const req of requests) {
        // A fresh client IP per request keeps the rate limits out of the way of what is tested here.
        ipCounter++
        const ip = `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
        let answer: Answer
        try {
          answer = await send(controller.baseUrl, req, token, ip)
        } catch (error) {
          failures.push(`no answer (${(error as Error).message}) <- ${describeRequest(req)}`)
          continue
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const problem = problemWith(answer)
        if (problem !== undefined) {
          failures.push(`${problem} <- ${describeRequest(req)} => ${answer.body.subarray(0, 300).toString("utf8")}`)
        }
        if (req.auth === "admin") {
          adminRequests++
          if (answer.status !== 401) adminPastAuth++
          // Generated requests may sign the admin out (logout, password change): sign in again.
          else await signIn()
        }
      }
    }
    if (controller.hasExited()) failures.push(`the controller exited: ${controller.output().slice(-2_000)}`)

    expect(failures.slice(0, 40), `${failures.length} answers broke the rules`).toEqual([])
    // The run must have exercised handlers, not only the door: most admin requests got past authentication.
    expect(adminPastAuth / adminRequests).toBeGreaterThan(0.8)
    const byClass = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(" ")
    console.log(`${operations.length} operations, ${RUNS} requests each (seed ${SEED}); statuses ${byClass}`)
  })
})
