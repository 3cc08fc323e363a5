/**
 * The stand-in's switches for real SteamCMD output (issue 36): each prints
 * the lines public bug reports show, and Garrison's parser, fed the run's
 * output as the product reads it, judges each as the real line means.
 */
import { describe, expect, it } from "vitest"
import { parseSteamCmdOutput, type SteamCmdLine } from "../../../packages/runtime/src/steam/SteamCmdOutput.js"
import { type CatalogueBehaviour, setBehaviour } from "../src/catalogue.js"
import { run, steamHome } from "./support.js"

const LOGIN = ["+login", "garrison_bot", "correct-horse"]

/** A run with `behaviour` changed, and every line as the product's parser reads it. */
const runWith = async (behaviour: Partial<CatalogueBehaviour>, argv: ReadonlyArray<string>) => {
  const home = steamHome()
  setBehaviour(home, behaviour)
  const ran = await run(home, argv)
  const judged: ReadonlyArray<SteamCmdLine> = ran.lines.flatMap((raw) => parseSteamCmdOutput(raw).map((piece) => piece.line))
  return { ...ran, judged }
}

const failures = (judged: ReadonlyArray<SteamCmdLine>) =>
  judged.filter((l) => l._tag === "LoginFailed" || l._tag === "AppFailed" || l._tag === "ItemFailed")

describe("real SteamCMD output from the stand-in", () => {
  it("loginOutage: No Connection, a timed-out user info, result code 3: outages, whatever the password", async () => {
    const none = await runWith({ loginOutage: "no-connection" }, [...LOGIN, "+quit"])
    expect(none.lines).toContain("Login Failure: No Connection")
    expect(none.code).toBe(3)
    expect(failures(none.judged)).toEqual([{ _tag: "LoginFailed", kind: "no-connection", reason: "No Connection" }])

    const timedOut = await runWith({ loginOutage: "user-info-timeout" }, ["+login", "garrison_bot", "not-the-password", "+quit"])
    expect(timedOut.lines).toContain("Waiting for user info...FAILED (Timed out)")
    expect(timedOut.code).toBe(10)
    expect(failures(timedOut.judged)).toEqual([{ _tag: "LoginFailed", kind: "no-connection", reason: "Timed out" }])

    const code3 = await runWith({ loginOutage: "result-code-3" }, [...LOGIN, "+quit"])
    expect(code3.lines).toContain("Logging in user 'garrison_bot' [U:1:0] to Steam Public...FAILED with result code 3")
    expect(failures(code3.judged)).toMatchObject([{ _tag: "LoginFailed", kind: "no-connection" }])
  })

  it("pipedOutput: the login's lines run together, and still read as logged in; a refusal's lines carry trailing text", async () => {
    const ok = await runWith({ pipedOutput: true }, [...LOGIN, "+quit"])
    expect(ok.lines).toContain(
      "Loading Steam API...OKLogging in user 'garrison_bot' [U:1:0] to Steam Public...OKWaiting for client config...OKWaiting for user info...OK"
    )
    expect(ok.code).toBe(0)
    expect(ok.judged.some((l) => l._tag === "LoggedIn")).toBe(true)
    expect(failures(ok.judged)).toEqual([])

    const wrong = await runWith({ pipedOutput: true }, ["+login", "garrison_bot", "wrong", "+quit"])
    expect(wrong.output).toContain("FAILED (Invalid Password)Login Failure: Invalid Password\n")
    expect(failures(wrong.judged)).toEqual([
      { _tag: "LoginFailed", kind: "bad-credentials", reason: "Invalid Password" },
      { _tag: "LoginFailed", kind: "bad-credentials", reason: "Invalid Password" }
    ])
  })

  it("decimalComma, allUpdateStates and warnings: 0x3, 0x5, 0x11 with 0,00 between Warning lines, read as progress", async () => {
    const ran = await runWith({ decimalComma: true, allUpdateStates: true, warnings: true }, [...LOGIN, "+app_update", "223350", "validate", "+quit"])
    expect(ran.code).toBe(0)
    expect(ran.lines).toContain(" Update state (0x3) reconfiguring, progress: 0,00 (0 / 0)")
    expect(ran.lines).toContain(" Update state (0x5) verifying install, progress: 0,00 (0 / 2000000)")
    expect(ran.lines).toContain(" Update state (0x11) preallocating, progress: 0,00 (0 / 2000000)")
    expect(ran.lines).toContain(" Update state (0x81) verifying update, progress: 100,00 (2000000 / 2000000)")
    expect(ran.lines.filter((l) => l.startsWith("Warning:")).length).toBe(2)
    const progress = ran.judged.filter((l): l is Extract<SteamCmdLine, { _tag: "Progress" }> => l._tag === "Progress")
    expect(progress.slice(0, 3).map((p) => p.stage)).toEqual(["reconfiguring", "verifying install", "preallocating"])
    expect(progress.at(-1)).toMatchObject({ stage: "verifying update", percent: 100, done: 2_000_000 })
    expect(progress.every((p) => Number.isFinite(p.percent))).toBe(true)
    expect(failures(ran.judged)).toEqual([])
    expect(ran.judged).toContainEqual({ _tag: "AppInstalled", appId: "223350" })
  })

  it("appFailure no-match and ioFailureItems: failures with Steam's reasons", async () => {
    const app = await runWith({ appFailure: "no-match" }, [...LOGIN, "+app_update", "223350", "+quit"])
    expect(app.lines).toContain("ERROR! Failed to install app '223350' (No match)")
    expect(app.code).toBe(8)
    expect(failures(app.judged)).toEqual([{ _tag: "AppFailed", appId: "223350", kind: "not-found", reason: "No match" }])

    const item = await runWith({ ioFailureItems: ["1559212036"] }, [...LOGIN, "+workshop_download_item", "221100", "1559212036", "+quit"])
    expect(item.lines).toContain("ERROR! Download item 1559212036 failed (I/O Operation Failed).")
    expect(item.code).toBe(8)
    expect(failures(item.judged)).toEqual([{ _tag: "ItemFailed", itemId: "1559212036", kind: "failed", reason: "I/O Operation Failed" }])
  })
})
