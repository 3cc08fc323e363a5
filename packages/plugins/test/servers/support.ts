/**
 * An in-process controller with the servers and players plugins over a fake
 * `ProcessLauncher` (processes the test ends at will), a header
 * authenticator, and throw-away install folders.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import {
  type AnyPlugin,
  GarrisonConfig,
  type ProcessExit,
  type ProcessHandle,
  ProcessLauncher,
  SpawnFailed
} from "@garrison/runtime"
import { Deferred, Duration, Effect, Layer, Logger, LogLevel, Option } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { PlayersPlugin } from "../../src/players/index.js"
import { makeServersPlugin, ServerEntries } from "../../src/servers/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

export const tempDir = (prefix: string): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix))
  created.push(dir)
  return dir
}

/** A fake install: `DayZServer`, `serverDZ.cfg`, a BattlEye config and `@mod` folders. */
export const fakeInstall = (options: { readonly activeConfig?: boolean } = {}): string => {
  const dir = tempDir("garrison-install-")
  Fs.writeFileSync(NodePath.join(dir, "DayZServer"), "#!/bin/sh\n", { mode: 0o755 })
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), `hostname = "Detected Server";  // name\nmaxPlayers = 60;\n`)
  Fs.mkdirSync(NodePath.join(dir, "battleye"))
  Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64.cfg"), "RConPassword filepw\nRConPort 2306\nRConIP 0.0.0.0\n")
  if (options.activeConfig === true) {
    Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64_active_1a2b.cfg"), "RConPassword activepw\nRConPort 2406\n")
  }
  Fs.mkdirSync(NodePath.join(dir, "@CF"))
  Fs.mkdirSync(NodePath.join(dir, "@Trader"))
  return dir
}

/** Processes the test controls. Spawning an entry whose executable is `fails` fails. */
export const makeFakeLauncher = () => {
  const live = new Map<number, Deferred.Deferred<ProcessExit>>()
  let nextPid = 5000
  const handle = (pid: number, exit: Deferred.Deferred<ProcessExit>): ProcessHandle => ({
    pid,
    startToken: `t${pid}`,
    exited: Deferred.await(exit),
    signal: (signal) => Deferred.succeed(exit, { code: null, signal }).pipe(Effect.asVoid)
  })
  const layer = Layer.succeed(ProcessLauncher, {
    spawn: (entry) =>
      entry.executable === "fails"
        ? Effect.fail(new SpawnFailed({ executable: entry.executable, message: "EACCES" }))
        : Effect.map(Deferred.make<ProcessExit>(), (exit) => {
            const pid = nextPid++
            live.set(pid, exit)
            return handle(pid, exit)
          }),
    attach: (pid, token) =>
      Effect.sync(() => {
        const exit = live.get(pid)
        return exit !== undefined && token === `t${pid}` ? Option.some(handle(pid, exit)) : Option.none()
      }),
    usage: () => Effect.succeed(Option.some({ cpu: 3.5, memoryBytes: 123_456 }))
  })
  return { layer }
}

/** `extra`: more plugins loaded after these (for example a recorder of events). */
export const serversController = (extra: ReadonlyArray<AnyPlugin> = []) => {
  const fake = makeFakeLauncher()
  const controller = Controller.layerTest([
    makeServersPlugin({ launcher: fake.layer }),
    PlayersPlugin,
    HeaderAuthPlugin,
    ...extra
  ]).pipe(
    Layer.provide(
      GarrisonConfig.layerWith({ dataDir: tempDir("garrison-servers-"), trustProxyHops: 1, backupInterval: Duration.days(365_000) })
    ),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  // The host takes a dynamic plugin list, so its type cannot say what the plugins provide.
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | ServerEntries, Layer.Layer.Error<typeof controller>>
}

export interface Reply {
  readonly status: number
  // Tests read fields freely; the assertions check them.
  readonly body: Record<string, unknown> & { readonly [key: string]: unknown }
}

/** `as` is `"<user>:<perm,perm>"`. */
export const call = (method: HttpMethod, path: string, options: { readonly as?: string; readonly json?: unknown } = {}) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, body: (text.length === 0 ? {} : JSON.parse(text)) as Reply["body"] } satisfies Reply
  }).pipe(Effect.scoped)

export const ADMIN = "root:admin"
