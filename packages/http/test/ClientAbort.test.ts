/**
 * A client that hangs up mid-request: while its body is still arriving,
 * and while a slow handler runs. Either way one Info line says so, nothing
 * is logged as an error or as a 500, and the audit trail keeps a row (marked
 * aborted) only when the handler had started.
 */
import { HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import * as Net from "node:net"
import { auditRecorder, watchHangHandler, type LogLine, hostController } from "./fixtures.js"

const serverPort = Effect.flatMap(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? Effect.succeed(server.address.port) : Effect.dieMessage("expected a TCP address")
)

/** A raw connection that sends `head` (and part of a body) and stays open until closed by the test. */
const openConnection = (port: number, head: string) =>
  Effect.acquireRelease(
    Effect.async<Net.Socket>((resume) => {
      const socket = Net.connect(port, "127.0.0.1", () => {
        socket.write(head)
        resume(Effect.succeed(socket))
      })
      socket.on("error", () => {})
    }),
    (socket) => Effect.sync(() => socket.destroy())
  )

/**
 * Like `openConnection`, for a head with `Expect: 100-continue`: Node answers `100 Continue` as it
 * hands the request to the server, and only then is `bodyPart` sent. So the server is reading
 * the body (or about to) when the test hangs up.
 */
const openAfterContinue = (port: number, head: string, bodyPart: string) =>
  Effect.acquireRelease(
    Effect.async<Net.Socket>((resume) => {
      let seen = ""
      const socket = Net.connect(port, "127.0.0.1", () => socket.write(head))
      socket.on("data", (chunk: Buffer) => {
        seen += chunk.toString("latin1")
        if (seen.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
          socket.removeAllListeners("data")
          socket.write(bodyPart)
          resume(Effect.succeed(socket))
        } else if (seen.includes("\r\n\r\n")) {
          resume(Effect.dieMessage(`expected 100 Continue, got ${JSON.stringify(seen)}`))
        }
      })
      socket.on("error", () => {})
    }),
    (socket) => Effect.sync(() => socket.destroy())
  )

/**
 * A request after the abort, waited for until its own request line is logged: the marker after
 * which nothing more of the aborted request may show (the abort line is the front door's last
 * word on a request; only the platform's writing of the unread answer comes after it).
 */
const markerRequest = (port: number, logs: ReadonlyArray<LogLine>) =>
  Effect.gen(function* () {
    const status = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${port}/api/whoami`, { headers: { authorization: "Bearer test:marker:" } }).then(async (response) => {
        await response.arrayBuffer()
        return response.status
      })
    )
    expect(status).toBe(200)
    yield* eventually(() => logs.some((line) => /^GET \/api\/whoami 200 \d+ms$/.test(line.message)))
  })

const requestHead = (path: string, contentLength: number, extra: ReadonlyArray<string> = []) =>
  [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${contentLength}`,
    "Authorization: Bearer test:alice:echo.use",
    ...extra,
    "",
    ""
  ].join("\r\n")

const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls in real time: the controller's fibers log on their own schedule. */
const eventually = (check: () => boolean) =>
  Effect.gen(function* () {
    const deadline = Date.now() + 5_000
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.dieMessage("condition not met within 5 s")
      yield* realSleep(10)
    }
  })

const abortLine = (logs: ReadonlyArray<LogLine>, path: string) =>
  logs.filter((line) => line.message.includes(`POST ${path} aborted by the client after`))

// The echo fixture leaves its endpoints without summaries on purpose (DocsScript asserts that start-up warning).
const troubles = (logs: ReadonlyArray<LogLine>) =>
  logs.filter(
    (line) =>
      (LogLevel.greaterThanEqual(line.level, LogLevel.Warning) && !line.message.includes("without an OpenAPI summary")) ||
      // A 499 or 500 in an access line (`POST /api/echo 500 3ms`), not in a port number (`listening on ...:38499`).
      / (499|500) \d+ms$|request failed|internal error/.test(line.message)
  )

/** A controller of its own, with its log lines and audit rows. */
const scenario = <A, E, R>(run: (logs: ReadonlyArray<LogLine>, audit: ReturnType<typeof auditRecorder>) => Effect.Effect<A, E, R>) => {
  const logs: Array<LogLine> = []
  const audit = auditRecorder()
  return run(logs, audit).pipe(Effect.provide(hostController({}, { logs, plugins: [audit.plugin] })))
}

describe("a client that aborts mid-request", () => {
  it.scoped("while its body is read: one Info line, no error, no 500, no audit row", () =>
    scenario((logs, audit) => Effect.gen(function* () {
      const port = yield* serverPort
      const socket = yield* openAfterContinue(port, requestHead("/api/echo", 1000, ["Expect: 100-continue"]), `{"text":"half a bo`)
      // The server has the request and half its body: hang up.
      socket.destroy()
      yield* eventually(() => abortLine(logs, "/api/echo").length > 0)
      yield* markerRequest(port, logs)

      const lines = abortLine(logs, "/api/echo")
      expect(lines).toHaveLength(1)
      expect(lines[0]!.level).toEqual(LogLevel.Info)
      expect(lines[0]!.message).toMatch(/^POST \/api\/echo aborted by the client after \d+ms$/)
      expect(troubles(logs)).toEqual([])
      expect(audit.rows).toEqual([])
    })))

  it.scoped("while a slow handler runs: one Info line, no error, no 500, an audit row marked aborted", () =>
    scenario((logs, audit) => Effect.gen(function* () {
      const port = yield* serverPort
      const started = yield* watchHangHandler
      const body = JSON.stringify({ text: "wait for me" })
      const socket = yield* openConnection(port, `${requestHead("/api/echo/hang", Buffer.byteLength(body))}${body}`)
      yield* started
      socket.destroy()
      yield* eventually(() => abortLine(logs, "/api/echo/hang").length > 0 && audit.rows.length > 0)
      yield* markerRequest(port, logs)

      const lines = abortLine(logs, "/api/echo/hang")
      expect(lines).toHaveLength(1)
      expect(lines[0]!.level).toEqual(LogLevel.Info)
      expect(troubles(logs)).toEqual([])
      expect(audit.rows).toEqual([
        {
          actor: "alice",
          actorName: "alice",
          ip: "127.0.0.1",
          action: "http.POST /api/echo/hang",
          target: "/api/echo/hang",
          result: "failure",
          details: { status: 499, aborted: true, requestId: expect.any(String) }
        }
      ])
    })))
})
