/**
 * The web dashboard's static files, served by the controller from a
 * fixture folder (`DASHBOARD_DIR`): hashed assets cached for a year with
 * an ETag (304) and gzip or brotli; `index.html` for `/` and every client
 * route under a strict Content-Security-Policy; 404 in the one shape for a
 * missing file; GET and HEAD only; `/api` untouched. No spelling of a
 * path reads anything outside the folder (it is held in memory, and a
 * symbolic link in it is never followed). Before the dashboard is built,
 * `/` says to run `npm run build`; a bad `DASHBOARD_DIR` stops the start.
 */
import { describe, expect, it } from "@effect/vitest"
import { settingsConfig, StartupError } from "@garrison/runtime"
import { rawRequest, tempDir } from "@garrison/testkit"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import * as Fs from "node:fs"
import { createServer, request } from "node:http"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { defaultDashboardDir, loadDashboard } from "../src/dashboard/DashboardFiles.js"
import { acceptedEncodings, DASHBOARD_CSP, isApiPath, makeStaticHandler } from "../src/dashboard/StaticFiles.js"
import { hostController, type LogLine, serverPort } from "./fixtures.js"

const SECRET = "the-secret-outside-the-dashboard-folder"
const SCRIPT = `// the app\n${Array.from({ length: 200 }, (_, i) => `console.log("line ${i} of the dashboard's script");`).join("\n")}\n`
const STYLE = `body { color: #123456; }\n${Array.from({ length: 60 }, (_, i) => `.c${i} { margin: ${i}px; }`).join("\n")}\n`
const INDEX = '<!doctype html>\n<html lang="en"><head><title>Garrison</title><script type="module" src="/assets/index-3fa9c1.js"></script></head><body><div id="root"></div></body></html>\n'

/** `<tmp>/dist` (the dashboard) beside `<tmp>/secret.txt`, with a link out of it and a dot file inside. */
const fixture = () => {
  const root = tempDir("garrison-dashboard-")
  const dist = NodePath.join(root, "dist")
  Fs.mkdirSync(NodePath.join(dist, "assets"), { recursive: true })
  Fs.writeFileSync(NodePath.join(root, "secret.txt"), SECRET)
  Fs.writeFileSync(NodePath.join(dist, "index.html"), INDEX)
  Fs.writeFileSync(NodePath.join(dist, "robots.txt"), "User-agent: *\nDisallow: /\n")
  Fs.writeFileSync(NodePath.join(dist, "assets", "index-3fa9c1.js"), SCRIPT)
  Fs.writeFileSync(NodePath.join(dist, "assets", "index-77aa01.css"), STYLE)
  Fs.writeFileSync(NodePath.join(dist, "assets", "logo-0b1c2d.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  Fs.writeFileSync(NodePath.join(dist, "assets", "inter-9f8e7d.woff2"), Buffer.alloc(4096, 7))
  Fs.writeFileSync(NodePath.join(dist, ".env"), SECRET)
  Fs.symlinkSync(NodePath.join(root, "secret.txt"), NodePath.join(dist, "assets", "leak.js"))
  Fs.symlinkSync(root, NodePath.join(dist, "up"))
  return dist
}

interface BinaryResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: Buffer
}

/** A request that keeps the body as bytes, undecoded (fetch would decompress it). */
const send = (port: number, path: string, headers: Record<string, string> = {}, method = "GET") =>
  Effect.async<BinaryResponse>((resume) => {
    const outgoing = request({ host: "127.0.0.1", port, path, headers, method }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => resume(Effect.succeed({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) })))
    })
    outgoing.on("error", (error) => resume(Effect.die(error)))
    outgoing.end()
  })

const jsonOf = (response: BinaryResponse) => JSON.parse(response.body.toString("utf8")) as { error: string; message: string }

const guarded = (response: BinaryResponse) => {
  expect(response.headers["x-content-type-options"]).toBe("nosniff")
  expect(response.headers["referrer-policy"]).toBe("no-referrer")
  expect(response.headers["x-frame-options"]).toBe("DENY")
  expect(response.headers["x-request-id"]).toBeDefined()
}

const expectIndex = (response: BinaryResponse, label: string) => {
  expect(response.status, label).toBe(200)
  expect(response.headers["content-type"], label).toBe("text/html; charset=utf-8")
  expect(response.headers["cache-control"], label).toBe("no-cache")
  expect(response.headers["content-security-policy"], label).toBe(DASHBOARD_CSP)
  expect(response.body.toString("utf8"), label).toBe(INDEX)
  guarded(response)
}

