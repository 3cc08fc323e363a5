/**
 * A fake tile source (node:http on 127.0.0.1, counting what it is asked)
 * and an in-process controller with the maps plugin on a data directory
 * the test can look into.
 */
import { tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as NodePath from "node:path"
import { MapsPlugin, type MapTiles } from "../../src/maps/index.js"

/** Any signed-in caller: no permission at all. */
export const SIGNED_IN = "vic:"

/** What the fake answers, changed as a test goes. */
export interface Behaviour {
  readonly status: number
  readonly contentType: string | null
  /** The body for a request path; default: a small WebP-shaped file naming the path. */
  readonly body: (path: string) => Buffer
  /** Wait this long before answering. */
  readonly delayMs: number
}

export interface SeenRequest {
  readonly path: string
  readonly authorization: string | undefined
}

export interface FakeSource {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly requests: Array<SeenRequest>
  behave: (change: Partial<Behaviour>) => void
  /** Stops listening and drops open connections: the source is offline. */
  readonly stop: () => Promise<void>
}

/** `RIFF <size> WEBP VP8L` and the path: passes the WebP check, differs per tile. */
export const fakeWebp = (path: string): Buffer => {
  const payload = Buffer.from(`VP8L tile ${path}`)
  const size = Buffer.alloc(4)
  size.writeUInt32LE(4 + payload.length)
  return Buffer.concat([Buffer.from("RIFF"), size, Buffer.from("WEBP"), payload])
}

const DEFAULT_BEHAVIOUR: Behaviour = { status: 200, contentType: "image/webp", body: fakeWebp, delayMs: 0 }

export const startFakeSource = (): Promise<FakeSource> =>
  new Promise((resolve, reject) => {
    let behaviour = DEFAULT_BEHAVIOUR
    const requests: Array<SeenRequest> = []
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      requests.push({ path: request.url ?? "", authorization: request.headers.authorization })
      const answer = () => {
        const body = behaviour.status === 200 ? behaviour.body(request.url ?? "") : Buffer.from("nope")
        const headers: Record<string, string | number> = { "content-length": body.length }
        if (behaviour.contentType !== null) headers["content-type"] = behaviour.contentType
        response.writeHead(behaviour.status, headers)
        response.end(body)
      }
      if (behaviour.delayMs > 0) setTimeout(answer, behaviour.delayMs)
      else answer()
    })
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        origin: `http://127.0.0.1:${port}`,
        requests,
        behave: (change) => {
          behaviour = { ...behaviour, ...change }
        },
        stop: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

/** The fake source for the test's scope, stopped at its end (if the test did not stop it). */
export const fakeSource = Effect.acquireRelease(
  Effect.promise(startFakeSource),
  (source) => Effect.promise(() => source.stop().catch(() => undefined))
)

/** The template that points at the fake. */
export const templateFor = (source: FakeSource) => `${source.origin}/tiles/{map}/{style}/{z}/{x}/{y}.webp`

/** The controller with the maps plugin, on `dataDir` (a fresh one when left out). */
export const mapsController = (config: Readonly<Record<string, string>>, dataDir = tempDir("garrison-maps-data-")) =>
  testController<MapTiles>([MapsPlugin], { dataPrefix: "garrison-maps-", logLevel: LogLevel.Error, config, settings: { dataDir } })

/** Every file under `dir`, relative to it, sorted. */
export const filesUnder = (dir: string): ReadonlyArray<string> => {
  if (!Fs.existsSync(dir)) return []
  const out: Array<string> = []
  const walk = (at: string) => {
    for (const entry of Fs.readdirSync(at, { withFileTypes: true })) {
      const path = NodePath.join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else out.push(NodePath.relative(dir, path))
    }
  }
  walk(dir)
  return out.sort()
}
