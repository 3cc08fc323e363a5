/**
 * Test support for the bans plugin: stub servers (the testkit's
 * `StubFleet`: `players` answers what the test sets, every other RCON
 * command is recorded, each with a throw-away install folder) and the
 * controller or bare kernel around them with the bans plugin.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import type { AnyPlugin, GarrisonSettings, ServerStatus } from "@garrison/runtime"
import { type CallOptions, jsonBody, realSleep, request, startKernel, StubFleet, type StubServer, tempDir, testController } from "@garrison/testkit"
import { Duration, Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { type Bans, makeBansPlugin } from "../../src/bans/index.js"
import { PlayersPlugin } from "../../src/players/index.js"

export { eventually, NO_PLAYERS, playersReply, realSleep, sleepingUntil, sleepsOnTestClock, tempDir } from "@garrison/testkit"

export type Fleet = StubFleet
export type FakeServer = StubServer

/** Stub servers with these ids and statuses. */
export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>): Fleet => StubFleet.of(statuses)

/**
 * The controller over the fleet with the bans plugin (no sync debounce), and `extra` plugins (an audit recorder);
 * `settings` over the tests' (a PostgreSQL `databaseUrl`, say).
 */
export const bansController = (fleet: Fleet, extra: ReadonlyArray<AnyPlugin> = [], settings: Partial<GarrisonSettings> = {}) =>
  // The layer also provides the bans plugin's `Bans` service, for tests that compare the routes with it.
  testController<Bans>([...extra, fleet.plugin(), PlayersPlugin, makeBansPlugin({ debounce: Duration.zero })], {
    dataPrefix: "garrison-bans-data-",
    settings: { trustProxyHops: 1, ...settings },
    logLevel: LogLevel.Error
  })

/** The kernel with the fleet and the bans plugin, in its own scope (for TestClock tests), on `dataDir` or a new one. */
export const startRuntime = (fleet: Fleet, dataDir?: string) =>
  Effect.suspend(() => startKernel([fleet.plugin(), PlayersPlugin, makeBansPlugin({ debounce: Duration.zero })], dataDir ?? tempDir("garrison-bans-data-")))

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  // Tests read fields freely; the assertions check them.
  readonly body: Record<string, unknown> & { readonly [key: string]: unknown }
}

/** `as` is `"<user>:<perm,perm>"`; an empty body reads as `{}`. */
export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, headers, text }): Reply => ({ status, headers, body: jsonBody<Reply["body"]>(text, {}) }))

export const readBanFile = (server: FakeServer): string => {
  const path = NodePath.join(server.installDir, "ban.txt")
  return Fs.existsSync(path) ? Fs.readFileSync(path, "latin1") : ""
}

/** Polls (wall-clock) until `check` holds for the server's ban.txt, for at most 3 s; returns the text. */
export const banFileWhen = (server: FakeServer, check: (text: string) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 150; i++) {
      const text = readBanFile(server)
      if (check(text)) return text
      yield* realSleep(20)
    }
    return readBanFile(server)
  })

export const server = (fleet: Fleet, id: string): FakeServer => fleet.server(id)