const dashboardController = (dir: string) => hostController({ dashboardDir: dir })

describe("the dashboard's static files", () => {
  it.scoped("hashed assets: their type, cached for a year, an ETag and 304, the security headers", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const script = yield* send(port, "/assets/index-3fa9c1.js")
      expect(script.status).toBe(200)
      expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(script.headers["content-encoding"]).toBeUndefined()
      expect(script.headers["vary"]).toBe("accept-encoding")
      expect(script.headers["content-length"]).toBe(String(Buffer.byteLength(SCRIPT)))
      expect(script.body.toString("utf8")).toBe(SCRIPT)
      guarded(script)
      const etag = String(script.headers["etag"])
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)

      for (const [path, type] of [
        ["/assets/index-77aa01.css", "text/css; charset=utf-8"],
        ["/assets/logo-0b1c2d.svg", "image/svg+xml"],
        ["/assets/inter-9f8e7d.woff2", "font/woff2"]
      ] as const) {
        const file = yield* send(port, path, { "accept-encoding": "gzip, br" })
        expect(file.status, path).toBe(200)
        expect(file.headers["content-type"], path).toBe(type)
        expect(file.headers["cache-control"], path).toBe("public, max-age=31536000, immutable")
      }

      // Still good: 304 without a body, for the plain tag, a weak spelling and one of a list.
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const again = yield* send(port, "/assets/index-3fa9c1.js", { "if-none-match": condition })
        expect(again.status, condition).toBe(304)
        expect(again.body.length, condition).toBe(0)
        expect(again.headers["cache-control"], condition).toBe("public, max-age=31536000, immutable")
        guarded(again)
      }
      const changed = yield* send(port, "/assets/index-3fa9c1.js", { "if-none-match": '"not-this-one"' })
      expect(changed.status).toBe(200)
      expect(changed.body.toString("utf8")).toBe(SCRIPT)

      // A file outside assets/ (vite copies public/ there) is revalidated, not kept for a year.
      const robots = yield* send(port, "/robots.txt")
      expect(robots.status).toBe(200)
      expect(robots.headers["content-type"]).toBe("text/plain; charset=utf-8")
      expect(robots.headers["cache-control"]).toBe("no-cache")
    }).pipe(Effect.provide(dashboardController(fixture()))))

  it.scoped("gzip and brotli for clients that take them, compressed once; small and already compressed files as they are", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const gzipped = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "gzip, deflate" })
      expect(gzipped.status).toBe(200)
      expect(gzipped.headers["content-encoding"]).toBe("gzip")
      expect(gzipped.headers["vary"]).toBe("accept-encoding")
      expect(Number(gzipped.headers["content-length"])).toBe(gzipped.body.length)
      expect(gzipped.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 3)
      expect(gunzipSync(gzipped.body).toString("utf8")).toBe(SCRIPT)

      const brotli = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "gzip, deflate, br" })
      expect(brotli.headers["content-encoding"]).toBe("br")
      expect(brotliDecompressSync(brotli.body).toString("utf8")).toBe(SCRIPT)
      // Each encoding has its own tag; any of the file's tags is still good.
      expect(brotli.headers["etag"]).not.toBe(gzipped.headers["etag"])
      const held = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "br", "if-none-match": String(gzipped.headers["etag"]) })
      expect(held.status).toBe(304)

      // Kept, not made again: the same bytes on the next request.
      const brotliAgain = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "br" })
      expect(brotliAgain.body.equals(brotli.body)).toBe(true)

      const refused = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "br;q=0, gzip;q=0, *" })
      expect(refused.headers["content-encoding"]).toBeUndefined()
      expect(refused.body.toString("utf8")).toBe(SCRIPT)

      const css = yield* send(port, "/assets/index-77aa01.css", { "accept-encoding": "gzip" })
      expect(css.headers["content-encoding"]).toBe("gzip")
      expect(gunzipSync(css.body).toString("utf8")).toBe(STYLE)

      const index = yield* send(port, "/", { "accept-encoding": "gzip" })
      // Shorter than is worth compressing.
      expect(index.headers["content-encoding"]).toBeUndefined()
      const svg = yield* send(port, "/assets/logo-0b1c2d.svg", { "accept-encoding": "gzip, br" })
      expect(svg.headers["content-encoding"]).toBeUndefined()
      const font = yield* send(port, "/assets/inter-9f8e7d.woff2", { "accept-encoding": "gzip, br" })
      expect(font.headers["content-encoding"]).toBeUndefined()
      expect(font.headers["vary"]).toBeUndefined()
      expect(font.body.length).toBe(4096)
    }).pipe(Effect.provide(dashboardController(fixture()))))

  it.scoped("/ and every client route answer index.html under the strict policy; /api is left to the API", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      for (const path of ["/", "/index.html", "/servers", "/servers/", "/servers/12/players", "//servers//12", "/apis", "/api-keys", "/settings?tab=mfa"]) {
        expectIndex(yield* send(port, path), path)
      }
      const index = yield* send(port, "/")
      const revalidated = yield* send(port, "/servers/7", { "if-none-match": String(index.headers["etag"]) })
      expect(revalidated.status).toBe(304)
      expect(revalidated.headers["content-security-policy"]).toBe(DASHBOARD_CSP)

      // Under /api, in any spelling, the API answers: JSON, never the page.
      for (const path of ["/api", "/api/no-such-route", "/API/no-such-route", "/%61pi/nothing", "/api/assets/index-3fa9c1.js"]) {
        const answer = yield* send(port, path)
        expect(answer.status, path).toBe(404)
        expect(answer.headers["content-type"], path).toBe("application/json")
        expect(answer.headers["cache-control"], path).toBe("no-store")
        expect(jsonOf(answer).error, path).toBe("not-found")
      }
      const ping = yield* send(port, "/api/health/ping")
      expect(ping.body.toString("utf8")).toBe('{"status":"ok"}')
      expect(ping.headers["content-security-policy"]).toBe("frame-ancestors 'none'")
    }).pipe(Effect.provide(dashboardController(fixture()))))

  it.scoped("a file the folder lacks is a 404 in the one shape", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      for (const path of ["/assets/index-000000.js", "/favicon.ico", "/servers/12/report.pdf", "/assets/leak.js", "/.env", "/up/secret.txt"]) {
        const missing = yield* send(port, path)
        expect(missing.status, path).toBe(404)
        expect(missing.headers["content-type"], path).toBe("application/json")
        expect(missing.headers["cache-control"], path).toBe("no-store")
        const body = jsonOf(missing)
        expect(body.error, path).toBe("not-found")
        expect(body.message, path).toBe(`no file ${path}`)
        guarded(missing)
      }
    }).pipe(Effect.provide(dashboardController(fixture()))))

  it.scoped("GET and HEAD only: HEAD has GET's headers and no body; other methods are 405 with Allow", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const get = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "gzip" })
      const head = yield* send(port, "/assets/index-3fa9c1.js", { "accept-encoding": "gzip" }, "HEAD")
      expect(head.status).toBe(200)
      expect(head.body.length).toBe(0)
      for (const name of ["content-type", "content-length", "content-encoding", "etag", "cache-control", "vary"]) {
        expect(head.headers[name], name).toBe(get.headers[name])
      }
      const headIndex = yield* send(port, "/servers/3", {}, "HEAD")
      expect(headIndex.status).toBe(200)
      expect(headIndex.headers["content-length"]).toBe(String(Buffer.byteLength(INDEX)))
      expect(headIndex.headers["content-security-policy"]).toBe(DASHBOARD_CSP)
      expect(headIndex.body.length).toBe(0)

      for (const [method, path] of [["POST", "/"], ["PUT", "/assets/index-3fa9c1.js"], ["DELETE", "/servers/1"], ["OPTIONS", "/"], ["PATCH", "/assets/missing.js"]]) {
        const refused = yield* send(port, path!, {}, method)
        expect(refused.status, `${method} ${path}`).toBe(405)
        expect(refused.headers["allow"], `${method} ${path}`).toBe("GET, HEAD")
        expect(jsonOf(refused), `${method} ${path}`).toEqual({ error: "method-not-allowed", message: `${method} is not allowed on ${path}; it takes GET, HEAD` })
      }
    }).pipe(Effect.provide(dashboardController(fixture()))))

  it.scoped("no spelling of a path leaves the folder", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const targets = [
        "/assets/../../etc/passwd",
        "/assets/../../secret.txt",
        "/../secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/assets/%2E%2E/%2E%2E/etc/passwd",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/assets\\..\\..\\secret.txt",
        "/assets/..\\..\\secret.txt",
        "/assets/%5c..%5c..%5csecret.txt",
        "/assets/index-3fa9c1.js%00",
        "/assets/%00../../secret.txt",
        "/assets/index-3fa9c1.js%00.png",
        "/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt",
        "/assets/%c0%af..%c0%afsecret.txt",
        "/assets/%e0%80%ae%e0%80%ae/secret.txt",
        "/assets/%252e%252e/secret.txt",
        "/up/secret.txt",
        "/assets/leak.js",
        "/.env",
        "//etc/passwd",
        "/etc/passwd",
        "/assets//..//..//secret.txt",
        "http://x/../secret.txt",
        "http://x/assets/%2e%2e/%2e%2e/secret.txt",
        `/assets/${"../".repeat(40)}etc/passwd`,
        `/assets/${"a".repeat(8000)}.js`,
        "/proc/self/environ"
      ]
      const passwd = Fs.existsSync("/etc/passwd") ? Fs.readFileSync("/etc/passwd", "utf8").slice(0, 20) : "root:x:0:0"
      for (const target of targets) {
        const answer = yield* Effect.promise(() => rawRequest({ port, method: "GET", target }))
        expect(answer.body, target).not.toContain(SECRET)
        expect(answer.body, target).not.toContain(passwd)
        if (answer.status === 200) {
          // A path without an extension is a client route: the app's page, nothing else.
          expect(answer.body, target).toBe(INDEX)
          continue
        }
        expect([400, 404], target).toContain(answer.status)
        expect(answer.headers["content-type"], target).toBe("application/json")
        const body = JSON.parse(answer.body) as { error: string }
        expect(["invalid-request", "not-found"], target).toContain(body.error)
      }
      // The file itself is still there to be served, by its one name.
      expect((yield* send(port, "/assets/index-3fa9c1.js")).status).toBe(200)
    }).pipe(Effect.provide(dashboardController(fixture()))))
})

