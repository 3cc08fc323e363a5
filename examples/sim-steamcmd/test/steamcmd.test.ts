/**
 * SteamCMD runs in process (`runSteamCmd`, what `steamcmd.sh` runs): the
 * output lines, exit codes and files of each command. The same through
 * the real process, signals included, are in steamcmd.e2e.test.ts.
 */
import { tempDir } from "@garrison/testkit"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import {
  DATA_FILE,
  defaultCatalogue,
  installedBuildId,
  installedItems,
  itemManifestId,
  publishAppBuild,
  publishItemVersion,
  readCatalogue,
  setBehaviour,
  workshopFolders
} from "../src/index.js"
import { fastCatalogue, run, steamHome, waitFor } from "./support.js"

const BOT = ["+login", "garrison_bot", "correct-horse"]
const CF = "1559212036"

/** A stand-in and an install folder of its own. */
const fresh = () => ({ home: steamHome(), dir: tempDir("garrison-steamcmd-srv-") })

describe("banner and commands", () => {
  it("prints the banner, says so for unknown commands and carries on, and quits without +quit", async () => {
    const { home } = fresh()
    const { code, lines } = await run(home, ["+frobnicate", "x", "+login", "anonymous"])
    expect(code).toBe(0)
    expect(lines.slice(0, 6)).toEqual([
      `Redirecting stderr to '${home}/Steam/logs/stderr.txt'`,
      "[  0%] Checking for available updates...",
      "[----] Verifying installation...",
      "Steam Console Client (c) Valve Corporation - version 1718904809",
      "-- type 'quit' to exit --",
      "Loading Steam API...OK"
    ])
    expect(lines.slice(6)).toEqual([
      'Unknown command "frobnicate"',
      "Connecting anonymously to Steam Public...OK",
      "Waiting for client config...OK",
      "Waiting for user info...OK",
      ""
    ])
  })

  it("accepts the @ settings", async () => {
    const { home } = fresh()
    const { code, output } = await run(home, ["+@ShutdownOnFailedCommand", "1", "+@NoPromptForPassword", "1", "+@sSteamCmdForcePlatformType", "windows", "+quit"])
    expect(code).toBe(0)
    expect(output).not.toContain("Unknown command")
  })
})

describe("login", () => {
  it("an account logs in with its password", async () => {
    const { code, output } = await run(fresh().home, [...BOT, "+quit"])
    expect(code).toBe(0)
    expect(output).toContain("Logging in user 'garrison_bot' [U:1:0] to Steam Public...OK\nWaiting for client config...OK\nWaiting for user info...OK\n")
  })

  it("a wrong password (or an unknown account) ends the run with 5, the password never printed", async () => {
    const { home, dir } = fresh()
    for (const user of ["garrison_bot", "nobody"]) {
      const { code, output } = await run(home, ["+force_install_dir", dir, "+login", user, "hunter2-secret", "+app_update", "223350", "+quit"])
      expect(code).toBe(5)
      expect(output).toContain(`Logging in user '${user}' [U:1:0] to Steam Public...\nFAILED (Invalid Password)\nLogin Failure: Invalid Password\n`)
      expect(output).not.toContain("hunter2-secret")
      expect(output).not.toContain("Update state")
    }
  })

  it("an account with Steam Guard and no code: the prompt, then Account Logon Denied and 63", async () => {
    const { code, output } = await run(fresh().home, ["+login", "guarded_admin", "battery-staple", "+quit"])
    expect(code).toBe(63)
    expect(output).toContain(
      "Logging in user 'guarded_admin' [U:1:0] to Steam Public...\n" +
        "This computer has not been authenticated for your account using Steam Guard.\n" +
        "Please check your email for the message from Steam, and enter the Steam Guard\n" +
        " code from that message.\n" +
        "You can also enter this code at any time using 'set_steam_guard_code'\n" +
        " at the console.\n" +
        "Steam Guard code:\n" +
        "FAILED (Account Logon Denied)\n"
    )
    expect(output).not.toContain("battery-staple")
  })

  it("with @NoPromptForPassword 1 a needed code fails without the prompt", async () => {
    const { code, output } = await run(fresh().home, ["+@NoPromptForPassword", "1", "+login", "guarded_admin", "battery-staple"])
    expect(code).toBe(63)
    expect(output).not.toContain("Steam Guard code:")
    expect(output.endsWith("Logging in user 'guarded_admin' [U:1:0] to Steam Public...\nFAILED (Account Logon Denied)\n")).toBe(true)
  })

  it("the right code logs in (also given by set_steam_guard_code); a wrong one is 5", async () => {
    const { home } = fresh()
    expect((await run(home, ["+login", "guarded_admin", "battery-staple", "F4K3C", "+quit"])).code).toBe(0)
    expect((await run(home, ["+set_steam_guard_code", "F4K3C", "+login", "guarded_admin", "battery-staple"])).code).toBe(0)
    const wrong = await run(home, ["+login", "guarded_admin", "battery-staple", "AAAAA", "+quit"])
    expect(wrong.code).toBe(5)
    expect(wrong.output).toContain("\nFAILED (Invalid Login Auth Code)\nLogin Failure: Invalid Login Auth Code\n")
    expect(wrong.output).not.toContain("AAAAA")
  })
})

