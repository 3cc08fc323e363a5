/**
 * A baseline child process for the servers benchmark: bare `node:http`
 * answering every GET with the bytes of `BODY_FILE` as `application/json`
 * (a copy of a real `GET /api/servers` answer), so the comparison is the
 * same payload without routing, auth, rate limiting or live state.
 * Env: PORT, HOST, BODY_FILE.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const bodyFile = process.env["BODY_FILE"]
if (bodyFile === undefined) throw new Error("BODY_FILE is not set")
// Re-serialised on every request, as a handler building the list would at least have to.
const value: unknown = JSON.parse(readFileSync(bodyFile, "utf8"))
const port = Number(process.env["PORT"])
const host = process.env["HOST"] ?? "127.0.0.1"

const server = createServer((request, response) => {
  if (request.method !== "GET") {
    response.writeHead(405, { "content-type": "application/json" })
    response.end(JSON.stringify({ error: "method-not-allowed" }))
    return
  }
  const body = JSON.stringify(value)
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  response.end(body)
})

server.listen(port, host, () => {
  console.log(`raw JSON server listening on http://${host}:${port}`)
})

process.once("SIGTERM", () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