describe("the dashboard's folder", () => {
  const logs: Array<LogLine> = []
  const dist = fixture()
  it.scoped("is named in the start-up log, before the controller listens", () =>
    Effect.gen(function* () {
      yield* serverPort
      const messages = logs.map((line) => line.message)
      const named = messages.findIndex((m) => /^web dashboard: 6 files \(\d+ KiB\) from /.test(m) && m.endsWith(` from ${dist}`))
      expect(named, messages.join("\n")).toBeGreaterThanOrEqual(0)
      expect(named).toBeLessThan(messages.findIndex((m) => m.startsWith("listening on")))
    }).pipe(Effect.provide(hostController({ dashboardDir: dist }, { logs }))))

  it.effect("is held in memory at start: files changed or added later are not read", () =>
    Effect.gen(function* () {
      const dist = fixture()
      const dashboard = yield* loadDashboard(dist)
      expect(dashboard._tag).toBe("Built")
      if (dashboard._tag !== "Built") return
      expect([...dashboard.files.keys()].sort()).toEqual([
        "/assets/index-3fa9c1.js",
        "/assets/index-77aa01.css",
        "/assets/inter-9f8e7d.woff2",
        "/assets/logo-0b1c2d.svg",
        "/index.html",
        "/robots.txt"
      ])
      Fs.writeFileSync(NodePath.join(dist, "assets", "index-3fa9c1.js"), "changed")
      Fs.writeFileSync(NodePath.join(dist, "assets", "late-111111.js"), "late")
      const server = yield* servedBy(makeStaticHandler(dashboard))
      expect((yield* send(server, "/assets/index-3fa9c1.js")).body.toString("utf8")).toBe(SCRIPT)
      expect((yield* send(server, "/assets/late-111111.js")).status).toBe(404)
    }).pipe(Effect.scoped))

  it.effect("not built: / and client routes say to run npm run build (no script), assets are 404", () =>
    Effect.gen(function* () {
      const empty = NodePath.join(tempDir("garrison-dashboard-"), "dist")
      const defaulted = yield* loadDashboard(undefined).pipe(Effect.map((d) => d._tag))
      expect(["Built", "NotBuilt"]).toContain(defaulted)
      const port = yield* servedBy(makeStaticHandler({ _tag: "NotBuilt", dir: empty }))
      for (const path of ["/", "/servers/1"]) {
        const page = yield* send(port, path)
        expect(page.status, path).toBe(200)
        expect(page.headers["content-type"], path).toBe("text/html; charset=utf-8")
        expect(page.headers["cache-control"], path).toBe("no-store")
        expect(page.headers["content-security-policy"], path).toBe(DASHBOARD_CSP)
        const html = page.body.toString("utf8")
        expect(html, path).toContain("npm run build")
        expect(html, path).not.toMatch(/<script|<style|style=|on[a-z]+=/i)
      }
      const asset = yield* send(port, "/assets/index-3fa9c1.js")
      expect(asset.status).toBe(404)
      expect(jsonOf(asset).error).toBe("not-found")
    }).pipe(Effect.scoped))

  it.effect("a DASHBOARD_DIR that is missing or has no index.html stops the start with one line", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-dashboard-")
      const missing = NodePath.join(root, "nowhere")
      const noIndex = NodePath.join(root, "dist")
      Fs.mkdirSync(noIndex)
      Fs.writeFileSync(NodePath.join(noIndex, "app.js"), "1")
      for (const [dir, why] of [[missing, "no such folder"], [noIndex, "has no index.html"]] as const) {
        const exit = yield* Effect.exit(Layer.build(hostController({ dashboardDir: dir })).pipe(Effect.scoped))
        expect(Exit.isFailure(exit), dir).toBe(true)
        if (Exit.isFailure(exit)) {
          const text = JSON.stringify(exit.cause)
          expect(text).toContain(`DASHBOARD_DIR ${dir}: ${why}`)
        }
        const direct = yield* Effect.flip(loadDashboard(dir))
        expect(direct).toBeInstanceOf(StartupError)
        expect(direct.message).toContain(why)
      }
    }))

  it.effect("DASHBOARD_DIR is read from the settings, resolved against the working directory", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        settingsConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))), Effect.map((s) => s.dashboardDir))
      expect(yield* read({})).toBeUndefined()
      expect(yield* read({ DASHBOARD_DIR: "" })).toBeUndefined()
      expect(yield* read({ DASHBOARD_DIR: "web/dist" })).toBe(NodePath.resolve("web/dist"))
      expect(yield* read({ DASHBOARD_DIR: "/srv/garrison/dashboard" })).toBe("/srv/garrison/dashboard")
    }))

  it("by default is packages/dashboard/dist, from the sources, the compiled files and the bundle alike", () => {
    const http = NodePath.resolve(import.meta.dirname, "..")
    const expected = NodePath.resolve(http, "..", "dashboard", "dist")
    expect(defaultDashboardDir()).toBe(expected)
    for (const module of ["src/dashboard/DashboardFiles.ts", "dist/dashboard/DashboardFiles.js", "dist/garrison.mjs"]) {
      expect(defaultDashboardDir(pathToFileURL(NodePath.join(http, module)).href), module).toBe(expected)
    }
    expect(defaultDashboardDir("file:///")).toBeUndefined()
  })

  it("/api in any case is the API's; encodings follow Accept-Encoding", () => {
    for (const path of ["/api", "/api/x", "/API/x", "/Api"]) expect(isApiPath(path), path).toBe(true)
    for (const path of ["/", "/apis", "/apix/y", "/ap", "/assets/api", "/x/api"]) expect(isApiPath(path), path).toBe(false)
    expect(acceptedEncodings(undefined)).toEqual({ br: false, gzip: false })
    expect(acceptedEncodings("gzip, deflate, br")).toEqual({ br: true, gzip: true })
    expect(acceptedEncodings("br;q=0, *")).toEqual({ br: false, gzip: true })
    expect(acceptedEncodings("GZIP;q=0.5")).toEqual({ br: false, gzip: true })
    expect(acceptedEncodings("identity")).toEqual({ br: false, gzip: false })
  })
})

/** A bare Node server answering every request with `handler` (as the gate would hand it over), on a loopback port. */
const servedBy = (handler: ReturnType<typeof makeStaticHandler>) =>
  Effect.acquireRelease(
    Effect.async<{ port: number; close: () => void }>((resume) => {
      const server = createServer((req, res) => handler(req, res, (req.url ?? "/").split("?")[0]!, "test"))
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed({ port: typeof address === "object" && address !== null ? address.port : 0, close: () => server.close() }))
      })
    }),
    (server) => Effect.sync(() => server.close())
  ).pipe(Effect.map((server) => server.port))
