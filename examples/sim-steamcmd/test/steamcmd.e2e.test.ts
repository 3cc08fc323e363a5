/**
 * The stand-in as Garrison runs it: installed by the built installer, run
 * through `steamcmd.sh` as a process, read from its stdout, judged by its
 * exit code, stopped by SIGTERM; and the Web API's own process. Needs the
 * build (`npx tsc -b examples/sim-steamcmd`); the e2e project runs it.
 */
import { tempDir } from "@garrison/testkit"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { type Catalogue, defaultCatalogue, publishAppBuild, publishItemVersion, readCatalogue, writeCatalogue } from "../src/catalogue.js"

const DIST = fileURLToPath(new URL("../dist/", import.meta.url))
const BOT = ["+login", "garrison_bot", "correct-horse"]
const CF = "1559212036"

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill("SIGKILL")
})

/** Installs the stand-in with the built installer (into a folder whose name needs quoting) and makes it fast. */
const installed = (changes: Partial<Catalogue["behaviour"]> = {}) => {
  const home = NodePath.join(tempDir("garrison-steamcmd-e2e-"), "steam 'cmd'")
  const printed = execFileSync(process.execPath, [NodePath.join(DIST, "install.js"), home], { encoding: "utf8" })
  const steamcmd = printed.trimEnd().split("\n").at(-1)!
  const catalogue = defaultCatalogue()
  writeCatalogue(home, { ...catalogue, behaviour: { ...catalogue.behaviour, bytesPerSecond: 200_000_000, progressIntervalMs: 5, stallMs: 50, ...changes } })
  return { home, steamcmd, dir: tempDir("garrison-steamcmd-e2e-srv-") }
}

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
}

const start = (steamcmd: string, argv: ReadonlyArray<string>) => {
  const child = spawn(steamcmd, argv, { stdio: ["ignore", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text))
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text))
  const ended = new Promise<Ended>((resolve) =>
    child.once("close", (code, signal) => {
      children.delete(child)
      if (stderr !== "") process.stderr.write(stderr)
      resolve({ code, signal, stdout })
    })
  )
  return { child, ended, stdout: () => stdout }
}

const steam = (steamcmd: string, argv: ReadonlyArray<string>) => start(steamcmd, argv).ended

