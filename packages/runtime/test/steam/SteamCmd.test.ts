/**
 * SteamCMD's output read line by line, its command line built from a job,
 * and the runner against small scripts that print what SteamCMD prints:
 * results come from the output (not the exit code alone), secrets never
 * show, a missing executable is named, and an interrupt ends the whole
 * process group. (The full stand-in, `examples/sim-steamcmd`, is exercised
 * by the mods and platform tests.)
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually, tempDir } from "@garrison/testkit/core"
import { Effect, Fiber } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  jobProblem,
  runSteamCmd,
  steamCmdArguments,
  type SteamCmdJob
} from "../../src/steam/SteamCmd.js"
import { cleanLine, parseSteamCmdLine } from "../../src/steam/SteamCmdOutput.js"

describe("SteamCMD output lines", () => {
  it("reads progress, results and failures in the shapes SteamCMD prints", () => {
    expect(parseSteamCmdLine(" Update state (0x61) downloading, progress: 45.12 (123 / 456)")).toEqual({
      _tag: "Progress",
      stage: "downloading",
      percent: 45.12,
      done: 123,
      total: 456
    })
    expect(parseSteamCmdLine("Success! App '223350' fully installed.")).toEqual({ _tag: "AppInstalled", appId: "223350" })
    expect(parseSteamCmdLine(" Success! App '223350' already up to date.")).toEqual({ _tag: "AppUpToDate", appId: "223350" })
    expect(parseSteamCmdLine("Error! App '223350' state is 0x202 after update job.")).toMatchObject({ _tag: "AppFailed", kind: "disk-full" })
    expect(parseSteamCmdLine("Error! App '223350' state is 0x6 after update job.")).toMatchObject({ _tag: "AppFailed", kind: "timeout" })
    expect(parseSteamCmdLine("ERROR! Failed to install app '223350' (No subscription)")).toMatchObject({
      _tag: "AppFailed",
      kind: "no-subscription"
    })
    expect(parseSteamCmdLine('Success. Downloaded item 1559212036 to "/srv/steamapps/workshop/content/221100/1559212036" (300000 bytes) ')).toEqual({
      _tag: "ItemDownloaded",
      itemId: "1559212036",
      path: "/srv/steamapps/workshop/content/221100/1559212036",
      bytes: 300000
    })
    expect(parseSteamCmdLine("ERROR! Timeout downloading item 1559212036")).toMatchObject({ _tag: "ItemFailed", kind: "timeout" })
    expect(parseSteamCmdLine("ERROR! Download item 42 failed (File Not Found).")).toMatchObject({ _tag: "ItemFailed", kind: "not-found" })
    expect(parseSteamCmdLine("ERROR! Download item 42 failed (Disk Write Failure).")).toMatchObject({ _tag: "ItemFailed", kind: "disk-full" })
    expect(parseSteamCmdLine("Login Failure: Invalid Password")).toMatchObject({ _tag: "LoginFailed", kind: "bad-credentials" })
    expect(parseSteamCmdLine("Logging in user 'bot' [U:1:0] to Steam Public...FAILED (Invalid Login Auth Code)")).toMatchObject({
      _tag: "LoginFailed",
      kind: "bad-credentials"
    })
    expect(parseSteamCmdLine("FAILED (Account Logon Denied)")).toMatchObject({ _tag: "LoginFailed", kind: "guard-code-needed" })
    expect(parseSteamCmdLine("Steam Guard code:")._tag).toBe("GuardCodeNeeded")
    expect(parseSteamCmdLine("Logging in user 'bot' [U:1:0] to Steam Public...OK")._tag).toBe("LoggedIn")
    expect(parseSteamCmdLine("Loading Steam API...OK")._tag).toBe("Other")
  })

  it("drops colour codes and keeps the last rewrite of a carriage-returned line", () => {
    expect(cleanLine("\u001b[0m[  0%] Checking\r Update state (0x61) downloading, progress: 1.00 (1 / 100)\r")).toBe(
      "Update state (0x61) downloading, progress: 1.00 (1 / 100)"
    )
  })
})

const job = (over: Partial<SteamCmdJob> = {}): SteamCmdJob => ({
  installDir: "/srv/dayz",
  login: { _tag: "Account", username: "garrison_bot", password: "s3cret-pass" },
  steps: [{ _tag: "AppUpdate", appId: "223350", validate: true }],
  ...over
})

describe("SteamCMD command line", () => {
  it("puts the folder before the login, never prompts, and ends with +quit", () => {
    expect(
      steamCmdArguments(
        job({
          login: { _tag: "Account", username: "garrison_bot", password: "pw!x", guardCode: "F4K3C" },
          steps: [
            { _tag: "AppUpdate", appId: "223350", validate: false, beta: "experimental" },
            { _tag: "WorkshopDownload", appId: "221100", itemId: "1559212036", validate: true }
          ]
        })
      )
    ).toEqual([
      "+@NoPromptForPassword", "1",
      "+force_install_dir", "/srv/dayz",
      "+login", "garrison_bot", "pw!x", "F4K3C",
      "+app_update", "223350", "-beta", "experimental",
      "+workshop_download_item", "221100", "1559212036", "validate",
      "+quit"
    ])
  })

  it("refuses what SteamCMD would read as another command, or what is not an id", () => {
    expect(jobProblem(job({ installDir: "relative/dir" }))).toContain("absolute")
    expect(jobProblem(job({ login: { _tag: "Account", username: "a b", password: "x" } }))).toContain("account name")
    expect(jobProblem(job({ login: { _tag: "Account", username: "bot", password: "+quit" } }))).toContain("must not start")
    expect(jobProblem(job({ login: { _tag: "Account", username: "bot", password: "a\nb" } }))).toContain("control")
    expect(jobProblem(job({ login: { _tag: "Account", username: "bot", password: "pw", guardCode: "1234567" } }))).toContain("Guard")
    expect(jobProblem(job({ steps: [{ _tag: "WorkshopDownload", appId: "221100", itemId: "12; rm -rf /", validate: false }] }))).toContain("workshop id")
    expect(jobProblem(job())).toBeUndefined()
  })
})

/** An executable script in a fresh folder that prints `lines` and exits with `code`. */
const script = (body: string): string => {
  const dir = tempDir("garrison-steamcmd-")
  const path = NodePath.join(dir, "steamcmd.sh")
  Fs.writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return path
}

