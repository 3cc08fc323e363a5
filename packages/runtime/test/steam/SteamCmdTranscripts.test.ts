/**
 * Real SteamCMD output, as public bug reports show it, judged line by line
 * and as whole runs (issue 36). The transcripts in `fixtures/` are written
 * here in SteamCMD's format: lines that ran together when piped, a decimal
 * comma, login failures that are outages, not bad credentials, failure lines
 * with trailing text, the update states beyond downloading, and `Warning:`
 * lines between the ones that matter.
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit/core"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { runSteamCmd, type SteamCmdJob } from "../../src/steam/SteamCmd.js"
import { parseSteamCmdOutput, type SteamCmdLine } from "../../src/steam/SteamCmdOutput.js"

const fixture = (name: string) => NodePath.join(import.meta.dirname, "fixtures", name)

/** Every line of a transcript, as the runner reads it (run-together lines cut apart). */
const judged = (name: string): ReadonlyArray<SteamCmdLine> =>
  Fs.readFileSync(fixture(name), "utf8")
    .split("\n")
    .flatMap((raw) => parseSteamCmdOutput(raw).map((piece) => piece.line))

const tagged = <T extends SteamCmdLine["_tag"]>(lines: ReadonlyArray<SteamCmdLine>, tag: T) =>
  lines.filter((line): line is Extract<SteamCmdLine, { _tag: T }> => line._tag === tag)

describe("real SteamCMD transcripts, line by line", () => {
  it("Login Failure: No Connection is Steam out of reach, not bad credentials", () => {
    expect(tagged(judged("login-no-connection.txt"), "LoginFailed")).toEqual([{ _tag: "LoginFailed", kind: "no-connection", reason: "No Connection" }])
  })

  it("a login whose lines ran together when piped is a success, and the lines around it are read too", () => {
    const lines = judged("login-run-together.txt")
    expect(tagged(lines, "LoggedIn").length).toBeGreaterThan(0)
    expect(tagged(lines, "LoginFailed")).toEqual([])
    expect(lines.filter((l) => l._tag === "Other").map((l) => (l as { text: string }).text)).toContain("Unloading Steam API...OK")
  })

  it("Waiting for user info...FAILED (Timed out) is an outage after a good password", () => {
    expect(tagged(judged("login-user-info-timed-out.txt"), "LoginFailed")).toEqual([{ _tag: "LoginFailed", kind: "no-connection", reason: "Timed out" }])
  })

  it("FAILED with result code 3 is Steam's No Connection", () => {
    expect(tagged(judged("login-result-code-3.txt"), "LoginFailed")).toEqual([
      { _tag: "LoginFailed", kind: "no-connection", reason: "result code 3 (No Connection)" }
    ])
  })

  it("a failure line with trailing text keeps only its reason", () => {
    expect(tagged(judged("login-invalid-password-trailing.txt"), "LoginFailed")).toEqual([
      { _tag: "LoginFailed", kind: "bad-credentials", reason: "Invalid Password" },
      { _tag: "LoginFailed", kind: "bad-credentials", reason: "Invalid Password" }
    ])
    expect(tagged(judged("workshop-io-failure-trailing.txt"), "ItemFailed")).toContainEqual({
      _tag: "ItemFailed",
      itemId: "1564026768",
      kind: "failed",
      reason: "Failure"
    })
  })

  it("progress with a decimal comma, and the update states 0x3, 0x11, 0x5, between Warning lines", () => {
    const lines = judged("app-update-decimal-comma.txt")
    expect(tagged(lines, "Progress").map((p) => [p.stage, p.percent, p.done, p.total])).toEqual([
      ["reconfiguring", 0, 0, 0],
      ["preallocating", 0, 0, 123],
      ["downloading", 0, 0, 123],
      ["downloading", 45.53, 56, 123],
      ["verifying install", 81.3, 100, 123],
      ["verifying update", 100, 123, 123]
    ])
    // A Warning line is only a remark: no failure, the run still installs.
    expect(lines.filter((l) => l._tag === "LoginFailed" || l._tag === "AppFailed")).toEqual([])
    expect(tagged(lines, "AppInstalled")).toEqual([{ _tag: "AppInstalled", appId: "223350" }])
  })

  it("ERROR! Failed to install app (No match) is an app Steam does not know", () => {
    expect(tagged(judged("app-no-match.txt"), "AppFailed")).toEqual([{ _tag: "AppFailed", appId: "223350", kind: "not-found", reason: "No match" }])
  })

  it("I/O Operation Failed is a failure with its reason; an assertion message is not", () => {
    const lines = judged("workshop-io-failure-trailing.txt")
    expect(tagged(lines, "ItemFailed")).toEqual([
      { _tag: "ItemFailed", itemId: "1559212036", kind: "failed", reason: "I/O Operation Failed" },
      { _tag: "ItemFailed", itemId: "1564026768", kind: "failed", reason: "Failure" }
    ])
    expect(lines.at(-1)?._tag).toBe("Other")
  })
})

const job: SteamCmdJob = {
  installDir: "/srv/dayz",
  login: { _tag: "Account", username: "garrison_bot", password: "s3cret-pass" },
  steps: []
}

/** A SteamCMD that prints a transcript as it is (no newline added) and exits with `code`. */
const replaying = (name: string, code: number): string => {
  const path = NodePath.join(tempDir("garrison-steamcmd-"), "steamcmd.sh")
  Fs.writeFileSync(path, `#!/bin/sh\ncat '${fixture(name)}'\nexit ${code}\n`, { mode: 0o755 })
  return path
}

describe("real SteamCMD transcripts, as whole runs", () => {
  it.effect("an outage fails the run as no-connection (a 503), whatever the exit code says", () =>
    Effect.gen(function* () {
      for (const name of ["login-no-connection.txt", "login-user-info-timed-out.txt", "login-result-code-3.txt"]) {
        const error = yield* Effect.flip(runSteamCmd(replaying(name, 5), job))
        expect([name, error.reason]).toEqual([name, "no-connection"])
        expect(error.message).toContain("could not be reached")
      }
    }))

  it.effect("a login whose lines ran together is logged in", () =>
    Effect.gen(function* () {
      const report = yield* runSteamCmd(replaying("login-run-together.txt", 0), job)
      expect(report.loggedIn).toBe(true)
      expect(report.lastLine).toBe("Unloading Steam API...OK")
    }))
})
