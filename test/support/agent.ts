/**
 * The agent as a process, for end-to-end tests and benchmarks: spawn
 * `packages/agent/dist/main.js` (what `garrison-agent` runs) on a free
 * loopback port against a profiles folder, wait until `/health` answers,
 * call it, and stop it. Framework-free, like `controller.ts`. Needs the
 * build (`npx tsc -b`).
 */
import { existsSync } from "node:fs"
import { Agent as HttpAgent, request as httpRequest } from "node:http"
import * as NodePath from "node:path"
import { type ChildHandle, delay, freePort, HOST, repoRoot, spawnNode } from "./controller.js"

export const agentEntry = NodePath.join(repoRoot, "packages/agent/dist/main.js")

export interface AgentOptions {
  /** The game server's profiles folder (`AGENT_PROFILES_DIR`). */
  readonly profiles: string
  /** `SIDECAR_API_KEY`; null for none. Default: a fixed test key. */
  readonly key?: string | null
  /** More settings (`AGENT_COMMAND_TIMEOUT`, `NODE_ENV`, ...). */
  readonly env?: Readonly<Record<string, string>>
  readonly port?: number
}

export interface AgentHandle extends ChildHandle {
  readonly port: number
  readonly baseUrl: string
  readonly key: string | null
  readonly profiles: string
}

export const TEST_AGENT_KEY = "e2e-agent-key-7f3c9a1b5d"

/** Spawns the agent without waiting for it (see `startAgent`). */
export const spawnAgent = async (options: AgentOptions): Promise<AgentHandle> => {
  if (!existsSync(agentEntry)) throw new Error(`${agentEntry} does not exist; run \`npx tsc -b\` from the repository root first`)
  const port = options.port ?? (await freePort())
  const key = options.key === undefined ? TEST_AGENT_KEY : options.key
  const handle = spawnNode({
    args: [agentEntry],
    env: {
      // Whatever the test runner's environment holds, these are the test's.
      SIDECAR_API_KEY: key ?? "",
      INHOUSE_API_KEY: "",
      NODE_ENV: "test",
      AGENT_HOST: HOST,
      AGENT_PORT: String(port),
      AGENT_PROFILES_DIR: options.profiles,
      LOG_LEVEL: "Info",
      ...options.env
    }
  })
  return { ...handle, port, baseUrl: `http://${HOST}:${port}`, key, profiles: options.profiles }
}

export interface AgentAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: unknown
}

/** Kept-alive connections, as a controller keeps them; as many at once as the test asks. */
const connections = new HttpAgent({ keepAlive: true, maxSockets: Infinity })

/**
 * One request to the agent over `node:http` (`key` undefined: the agent's
 * key; null: no Authorization header). Body objects are sent as JSON.
 */
export const callAgent = (
  agent: Pick<AgentHandle, "port" | "key">,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly key?: string | null; readonly headers?: Readonly<Record<string, string>>; readonly timeoutMs?: number } = {}
): Promise<AgentAnswer> =>
  new Promise((resolve, reject) => {
    const key = options.key === undefined ? agent.key : options.key
    const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body)
    const request = httpRequest(
      {
        host: HOST,
        port: agent.port,
        method,
        path,
        agent: connections,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
          ...options.headers
        },
        timeout: options.timeoutMs ?? 30_000
      },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let parsed: unknown = text
          try {
            parsed = text === "" ? undefined : JSON.parse(text)
          } catch {
            // Not JSON: the text itself.
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed })
        })
        response.on("error", reject)
      }
    )
    request.on("timeout", () => request.destroy(new Error(`no answer to ${method} ${path} within ${options.timeoutMs ?? 30_000} ms`)))
    request.on("error", reject)
    request.end(body)
  })

/** Waits until `GET /health` with the key answers 200; rejects with the output if the agent exits first. */
export const waitForAgent = async (agent: AgentHandle, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  let last = "no attempt yet"
  while (Date.now() < deadline) {
    if (agent.hasExited()) {
      const info = await agent.exited
      throw new Error(`the agent exited (code ${info.code}, signal ${info.signal}) before it answered; output:\n${agent.output()}`)
    }
    try {
      const answer = await callAgent(agent, "GET", "/health", { timeoutMs: 1_000 })
      if (answer.status === 200) return
      last = `status ${answer.status}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    await delay(50)
  }
  throw new Error(`the agent did not answer within ${timeoutMs} ms (last: ${last}); output:\n${agent.output()}`)
}

/** Spawns the agent and waits until it answers. */
export const startAgent = async (options: AgentOptions): Promise<AgentHandle> => {
  const agent = await spawnAgent(options)
  await waitForAgent(agent)
  return agent
}

/** Closes the kept-alive connections (the end of a test file). */
export const closeAgentConnections = (): void => connections.destroy()
