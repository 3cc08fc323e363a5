/**
 * Requests Node's HTTP parser refuses before any handler sees them (a
 * request line or headers over `maxHeaderSize`, bytes HTTP does not allow,
 * a malformed chunk): answered in the controller's one error shape with the
 * security headers, instead of Node's bare `400 Bad Request`.
 *
 * Mirrors Node's own `socketOnError`: an answer is written only when no
 * response on this connection has started sending, so a pipelined
 * connection never gets bytes in the middle of another answer. The socket
 * is then half-closed, and what the client is still sending is read and
 * dropped, so it sees the answer instead of a connection reset.
 */
import type { ErrorCode } from "@garrison/runtime"
import { errorStatus } from "@garrison/runtime"
import type { Server } from "node:http"
import { STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { securityHeaders } from "./SecurityHeaders.js"

/** How long a refused client may keep sending before its connection is dropped. */
const DRAIN_MS = 5_000

interface ParserError extends Error {
  readonly code?: string
}

const answerFor = (error: ParserError): { readonly code: ErrorCode; readonly message: string } => {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return { code: "headers-too-large", message: "the request line and headers are too large (at most 16 KiB together)" }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { code: "payload-too-large", message: "chunk extensions are too large" }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { code: "request-timeout", message: "the request was not received in time" }
    default:
      return { code: "invalid-request", message: "the request is not valid HTTP/1.1 (request line, header names or values, or body framing)" }
  }
}

const rawAnswer = (code: ErrorCode, message: string): string => {
  const status = errorStatus[code]
  const body = JSON.stringify({ error: code, message })
  const headers = Object.entries({
    ...securityHeaders,
    "cache-control": "no-store",
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close"
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n${headers}\r\n${body}`
}

/** Node's in-flight response on a socket (what its own handler checks; not in the typings). */
const responseStarted = (socket: Duplex): boolean => {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  return inFlight?.headersSent === true
}

export const answerClientErrors = (server: Server): void => {
  server.on("clientError", (error: ParserError, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable || responseStarted(socket)) {
      socket.destroy()
      return
    }
    const { code, message } = answerFor(error)
    socket.end(rawAnswer(code, message))
    socket.resume()
    setTimeout(() => socket.destroy(), DRAIN_MS).unref()
  })
}
