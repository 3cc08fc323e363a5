/**
 * Checking a Steam account against what real SteamCMD prints (issue 36):
 * a network outage is 503, not bad credentials (400), and a good login
 * whose lines ran together when piped is stored. The scripts print the
 * lines exactly as real SteamCMD does, without the newlines it leaves out.
 * (Retry-After on the 503 is checked end to end:
 * `test/e2e/steamcmd-real-output.test.ts`.)
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ADMIN, call, platformController } from "./support.js"

/** A `steamcmd.sh` that prints `output` as it is (printf: no newline added) and exits with `code`. */
const printing = (output: string, code: number): string => {
  const path = NodePath.join(tempDir("garrison-platform-steamcmd-"), "steamcmd.sh")
  const escaped = output.replaceAll("'", "'\\''")
  Fs.writeFileSync(path, `#!/bin/sh\nprintf '%s' '${escaped}'\nexit ${code}\n`, { mode: 0o755 })
  return path
}

const BANNER = "Steam Console Client (c) Valve Corporation - version 1718904809\n-- type 'quit' to exit --\n"
const checkLogin = call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })

describe("platform credentials against real SteamCMD output", () => {
  const outages = {
    "Login Failure: No Connection": `${BANNER}Loading Steam API...OK\nLogging in user 'garrison_bot' [U:1:0] to Steam Public...\nLogin Failure: No Connection\n`,
    "Waiting for user info...FAILED (Timed out)": `${BANNER}Loading Steam API...OK\nLogging in user 'garrison_bot' [U:1:0] to Steam Public...OK\nWaiting for client config...OK\nWaiting for user info...FAILED (Timed out)\n`,
    "FAILED with result code 3": `${BANNER}Loading Steam API...OK\nLogging in user 'garrison_bot' to Steam Public...FAILED with result code 3\n`
  }
  for (const [name, output] of Object.entries(outages)) {
    it.scoped(`${name} is 503 (Steam out of reach), not 400 bad credentials, and nothing is stored`, () =>
      Effect.gen(function* () {
        const answer = yield* checkLogin
        expect(answer.status).toBe(503)
        expect(answer.body).toMatchObject({ error: "unavailable" })
        expect(answer.text).toContain("could not be reached")
        expect(answer.text).not.toContain("correct-horse")
        const status = yield* call("GET", "/api/platform/status", { as: ADMIN })
        expect(status.body).toMatchObject({ credentials: { configured: false } })
      }).pipe(Effect.provide(platformController({ STEAMCMD_PATH: printing(output, 5) }))))
  }

  it.scoped("a good login whose lines ran together when piped is stored", () =>
    Effect.gen(function* () {
      const answer = yield* checkLogin
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ username: "garrison_bot", validated: true })
    }).pipe(
      Effect.provide(
        platformController({
          STEAMCMD_PATH: printing(
            `${BANNER}Loading Steam API...OKLogging in user 'garrison_bot' [U:1:0] to Steam Public...OKWaiting for client config...OKWaiting for user info...OKUnloading Steam API...OK`,
            0
          )
        })
      )
    ))
})
