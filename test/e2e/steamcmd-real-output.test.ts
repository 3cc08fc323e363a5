/**
 * Real SteamCMD output through the built controller (issue 36): the
 * SteamCMD stand-in, switched to print what real SteamCMD prints, checks a
 * Steam account through `POST /api/platform/credentials`. A network outage
 * (`Login Failure: No Connection`, a timed-out login) is a 503 with
 * Retry-After, never "bad credentials"; a good login whose lines ran
 * together when piped is a success.
 *
 * Needs the build (`npm run build`).
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_BEHAVIOUR, setBehaviour } from "../../examples/sim-steamcmd/src/index.js"
import { makeTempDir, removeDir, repoRoot } from "../support/controller.js"
import { makeFleet } from "../support/fleet.js"

const steamDir = makeTempDir("garrison-e2e-steam-")
const installer = spawnSync(process.execPath, [NodePath.join(repoRoot, "examples/sim-steamcmd/dist/install.js"), steamDir], { encoding: "utf8" })
const steamcmdPath = installer.stdout.trim().split("\n").at(-1) ?? ""
const fleet = makeFleet({ env: { STEAMCMD_PATH: steamcmdPath, STEAM_WEB_API_URL: "http://127.0.0.1:9" } })

beforeAll(async () => {
  expect(installer.status, installer.stderr).toBe(0)
  expect(existsSync(steamcmdPath)).toBe(true)
  await fleet.startController()
})

afterAll(async () => {
  await fleet.close()
  removeDir(steamDir)
})

const checkLogin = () => fleet.api("POST", "/api/platform/credentials", { username: "garrison_bot", password: "correct-horse" })

describe.sequential("real SteamCMD output through the controller", () => {
  it("an outage is 503 with Retry-After, and the account is not taken for a wrong one", { timeout: 60_000 }, async () => {
    for (const loginOutage of ["no-connection", "user-info-timeout", "result-code-3"] as const) {
      setBehaviour(steamDir, { ...DEFAULT_BEHAVIOUR, loginOutage })
      const answer = await checkLogin()
      expect([loginOutage, answer.status]).toEqual([loginOutage, 503])
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(JSON.stringify(answer.body)).toContain("could not be reached")
      expect(JSON.stringify(answer.body)).not.toContain("check the account name")
      expect(JSON.stringify(answer.body)).not.toContain("correct-horse")
    }
    expect((await fleet.api("GET", "/api/platform/status")).body).toMatchObject({ credentials: { configured: false } })
  })

  it("a good login whose lines ran together when piped is a success", { timeout: 60_000 }, async () => {
    setBehaviour(steamDir, { ...DEFAULT_BEHAVIOUR, loginOutage: null, pipedOutput: true, warnings: true })
    const answer = await checkLogin()
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({ username: "garrison_bot", validated: true })
    // The same piped output with a wrong password is still a refusal (400), read from the run-together lines.
    const wrong = await fleet.api("POST", "/api/platform/credentials", { username: "garrison_bot", password: "wrong-password" })
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(wrong.body)).toContain("Invalid Password")
  })
})
