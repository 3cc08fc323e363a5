/**
 * One HTTP/1.1 request over a raw TCP socket, the request line sent byte
 * for byte as given. HTTP clients normalise URLs (case of the scheme, dot
 * segments, escapes); tests of how the controller reads request targets
 * need the exact spelling on the wire (the in-process controller's port:
 * `serverPort`). A plain Promise, so tests outside Effect use it too.
 */
import { connect } from "node:net"

export interface RawResponse {
  readonly status: number
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface RawRequest {
  readonly port: number
  readonly host?: string
  readonly method: string
  /** The request target exactly as it goes on the wire (latin1 bytes). */
  readonly target: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  readonly timeoutMs?: number
}

/** Sends one request with `Connection: close` and reads the answer until the server closes. */
export const rawRequest = (request: RawRequest): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const host = request.host ?? "127.0.0.1"
    const socket = connect(request.port, host)
    const chunks: Array<Buffer> = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no complete answer to ${request.method} ${JSON.stringify(request.target)} within ${request.timeoutMs ?? 5_000} ms`))
    }, request.timeoutMs ?? 5_000)
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.on("close", () => {
      clearTimeout(timer)
      try {
        resolve(parseResponse(Buffer.concat(chunks)))
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
    const body = request.body ?? ""
    const headers = {
      host: `${host}:${request.port}`,
      connection: "close",
      "content-length": String(Buffer.byteLength(body)),
      ...request.headers
    }
    const head = [`${request.method} ${request.target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n")
    // Not `end()`: Node's server drops requests still in flight when the client half-closes.
    // `Connection: close` makes the server close once it has answered.
    socket.write(Buffer.concat([Buffer.from(head + "\r\n\r\n", "latin1"), Buffer.from(body, "utf8")]))
  })

const parseResponse = (raw: Buffer): RawResponse => {
  const headEnd = raw.indexOf("\r\n\r\n")
  if (headEnd === -1) throw new Error(`not an HTTP response: ${JSON.stringify(raw.toString("latin1").slice(0, 200))}`)
  const [statusLine = "", ...lines] = raw.subarray(0, headEnd).toString("latin1").split("\r\n")
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  if (!Number.isInteger(status)) throw new Error(`bad status line ${JSON.stringify(statusLine)}`)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const rest = raw.subarray(headEnd + 4)
  const body = headers["transfer-encoding"]?.toLowerCase() === "chunked" ? dechunk(rest) : rest
  return { status, headers, body: body.toString("utf8") }
}

const dechunk = (data: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at)
    if (lineEnd === -1) break
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16)
    if (!(size > 0)) break
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}
