/**
 * An in-process controller with the real servers plugin (over the fake
 * launcher from the servers tests), the priority plugin and a header
 * authenticator, plus helpers to read a server's `priority.txt`.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import { GarrisonConfig, on, Plugin } from "@garrison/runtime"
import { Duration, Effect, Layer, Logger, LogLevel, Queue } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { PriorityChanged, PriorityPlugin } from "../../src/priority/index.js"
import { HeaderAuthPlugin } from "../scheduler/support.js"
import { fakeInstall, makeFakeLauncher, tempDir } from "../servers/support.js"
import { makeServersPlugin } from "../../src/servers/index.js"

export const MANAGER = "mia:priority.manage"
export const DEPLOY = "dep:server.deploy,server.start,server.stop,server.restart"

/** A controller whose `PriorityChanged` events land in `events`. */
export const makeController = Effect.gen(function* () {
  const events = yield* Queue.unbounded<PriorityChanged>()
  const recorder = Plugin.make({ id: "priority-recorder", events: [on(PriorityChanged, (e) => Queue.offer(events, e))] })
  const layer = Controller.layerTest([
    makeServersPlugin({ launcher: makeFakeLauncher().layer }),
    PriorityPlugin,
    HeaderAuthPlugin,
    recorder
  ]).pipe(
    Layer.provide(GarrisonConfig.layerWith({ dataDir: tempDir("garrison-priority-"), backupInterval: Duration.days(365_000) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
  return { layer, events }
})

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

export interface EntryBody {
  readonly id: string
  readonly platformId: string
  readonly name: string
  readonly role: string
  readonly expiresAt: string | null
  readonly addedBy: string
  readonly addedAt: string
}
export interface PageBody {
  readonly items: ReadonlyArray<EntryBody>
  readonly nextCursor: string | null
}
export interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly details?: unknown
}
// The assertions check the shapes; these only name them.
export const entry = (reply: Reply) => reply.body as EntryBody
export const page = (reply: Reply) => reply.body as PageBody
export const failure = (reply: Reply) => reply.body as ErrorBody

/** `as` is `"<user>:<perm,perm>"`. */
export const call = (method: HttpMethod, path: string, options: { readonly as?: string; readonly json?: unknown } = {}) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return {
      status: response.status,
      headers: response.headers,
      body: text.length === 0 ? undefined : (JSON.parse(text) as unknown)
    } satisfies Reply
  }).pipe(Effect.scoped)

/** Creates a server entry over a fresh fake install; returns its id and folder. */
export const createServer = (name: string) =>
  Effect.gen(function* () {
    const installDir = fakeInstall()
    const reply = yield* call("POST", "/api/servers", { as: DEPLOY, json: { name, installDir } })
    if (reply.status !== 201) return yield* Effect.dieMessage(`create server: ${reply.status} ${JSON.stringify(reply.body)}`)
    return { id: (reply.body as { id: string }).id, installDir }
  })

/** The server's `priority.txt`, or undefined when there is none. */
export const priorityFile = (installDir: string): string | undefined => {
  const path = NodePath.join(installDir, "priority.txt")
  return Fs.existsSync(path) ? Fs.readFileSync(path, "utf8") : undefined
}

// Three valid forms of the worked example player, and others.
export const STEAM64 = "76561198012345678"
export const STEAM2 = "STEAM_0:0:26039975"
export const STEAM3 = "[U:1:52079950]"
export const OTHER = "76561198000000001"
export const THIRD = "76561198000000002"