describe("app_update", () => {
  it("needs a login, an account that owns DayZ and a known app", async () => {
    const { home, dir } = fresh()
    const notLoggedOn = await run(home, ["+force_install_dir", dir, "+app_update", "223350", "+quit"])
    expect([notLoggedOn.code, notLoggedOn.lines.at(-2)]).toEqual([8, "ERROR! Not logged on."])
    const anonymous = await run(home, ["+force_install_dir", dir, "+login", "anonymous", "+app_update", "223350", "+quit"])
    expect([anonymous.code, anonymous.lines.at(-2)]).toEqual([8, "ERROR! Failed to install app '223350' (No subscription)"])
    const noGame = await run(home, ["+force_install_dir", dir, "+login", "no_game", "pw", "+app_update", "223350", "+quit"])
    expect([noGame.code, noGame.lines.at(-2)]).toEqual([8, "ERROR! Failed to install app '223350' (No subscription)"])
    const unknown = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "4242", "+quit"])
    expect([unknown.code, unknown.lines.at(-2)]).toEqual([8, "ERROR! Failed to install app '4242' (Invalid platform)"])
    expect(Fs.readdirSync(dir)).toEqual([])
  })

  it("installs the server: progress, verifying, the files and the manifest; then it is up to date", async () => {
    const { home, dir } = fresh()
    const first = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "validate", "+quit"])
    expect(first.code).toBe(0)
    const progress = first.lines.filter((l) => l.startsWith(" Update state (0x61) downloading, progress: "))
    expect(progress.length).toBeGreaterThan(0)
    for (const line of progress) expect(line).toMatch(/^ Update state \(0x61\) downloading, progress: \d+\.\d\d \(\d+ \/ 2000000\)$/)
    expect(progress.at(-1)).toBe(" Update state (0x61) downloading, progress: 100.00 (2000000 / 2000000)")
    expect(first.lines.slice(-3)).toEqual([" Update state (0x81) verifying update, progress: 100.00 (2000000 / 2000000)", "Success! App '223350' fully installed.", ""])

    expect(Fs.statSync(NodePath.join(dir, "DayZServer")).mode & 0o777).toBe(0o755)
    for (const file of ["serverDZ.cfg", "battleye/beserver_x64.cfg", "keys/dayz.bikey", DATA_FILE]) expect(Fs.existsSync(NodePath.join(dir, file))).toBe(true)
    const manifest = Fs.readFileSync(NodePath.join(dir, "steamapps/appmanifest_223350.acf"), "utf8")
    expect(manifest).toMatch(/^"AppState"\n\{\n\t"appid"\t\t"223350"\n\t"name"\t\t"DayZ Server"\n\t"buildid"\t\t"1000"\n\t"installdir"\t\t"[^"]+"\n\t"LastUpdated"\t\t"\d+"\n\t"SizeOnDisk"\t\t"2000000"\n/)
    // Nothing is left in downloading/.
    expect(Fs.readdirSync(NodePath.join(dir, "steamapps/downloading"))).toEqual([])

    const second = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
    expect(second.code).toBe(0)
    expect(second.lines.at(-2)).toBe(" Success! App '223350' already up to date.")
    expect(second.output).not.toContain("Update state")
  })

  it("a new build updates: the executable is rewritten, the operator's config kept", async () => {
    const { home, dir } = fresh()
    await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
    Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "mine";\n')
    Fs.writeFileSync(NodePath.join(dir, "DayZServer"), "#!/bin/sh\necho old build\n")
    expect(publishAppBuild(home, "223350")).toBe(1001)
    const update = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
    expect(update.code).toBe(0)
    expect(update.lines.at(-2)).toBe("Success! App '223350' fully installed.")
    expect(installedBuildId(dir, "223350")).toBe(1001)
    expect(Fs.readFileSync(NodePath.join(dir, "DayZServer"), "utf8")).not.toContain("old build")
    expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toBe('hostname = "mine";\n')
  })

  it("validate brings back missing files of a current build; without validate a missing file means a download", async () => {
    const { home, dir } = fresh()
    await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
    Fs.rmSync(NodePath.join(dir, "battleye/beserver_x64.cfg"))
    const validated = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "validate", "+quit"])
    expect(validated.code).toBe(0)
    expect(validated.output).not.toContain("(0x61) downloading")
    expect(validated.lines.slice(-3, -1)).toEqual([" Update state (0x81) verifying update, progress: 100.00 (2000000 / 2000000)", "Success! App '223350' fully installed."])
    expect(Fs.existsSync(NodePath.join(dir, "battleye/beserver_x64.cfg"))).toBe(true)
    Fs.rmSync(NodePath.join(dir, "DayZServer"))
    const redownload = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
    expect(redownload.output).toContain("(0x61) downloading")
    expect(Fs.existsSync(NodePath.join(dir, "DayZServer"))).toBe(true)
  })

  it("without force_install_dir the app goes to <home>/steamapps/common/<name>; -beta is accepted", async () => {
    const { home } = fresh()
    const { code } = await run(home, [...BOT, "+app_update", "1042420", "-beta", "experimental", "+quit"])
    expect(code).toBe(0)
    expect(Fs.existsSync(NodePath.join(home, "steamapps/common/DayZ Server Experimental/DayZServer"))).toBe(true)
    expect(installedBuildId(home, "1042420")).toBe(2000)
  })

  it("fails as Steam does: timeout 0x6 (10), disk full 0x202 (8), failed 0x602 (8), the install untouched", async () => {
    for (const [behaviour, line, exit] of [
      [{ appFailure: "timeout" }, "Error! App '223350' state is 0x6 after update job.", 10],
      [{ appFailure: "disk-full" }, "Error! App '223350' state is 0x202 after update job.", 8],
      [{ diskFreeBytes: 1_000_000 }, "Error! App '223350' state is 0x202 after update job.", 8],
      [{ appFailure: "failed" }, "Error! App '223350' state is 0x602 after update job.", 8]
    ] as const) {
      const { home, dir } = fresh()
      setBehaviour(home, behaviour)
      const result = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"])
      expect(result.code).toBe(exit)
      expect(result.lines.at(-2)).toBe(line)
      expect(result.output).toContain("(0x61) downloading")
      expect(result.output).not.toContain("Success!")
      // Only the part-download, under steamapps/downloading.
      expect(Fs.readdirSync(dir)).toEqual(["steamapps"])
      expect(Fs.readdirSync(NodePath.join(dir, "steamapps"))).toEqual(["downloading"])
    }
  })

  it("a failure does not stop later commands, and the first failure's code is the run's; @ShutdownOnFailedCommand stops", async () => {
    const { home, dir } = fresh()
    const both = await run(home, ["+force_install_dir", dir, ...BOT, "+app_update", "4242", "+app_update", "223350", "+quit"])
    expect(both.code).toBe(8)
    expect(both.output).toContain("Success! App '223350' fully installed.")
    const stopped = await run(home, ["+@ShutdownOnFailedCommand", "1", "+force_install_dir", dir, ...BOT, "+app_update", "4242", "+workshop_download_item", "221100", CF, "+quit"])
    expect(stopped.code).toBe(8)
    expect(stopped.output).not.toContain("Downloading item")
  })
})

