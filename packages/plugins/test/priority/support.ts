/**
 * An in-process controller with the real servers plugin (over the fake
 * launcher), the priority plugin and the header authenticator, plus
 * helpers to read a server's `priority.txt`.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { type GarrisonSettings, on, Plugin } from "@garrison/runtime"
import { type CallOptions, fakeFleet, fakeInstall, jsonBody, request, testController } from "@garrison/testkit"
import { Effect, LogLevel, Queue } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { PriorityChanged, PriorityPlugin, type PriorityQueue } from "../../src/priority/index.js"

export const MANAGER = "mia:priority.manage"
export const DEPLOY = "dep:server.deploy,server.start,server.stop,server.restart"

/** A controller whose `PriorityChanged` events land in `events`; `settings` over the defaults (a PostgreSQL `databaseUrl`, say). */
export const makeControllerWith = (settings: Partial<GarrisonSettings>) =>
  Effect.gen(function* () {
    const events = yield* Queue.unbounded<PriorityChanged>()
    const recorder = Plugin.make({ id: "priority-recorder", events: [on(PriorityChanged, (e) => Queue.offer(events, e))] })
    // The layer also provides the plugin's `PriorityQueue`, for tests that compare the routes with it.
    const layer = testController<PriorityQueue>([fakeFleet().plugin, PriorityPlugin, recorder], {
      dataPrefix: "garrison-priority-",
      logLevel: LogLevel.Error,
      settings
    })
    return { layer, events }
  })

/** A controller whose `PriorityChanged` events land in `events`. */
export const makeController = makeControllerWith({})

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

export interface EntryBody {
  readonly id: string
  readonly platformId: string
  readonly playerName: string
  /** Deprecated: the same as `playerName`, answered for one release. */
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
export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, headers, text }): Reply => ({ status, headers, body: jsonBody<unknown>(text, undefined) }))

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
