/**
 * An agent stand-in on a loopback port, answering as the real agent's
 * contract says: `/health` with the mod's liveness, `{ok: true, data}` for
 * actions, and the error answers (401 wrong key, 422 the mod refused, 504
 * the mod did not answer) when the test asks for them. It records every
 * request it got, so a test can prove a bad body never reached it.
 */
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface AgentCall {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

export interface FakeAgent {
  readonly url: string
  readonly key: string
  readonly calls: Array<AgentCall>
  /** What the next actions answer: ok (with data from `data`), the mod refusing, or timing out. */
  mode: "ok" | "refuse" | "timeout"
  /** Whether `/health` says the mod answers. */
  modAnswering: boolean
  /** Data answered for an action path, else `{done: <path>}`. */
  readonly data: Map<string, unknown>
}

export const startFakeAgent = (key = "agent-test-key") =>
  Effect.acquireRelease(
    Effect.async<{ readonly agent: FakeAgent; readonly server: Http.Server }>((resume) => {
      const agent: FakeAgent = { url: "", key, calls: [], mode: "ok", modAnswering: true, data: new Map() }
      const server = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const send = (status: number, body: unknown) => {
            response.writeHead(status, { "content-type": "application/json" })
            response.end(JSON.stringify(body))
          }
          if (request.headers.authorization !== `Bearer ${key}`) return send(401, { ok: false, error: "Authorization required" })
          const url = new URL(request.url ?? "/", "http://agent")
          const text = Buffer.concat(chunks).toString("utf8")
          const body = text.length === 0 ? Object.fromEntries(url.searchParams) : (JSON.parse(text) as unknown)
          if (url.pathname === "/health") {
            return send(200, {
              status: "ok",
              version: "test",
              uptime: 1,
              queueDir: "/tmp/commands",
              mod: { answering: agent.modAnswering, lastResponseAgeMs: 100, heartbeatAgeMs: 100, pending: 0, oldestPendingMs: null }
            })
          }
          agent.calls.push({ method: request.method ?? "GET", path: url.pathname, body })
          if (agent.mode === "refuse") return send(422, { ok: false, error: "player not online", id: "c-1" })
          if (agent.mode === "timeout") return send(504, { ok: false, error: "Command timed out after 10000ms", id: "c-2" })
          return send(200, { ok: true, data: agent.data.get(url.pathname) ?? { done: url.pathname } })
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ agent: Object.assign(agent, { url: `http://127.0.0.1:${port}` }), server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ agent }) => agent))