describe("running SteamCMD", () => {
  it.effect("judges steps by their output lines, and hands each line over in order with the password masked", () =>
    Effect.gen(function* () {
      const exe = script(
        [
          `echo "Logging in user 'garrison_bot' [U:1:0] to Steam Public...OK"`,
          `echo "debug: argv had s3cret-pass in it"`,
          `echo " Update state (0x61) downloading, progress: 50.00 (1 / 2)"`,
          `echo "Success! App '223350' fully installed."`,
          `echo "ERROR! Timeout downloading item 99"`,
          // SteamCMD's exit codes lie: this one says 1 for a run that installed the app.
          "exit 1"
        ].join("\n")
      )
      const seen: Array<string> = []
      const report = yield* runSteamCmd(
        exe,
        job({ steps: [{ _tag: "AppUpdate", appId: "223350", validate: false }, { _tag: "WorkshopDownload", appId: "221100", itemId: "99", validate: false }] }),
        { onLine: (line, text) => Effect.sync(() => void seen.push(`${line._tag}:${text}`)) }
      )
      expect(report.exitCode).toBe(1)
      expect(report.loggedIn).toBe(true)
      expect(report.steps.map((s) => [s.ok, s.failure?.kind])).toEqual([[true, undefined], [false, "timeout"]])
      expect(seen.join("\n")).not.toContain("s3cret-pass")
      expect(seen).toContain("Other:debug: argv had ******** in it")
      expect(seen.map((s) => s.split(":")[0])).toEqual(["LoggedIn", "Other", "Progress", "AppInstalled", "ItemFailed"])
    }))

  it.effect("a failed login fails the run, naming a needed Steam Guard code apart from a bad password", () =>
    Effect.gen(function* () {
      const guard = yield* Effect.flip(runSteamCmd(script(`echo "Steam Guard code:"; echo "FAILED (Account Logon Denied)"; exit 63`), job()))
      expect(guard.reason).toBe("guard-code-needed")
      expect(guard.message).toContain("Steam Guard code")
      const bad = yield* Effect.flip(runSteamCmd(script(`echo "Login Failure: Invalid Password"; exit 5`), job()))
      expect(bad.reason).toBe("bad-credentials")
      expect(bad.message).not.toContain("s3cret-pass")
    }))

  it.effect("a step the output never settles failed; a missing executable is named", () =>
    Effect.gen(function* () {
      const report = yield* runSteamCmd(script(`echo "Loading Steam API...OK"; exit 10`), job())
      expect(report.steps[0]).toMatchObject({ ok: false, failure: { kind: "timeout" } })
      const missing = yield* Effect.flip(runSteamCmd("/nonexistent/steamcmd.sh", job()))
      expect(missing.reason).toBe("not-installed")
      expect(missing.message).toContain("/nonexistent/steamcmd.sh")
      expect((yield* Effect.flip(runSteamCmd("/bin/true", job({ installDir: "x" })))).reason).toBe("invalid-job")
    }))

  it.live("interrupting a run ends the process and the children it started", () =>
    Effect.gen(function* () {
      const dir = tempDir("garrison-steamcmd-")
      const childPid = NodePath.join(dir, "child.pid")
      // Like steamcmd.sh: a shell that starts the real worker as a child, which ignores nothing.
      const exe = script(`sleep 60 & echo $! > '${childPid}'; echo "Downloading item 1 ..."; wait`)
      let started = false
      const fiber = yield* Effect.fork(
        runSteamCmd(exe, job(), { killGrace: "2 seconds", onLine: () => Effect.sync(() => void (started = true)) })
      )
      yield* eventually(Effect.sync(() => started), (holds) => holds, 10_000, "the first line of output")
      const pid = Number(Fs.readFileSync(childPid, "utf8"))
      expect(isAlive(pid)).toBe(true)
      yield* Fiber.interrupt(fiber)
      // The signal is sent before the interrupt returns; the kernel may take a moment to end the child on a busy machine.
      yield* eventually(Effect.sync(() => isAlive(pid)), (alive) => !alive, 5_000, "the child to end")
    }))
})

/** Running, not a zombie waiting for whoever adopted it to reap it. */
const isAlive = (pid: number) => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}