describe("workshop_download_item", () => {
  const download = (home: string, dir: string, ...ids: ReadonlyArray<string>) =>
    run(home, ["+force_install_dir", dir, ...BOT, ...ids.flatMap((id) => ["+workshop_download_item", "221100", id]), "+quit"])

  it("downloads an item into content/221100/<id>: meta.cpp, keys, addons, the acf; Success with the byte count", async () => {
    const { home, dir } = fresh()
    const { code, lines } = await download(home, dir, CF)
    expect(code).toBe(0)
    const content = NodePath.join(dir, "steamapps/workshop/content/221100", CF)
    expect(lines.slice(-3)).toEqual([`Downloading item ${CF} ...`, `Success. Downloaded item ${CF} to "${content}" (300000 bytes) `, ""])
    expect(Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")).toMatch(/^protocol = 1;\npublishedid = 1559212036;\nname = "CF";\ntimestamp = \d+;\n$/)
    expect(Fs.readdirSync(NodePath.join(content, "keys"))).toEqual(["CF.bikey"])
    expect(Fs.readdirSync(NodePath.join(content, "addons")).sort()).toEqual(["cf.pbo", "cf.pbo.CF.bisign"])
    const sizes = ["meta.cpp", "mod.cpp", "keys/CF.bikey", "addons/cf.pbo", "addons/cf.pbo.CF.bisign"].map((f) => Fs.statSync(NodePath.join(content, f)).size)
    expect(sizes.reduce((a, b) => a + b)).toBe(300000)
    expect(installedItems(dir, "221100").get(CF)).toEqual({ size: 300000, timeUpdated: 1700000000, manifest: itemManifestId(CF, 1) })
    expect(Fs.existsSync(workshopFolders(dir, CF).downloads)).toBe(false)
  })

  it("without force_install_dir the workshop root is the stand-in's folder", async () => {
    const { home } = fresh()
    const { code } = await run(home, [...BOT, "+workshop_download_item", "221100", "2545327648"])
    expect(code).toBe(0)
    expect(Fs.existsSync(NodePath.join(home, "steamapps/workshop/content/221100/2545327648/meta.cpp"))).toBe(true)
  })

  it("a new version replaces the old folder completely (a broken one carries the crash marker)", async () => {
    const { home, dir } = fresh()
    await download(home, dir, CF)
    const content = workshopFolders(dir, CF).content
    Fs.writeFileSync(NodePath.join(content, "stray.txt"), "left by someone")
    publishItemVersion(home, CF, { crashOnLoad: true, pbos: ["cf_v2.pbo"] })
    const { code } = await download(home, dir, CF)
    expect(code).toBe(0)
    expect(Fs.existsSync(NodePath.join(content, "stray.txt"))).toBe(false)
    expect(Fs.readdirSync(NodePath.join(content, "addons")).sort()).toEqual(["cf_v2.pbo", "cf_v2.pbo.CF.bisign"])
    expect(Fs.readFileSync(NodePath.join(content, "addons/cf_v2.pbo"), "latin1")).toContain("GARRISON-SIM-CRASH-ON-LOAD")
    expect(installedItems(dir, "221100").get(CF)?.manifest).toBe(itemManifestId(CF, 2))
  })

  it("unknown and removed items are File Not Found; later items still download; the run exits 8", async () => {
    const { home, dir } = fresh()
    publishItemVersion(home, "1590841260", { removed: true })
    const { code, lines } = await download(home, dir, "123", "1590841260", CF)
    expect(code).toBe(8)
    expect(lines).toContain("ERROR! Download item 123 failed (File Not Found).")
    expect(lines).toContain("ERROR! Download item 1590841260 failed (File Not Found).")
    expect(lines.some((l) => l.startsWith(`Success. Downloaded item ${CF} to `))).toBe(true)
  })

  it("needs an account that owns DayZ and app 221100", async () => {
    const { home, dir } = fresh()
    const anonymous = await run(home, ["+force_install_dir", dir, "+login", "anonymous", "+workshop_download_item", "221100", CF, "+quit"])
    expect([anonymous.code, anonymous.lines.slice(-3, -1)]).toEqual([8, [`Downloading item ${CF} ...`, `ERROR! Download item ${CF} failed (Failure).`]])
    const noGame = await run(home, ["+force_install_dir", dir, "+login", "no_game", "pw", "+workshop_download_item", "221100", CF, "+quit"])
    expect([noGame.code, noGame.lines.at(-2)]).toEqual([8, `ERROR! Download item ${CF} failed (Failure).`])
    const otherApp = await run(home, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "107410", CF, "+quit"])
    expect([otherApp.code, otherApp.lines.at(-2)]).toEqual([8, `ERROR! Download item ${CF} failed (Failure).`])
    const notLoggedOn = await run(home, ["+force_install_dir", dir, "+workshop_download_item", "221100", CF, "+quit"])
    expect([notLoggedOn.code, notLoggedOn.lines.at(-2)]).toEqual([8, "ERROR! Not logged on."])
  })

  it("a timeout item stalls, fails with exit 10 at the end, and leaves its part in downloads/ only", async () => {
    const { home, dir } = fresh()
    setBehaviour(home, { timeoutItems: ["1564026768"] })
    const { code, lines } = await download(home, dir, "1564026768", CF)
    expect(code).toBe(10)
    expect(lines).toContain("Downloading item 1564026768 ...")
    expect(lines).toContain("ERROR! Timeout downloading item 1564026768")
    expect(lines.some((l) => l.startsWith(`Success. Downloaded item ${CF} to `))).toBe(true)
    const folders = workshopFolders(dir, "1564026768")
    expect(Fs.existsSync(folders.content)).toBe(false)
    expect(Fs.readdirSync(folders.downloads).length).toBeGreaterThan(0)
  })

  it("disk full is Disk Write Failure (8)", async () => {
    const { home, dir } = fresh()
    setBehaviour(home, { diskFreeBytes: 100_000 })
    const { code, lines } = await download(home, dir, CF, "2545327648")
    expect(code).toBe(8)
    expect(lines).toContain(`ERROR! Download item ${CF} failed (Disk Write Failure).`)
    // 150000 bytes do not fit either; a smaller item would.
    expect(lines).toContain("ERROR! Download item 2545327648 failed (Disk Write Failure).")
    expect(Fs.existsSync(workshopFolders(dir, CF).content)).toBe(false)
  })

  it("an interrupted download leaves the installed version intact", async () => {
    const { home, dir } = fresh()
    await download(home, dir, CF)
    const content = workshopFolders(dir, CF).content
    const before = Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")
    publishItemVersion(home, CF)
    // Slow enough to be caught half way: 300 kB at 100 kB/s.
    setBehaviour(home, { bytesPerSecond: 100_000, progressIntervalMs: 20 })
    const abort = new AbortController()
    const running = run(home, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", CF, "+quit"], { signal: abort.signal })
    const downloads = workshopFolders(dir, CF).downloads
    await waitFor(() => Fs.existsSync(NodePath.join(downloads, "addons", "cf.pbo")))
    abort.abort("SIGTERM")
    const { code, output } = await running
    expect(code).toBe(143)
    expect(output).not.toContain("Success.")
    expect(Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")).toBe(before)
    expect(installedItems(dir, "221100").get(CF)?.manifest).toBe(itemManifestId(CF, 1))
    expect(readCatalogue(home).items[CF]?.version).toBe(2)
  })
})

describe("catalogue read per run", () => {
  it("a changed account takes effect at the next run", async () => {
    const home = steamHome({ ...fastCatalogue(), accounts: defaultCatalogue().accounts })
    expect((await run(home, [...BOT])).code).toBe(0)
    const catalogue = readCatalogue(home)
    Fs.writeFileSync(NodePath.join(home, "catalogue.json"), JSON.stringify({ ...catalogue, accounts: {} }))
    expect((await run(home, [...BOT])).code).toBe(5)
  })
})
