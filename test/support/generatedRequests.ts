/**
 * Sending a generated request (`openapiArbitrary.ts`) exactly as generated:
 * the raw target, the raw body, the credentials it asks for. Framework-free,
 * like the other support modules.
 */
import { Agent, request as httpRequest } from "node:http"
import type { GeneratedRequest } from "./openapiArbitrary.js"

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: Buffer
}

export interface SendOptions {
  /** How long an event stream is read before it is cut (default 0: right after its headers). */
  readonly streamMs?: number
  /** At most this much of a stream is kept (default 64 KiB). */
  readonly streamBytes?: number
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 })

/** One request from `ip` (`x-forwarded-for`), with `token` as the "admin" credentials, a forged one, or none. */
export const sendGenerated = (baseUrl: string, req: GeneratedRequest, token: string, ip: string, options: SendOptions = {}): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl)
    const headers: Record<string, string | number> = { "x-forwarded-for": ip }
    if (req.auth === "admin") headers.authorization = `Bearer ${token}`
    if (req.auth === "forged") headers.authorization = `Bearer ${token.slice(0, -4)}AAAA`
    if (req.body !== undefined) {
      headers["content-type"] = req.contentType ?? "application/json"
      headers["content-length"] = req.body.length
    }
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent, timeout: 20_000 }, (incoming) => {
      const chunks: Array<Buffer> = []
      let size = 0
      let settled = false
      const done = () => {
        if (settled) return
        settled = true
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) })
      }
      incoming.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size <= (options.streamBytes ?? 64 * 1024)) chunks.push(chunk)
      })
      if (String(incoming.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        const cut = setTimeout(() => {
          incoming.destroy()
          done()
        }, options.streamMs ?? 0)
        incoming.on("close", () => {
          clearTimeout(cut)
          done()
        })
      } else {
        incoming.on("end", done)
        incoming.on("error", reject)
      }
    })
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 20 s")))
    outgoing.on("error", reject)
    outgoing.end(req.body)
  })
