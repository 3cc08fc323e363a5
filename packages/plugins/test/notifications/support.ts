/**
 * An in-process controller for the notifications tests: real HTTP on a
 * loopback port (`Controller.layerTest`), a temporary data directory and a
 * header authenticator (`Authorization: Bearer test:<user>:<perm,perm>`,
 * copied from the host's fixtures).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import { type AnyPlugin, GarrisonConfig } from "@garrison/runtime"
import { Duration, Effect, Layer, Logger, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { Notifications, NotificationsPlugin } from "../../src/notifications/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

/** A fresh controller (own data directory) with the notifications plugin. */
export const notificationsController = (extra: ReadonlyArray<AnyPlugin> = []) => {
  const dataDir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-notifications-"))
  created.push(dataDir)
  const controller = Controller.layerTest([NotificationsPlugin, HeaderAuthPlugin, ...extra]).pipe(
    // Tests move the clock by months; scheduled database backups would fire on every step.
    Layer.provide(GarrisonConfig.layerWith({ dataDir, backupInterval: Duration.days(365_000) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  // The host takes a dynamic plugin list, so its type cannot say what the plugins provide.
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | Notifications, Layer.Layer.Error<typeof controller>>
}

export interface Reply {
  readonly status: number
  readonly body: unknown
}

/** `as` is `"<user>:<perm,perm>"`. */
export const call = (
  method: HttpMethod,
  path: string,
  options: { readonly as?: string; readonly json?: unknown } = {}
) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, body: text.length === 0 ? undefined : (JSON.parse(text) as unknown) } satisfies Reply
  }).pipe(Effect.scoped)

/** Polls in real time (for work done on fibers the test clock does not wait for). */
export const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => boolean, timeoutMs = 5000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let value = yield* effect
    while (!check(value)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`condition not met in time; last value ${JSON.stringify(value)}`)
      yield* Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 10)))
      value = yield* effect
    }
    return value
  })