const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe("steamcmd.sh", () => {
  it("the installer's last line is steamcmd.sh; the banner names its folder; anonymous cannot install the server", async () => {
    const { home, steamcmd, dir } = installed()
    expect(steamcmd).toBe(NodePath.join(home, "steamcmd.sh"))
    const { code, stdout } = await steam(steamcmd, ["+force_install_dir", dir, "+login", "anonymous", "+app_update", "223350", "validate", "+quit"])
    expect(code).toBe(8)
    expect(stdout.split("\n")[0]).toBe(`Redirecting stderr to '${home}/Steam/logs/stderr.txt'`)
    expect(stdout).toContain("-- type 'quit' to exit --\nLoading Steam API...OK\nConnecting anonymously to Steam Public...OK\n")
    expect(stdout.endsWith("ERROR! Failed to install app '223350' (No subscription)\n")).toBe(true)
  })

  it("an account installs the server (the simulated DayZServer), then it is up to date, then a new build updates it", async () => {
    const { home, steamcmd, dir } = installed()
    const args = ["+@NoPromptForPassword", "1", "+force_install_dir", dir, ...BOT, "+app_update", "223350", "+quit"]
    const first = await steam(steamcmd, args)
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/ Update state \(0x61\) downloading, progress: 100\.00 \(2000000 \/ 2000000\)\n Update state \(0x81\) verifying update, progress: 100\.00 \(2000000 \/ 2000000\)\nSuccess! App '223350' fully installed\.\n$/)
    const executable = NodePath.join(dir, "DayZServer")
    expect(Fs.statSync(executable).mode & 0o777).toBe(0o755)
    // The simulated server's own launcher, pointing at its built main.js.
    expect(Fs.readFileSync(executable, "utf8")).toMatch(/examples\/sim-server\/dist\/main\.js' "\$@"/)
    expect(Fs.readFileSync(NodePath.join(dir, "steamapps/appmanifest_223350.acf"), "utf8")).toContain('\t"buildid"\t\t"1000"\n')

    const again = await steam(steamcmd, args)
    expect([again.code, again.stdout.endsWith(" Success! App '223350' already up to date.\n")]).toEqual([0, true])

    publishAppBuild(home, 223350)
    const update = await steam(steamcmd, args)
    expect([update.code, update.stdout.endsWith("Success! App '223350' fully installed.\n")]).toEqual([0, true])
    expect(Fs.readFileSync(NodePath.join(dir, "steamapps/appmanifest_223350.acf"), "utf8")).toContain('\t"buildid"\t\t"1001"\n')
  })

  it("downloads workshop items: the content folder, Success with the bytes; an unknown one fails the run with 8", async () => {
    const { steamcmd, dir } = installed()
    const { code, stdout } = await steam(steamcmd, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", "42", "+workshop_download_item", "221100", CF, "validate", "+quit"])
    expect(code).toBe(8)
    const content = NodePath.join(dir, "steamapps/workshop/content/221100", CF)
    expect(stdout).toContain(`Downloading item 42 ...\nERROR! Download item 42 failed (File Not Found).\nDownloading item ${CF} ...\nSuccess. Downloaded item ${CF} to "${content}" (300000 bytes) \n`)
    expect(Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")).toContain('name = "CF";')
    expect(Fs.existsSync(NodePath.join(content, "keys/CF.bikey"))).toBe(true)
    expect(Fs.existsSync(NodePath.join(content, "addons/cf.pbo"))).toBe(true)
  })

  it("a timeout item exits 10", async () => {
    const { steamcmd, dir } = installed({ timeoutItems: [CF] })
    const { code, stdout } = await steam(steamcmd, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", CF, "+quit"])
    expect(code).toBe(10)
    expect(stdout.endsWith(`Downloading item ${CF} ...\nERROR! Timeout downloading item ${CF}\n`)).toBe(true)
  })

  it("a bad password exits 5 without the password in the output; a needed Steam Guard code exits 63; the right one works", async () => {
    const { steamcmd, dir } = installed()
    const bad = await steam(steamcmd, ["+force_install_dir", dir, "+login", "garrison_bot", "s3cret-guess", "+app_update", "223350", "+quit"])
    expect(bad.code).toBe(5)
    expect(bad.stdout).toContain("FAILED (Invalid Password)\nLogin Failure: Invalid Password\n")
    expect(bad.stdout).not.toContain("s3cret-guess")
    const guard = await steam(steamcmd, ["+login", "guarded_admin", "battery-staple", "+quit"])
    expect(guard.code).toBe(63)
    expect(guard.stdout).toContain("Steam Guard code:\nFAILED (Account Logon Denied)\n")
    const coded = await steam(steamcmd, ["+login", "guarded_admin", "battery-staple", "F4K3C", "+quit"])
    expect(coded.code).toBe(0)
    expect(coded.stdout).toContain("Logging in user 'guarded_admin' [U:1:0] to Steam Public...OK\n")
  })

  it("disk full: the item fails with Disk Write Failure, the app with state 0x202; both exit 8", async () => {
    const { steamcmd, dir } = installed({ diskFreeBytes: 1000 })
    const { code, stdout } = await steam(steamcmd, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", CF, "+app_update", "223350", "+quit"])
    expect(code).toBe(8)
    expect(stdout).toContain(`ERROR! Download item ${CF} failed (Disk Write Failure).\n`)
    expect(stdout.endsWith("Error! App '223350' state is 0x202 after update job.\n")).toBe(true)
  })

  it("SIGTERM mid-download exits at once and leaves the installed version of the item untouched", async () => {
    const { home, steamcmd, dir } = installed()
    expect((await steam(steamcmd, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", CF, "+quit"])).code).toBe(0)
    const content = NodePath.join(dir, "steamapps/workshop/content/221100", CF)
    const files = () => Object.fromEntries(Fs.readdirSync(content, { recursive: true, encoding: "utf8" }).sort().map((f) => [f, Fs.statSync(NodePath.join(content, f)).size]))
    const meta = Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")
    const before = files()
    const acf = Fs.readFileSync(NodePath.join(dir, "steamapps/workshop/appworkshop_221100.acf"), "utf8")

    publishItemVersion(home, CF)
    // 300 kB at 100 kB/s: three seconds, of which it sees a fraction.
    const catalogue = readCatalogue(home)
    writeCatalogue(home, { ...catalogue, behaviour: { ...catalogue.behaviour, bytesPerSecond: 100_000, progressIntervalMs: 20 } })
    const run = start(steamcmd, ["+force_install_dir", dir, ...BOT, "+workshop_download_item", "221100", CF, "+quit"])
    const partial = NodePath.join(dir, "steamapps/workshop/downloads/221100", CF, "addons/cf.pbo")
    await waitFor(() => Fs.existsSync(partial) && Fs.statSync(partial).size > 0)
    const stoppedAt = Date.now()
    run.child.kill("SIGTERM")
    const ended = await run.ended
    expect(Date.now() - stoppedAt).toBeLessThan(1000)
    expect(ended.code === 143 || ended.signal === "SIGTERM").toBe(true)
    expect(ended.stdout).not.toContain("Success.")
    expect(files()).toEqual(before)
    expect(Fs.readFileSync(NodePath.join(content, "meta.cpp"), "utf8")).toBe(meta)
    expect(Fs.readFileSync(NodePath.join(dir, "steamapps/workshop/appworkshop_221100.acf"), "utf8")).toBe(acf)
  })
})

describe("api-main.js", () => {
  it("prints its URL and answers from the folder's catalogue until SIGTERM", async () => {
    const { home } = installed()
    const child = spawn(process.execPath, [NodePath.join(DIST, "api-main.js"), "--port", "0", "--dir", home], { stdio: ["ignore", "pipe", "inherit"] })
    children.add(child)
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)))
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text))
    await waitFor(() => stdout.includes("\n"))
    const url = /^steam web api: (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(stdout)?.[1]
    expect(url).toBeDefined()
    const response = await fetch(`${url}/ISteamRemoteStorage/GetPublishedFileDetails/v1/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `itemcount=1&publishedfileids[0]=${CF}`
    })
    const body = (await response.json()) as { response: { publishedfiledetails: Array<{ title: string }> } }
    expect(body.response.publishedfiledetails[0]?.title).toBe("Community Framework")
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
    children.delete(child)
  })
})
