/**
 * One POST to a webhook's target, over `node:http`/`node:https`:
 *
 * - the address is checked where it is connected to: the agents' `lookup`
 *   resolves the host and hands the socket only addresses that pass
 *   `blockedAddress` (so a name that resolves to a public address when the
 *   webhook is saved and to 127.0.0.1 when it is called, DNS rebinding,
 *   still reaches nothing private); a host written as an IP address, which
 *   Node connects to without a lookup, is checked before the request;
 * - no redirect is followed (Node's client follows none: a 3xx is an answer);
 * - at most `maxResponseBytes` of the answer are read, then the connection
 *   is closed;
 * - connections are kept alive between requests to the same host and
 *   port (a webhook sends many), for at most `IDLE_SOCKET_MS` idle: shorter
 *   than common servers' own keep-alive (Node's 5 s), so the client closes
 *   an idle connection before the server can, and a request is never sent
 *   on a connection the server is closing. A kept connection was checked
 *   when it was made: its peer cannot change, so reusing it reaches nothing
 *   a new lookup would refuse.
 *
 * The time limit is the caller's (Effect's `Clock`); interrupting the
 * effect destroys the request.
 */
import * as Effect from "effect/Effect"
import * as Dns from "node:dns"
import * as Http from "node:http"
import * as Https from "node:https"
import type * as Net from "node:net"
import { blockedAddress, isIpLiteral } from "./address.js"

export type OutboundResult =
  /** The target answered (any status). `body` holds at most the bytes asked for. */
  | {
      readonly _tag: "Answered"
      readonly status: number
      readonly retryAfter: string | undefined
      readonly body: Buffer
    }
  /** The target's address is one webhooks may not reach. */
  | { readonly _tag: "Refused"; readonly reason: string }
  /** No answer: the name did not resolve, the connection failed or broke, TLS failed. */
  | { readonly _tag: "Unreachable"; readonly reason: string }

export interface OutboundRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly maxResponseBytes: number
}

const REFUSED = "EWEBHOOKADDRESS"

/** How long a kept-alive connection may sit idle before the client closes it. */
const IDLE_SOCKET_MS = 4_000

/** A `lookup` that resolves as Node would and keeps only the addresses webhooks may reach. */
const guardedLookup: Net.LookupFunction = (hostname, options, callback) => {
  Dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    const allowed = addresses.filter((entry) => blockedAddress(entry.address) === undefined)
    const first = addresses[0]
    if (allowed.length === 0 || first === undefined) {
      const refusal: NodeJS.ErrnoException = new Error(
        first === undefined
          ? `${hostname} resolves to no address`
          : `${hostname} resolves to ${first.address}, ${blockedAddress(first.address) ?? "an address webhooks may not reach"}`
      )
      refusal.code = REFUSED
      return callback(refusal, [])
    }
    if (options.all === true) return callback(null, allowed)
    return callback(null, allowed[0]!.address, allowed[0]!.family)
  })
}

export interface Outbound {
  readonly post: (request: OutboundRequest) => Effect.Effect<OutboundResult>
}

/** The sender; with `allowPrivate` (`WEBHOOKS_ALLOW_PRIVATE`) every address may be reached. */
export const makeOutbound = (allowPrivate: boolean): Outbound => {
  const kept = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" as const }
  const options = allowPrivate ? kept : { ...kept, lookup: guardedLookup }
  const httpAgent = new Http.Agent(options)
  const httpsAgent = new Https.Agent(options)

  const post = (request: OutboundRequest): Effect.Effect<OutboundResult> =>
    Effect.async<OutboundResult>((resume) => {
      let url: URL
      try {
        url = new URL(request.url)
      } catch {
        resume(Effect.succeed({ _tag: "Unreachable", reason: "the stored URL cannot be read" }))
        return
      }
      if (!allowPrivate && isIpLiteral(url.hostname)) {
        const why = blockedAddress(url.hostname)
        if (why !== undefined) {
          resume(Effect.succeed({ _tag: "Refused", reason: `${url.hostname} is ${why}` }))
          return
        }
      }
      let settled = false
      const settle = (result: OutboundResult) => {
        if (settled) return
        settled = true
        resume(Effect.succeed(result))
      }
      const body = Buffer.from(request.body, "utf8")
      const client = url.protocol === "https:" ? Https : Http
      const req = client.request(
        url,
        {
          method: "POST",
          agent: url.protocol === "https:" ? httpsAgent : httpAgent,
          headers: { ...request.headers, "content-length": String(body.length) }
        },
        (res) => {
          const chunks: Array<Buffer> = []
          let kept = 0
          const done = () =>
            settle({
              _tag: "Answered",
              status: res.statusCode ?? 0,
              retryAfter: typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : undefined,
              body: Buffer.concat(chunks)
            })
          res.on("data", (chunk: Buffer) => {
            if (kept >= request.maxResponseBytes) return
            const part = chunk.subarray(0, request.maxResponseBytes - kept)
            chunks.push(part)
            kept += part.length
            // Enough read: the rest of the answer is not wanted.
            if (kept >= request.maxResponseBytes) {
              done()
              res.destroy()
            }
          })
          res.on("end", done)
          // A connection that breaks after the status line still answered.
          res.on("error", done)
          res.on("close", done)
        }
      )
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === REFUSED) settle({ _tag: "Refused", reason: error.message })
        else settle({ _tag: "Unreachable", reason: describeError(error) })
      })
      req.end(body)
      return Effect.sync(() => {
        settled = true
        req.destroy()
      })
    })

  return { post }
}

/** A connection failure in a few words, without a stack. */
const describeError = (error: NodeJS.ErrnoException): string => {
  switch (error.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name did not resolve"
    case "ECONNREFUSED":
      return "the connection was refused"
    case "ECONNRESET":
      return "the connection was reset"
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host is unreachable"
    case "ETIMEDOUT":
      return "the connection timed out"
    default:
      return error.code === undefined ? `the request failed: ${error.message}` : `the request failed (${error.code})`
  }
}
