/**
 * With the real servers plugin (fake processes): starting a server runs the
 * BeforeServerStart hook, which writes the active bans into its ban.txt.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BAN_BLOCK_BEGIN, BAN_BLOCK_END, makeBansPlugin } from "../../src/bans/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { call } from "./support.js"

const ALL = "op:server.deploy,server.start,server.stop,bans.manage"

const controller = () =>
  testController(
    [
      fakeFleet().plugin,
      PlayersPlugin,
      // A long debounce: only the hook can have written the file when the test looks.
      makeBansPlugin({ debounce: Duration.hours(1) })
    ],
    { dataPrefix: "garrison-bans-start-", settings: { trustProxyHops: 1 }, logLevel: LogLevel.Error }
  )

describe("bans and server start", () => {
  it.scopedLive("the start hook writes ban.txt before the process starts", () =>
    Effect.gen(function* () {
      const installDir = fakeInstall()
      const path = NodePath.join(installDir, "ban.txt")
      Fs.writeFileSync(path, "// owner line\n76561197960265739\n")
      const created = yield* call("POST", "/api/servers", { as: ALL, json: { name: "S", installDir } })
      expect(created.status).toBe(201)
      const added = yield* call("POST", "/api/bans", { as: ALL, json: { platformId: "76561198012345678", playerName: "P", reason: "r" } })
      expect(added.status).toBe(201)
      expect(Fs.readFileSync(path, "utf8")).toBe("// owner line\n76561197960265739\n")
      expect((yield* call("POST", `/api/servers/${String(created.body.id)}/start`, { as: ALL })).status).toBe(200)
      expect(Fs.readFileSync(path, "utf8")).toBe(`// owner line\n76561197960265739\n${BAN_BLOCK_BEGIN}\n76561198012345678\n${BAN_BLOCK_END}\n`)
      expect((yield* call("POST", `/api/servers/${String(created.body.id)}/stop`, { as: ALL })).status).toBe(200)
    }).pipe(Effect.provide(controller()))
  )
})
