import { afterEach, describe, expect, it } from "vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { followLogs as followIn, type LogFollowerOptions } from "../../src/game/LogFollower.js"

const folders: Array<string> = []
afterEach(() => {
  for (const folder of folders.splice(0)) Fs.rmSync(folder, { recursive: true, force: true })
})

const profiles = () => {
  const folder = Fs.mkdtempSync(NodePath.join(tmpdir(), "garrison-logfollower-"))
  folders.push(folder)
  return folder
}

const setModified = (path: string, ms: number) => Fs.utimesSync(path, ms / 1000, ms / 1000)

/** A follower of `folder` read as the root of its own files, with `poll` run as a promise. */
const followLogs = (folder: string, since: number, options?: LogFollowerOptions) => {
  const follower = followIn({ files: ServerFiles.local(folder), folder: "" }, since, options)
  return { poll: () => Effect.runPromise(follower.poll) }
}

describe("followLogs", () => {
  it("answers each complete line once, RPT then ADM, and keeps an unfinished line for later", async () => {
    const folder = profiles()
    const rpt = NodePath.join(folder, "DayZServer_x64_2026-01-01_12-00-00.RPT")
    const adm = NodePath.join(folder, "DayZServer_x64_2026-01-01_12-00-00.ADM")
    Fs.writeFileSync(rpt, "rpt 1\r\nrpt 2\n")
    Fs.writeFileSync(adm, "adm 1\nadm 2 unfini")
    const logs = followLogs(folder, Date.now())
    expect(await logs.poll()).toEqual(["rpt 1", "rpt 2", "adm 1"])
    expect(await logs.poll()).toEqual([])
    Fs.appendFileSync(adm, "shed\n")
    Fs.appendFileSync(rpt, "rpt 3\n")
    expect(await logs.poll()).toEqual(["rpt 3", "adm 2 unfinished"])
  })

  it("keeps a character split across two reads whole", async () => {
    const folder = profiles()
    const rpt = NodePath.join(folder, "a.RPT")
    const name = Buffer.from('Player "Żółw"(steamID=76561198012345678) is connected\n', "utf8")
    const cut = name.indexOf(Buffer.from("ó")) + 1
    Fs.writeFileSync(rpt, name.subarray(0, cut))
    const logs = followLogs(folder, Date.now())
    expect(await logs.poll()).toEqual([])
    Fs.appendFileSync(rpt, name.subarray(cut))
    expect(await logs.poll()).toEqual(['Player "Żółw"(steamID=76561198012345678) is connected'])
  })

  it("follows the newest file of the run, ignores files from before it, and reads a cut file again", async () => {
    const folder = profiles()
    const started = Date.now()
    const old = NodePath.join(folder, "old.RPT")
    Fs.writeFileSync(old, "from an earlier run\n")
    setModified(old, started - 60_000)
    const logs = followLogs(folder, started)
    expect(await logs.poll()).toEqual([])

    const first = NodePath.join(folder, "first.RPT")
    Fs.writeFileSync(first, "one\n")
    setModified(first, started + 1_000)
    expect(await logs.poll()).toEqual(["one"])

    const second = NodePath.join(folder, "second.RPT")
    Fs.writeFileSync(second, "two\n")
    setModified(second, started + 2_000)
    expect(await logs.poll()).toEqual(["two"])

    Fs.writeFileSync(second, "x\n")
    setModified(second, started + 3_000)
    expect(await logs.poll()).toEqual(["x"])
  })

  it("reads a long log over several polls, each bounded", async () => {
    const folder = profiles()
    Fs.writeFileSync(NodePath.join(folder, "big.RPT"), Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n") + "\n")
    const logs = followLogs(folder, Date.now(), { maxBytesPerPoll: 100 })
    const seen: Array<string> = []
    for (let i = 0; i < 20 && seen.length < 100; i++) seen.push(...(await logs.poll()))
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`))
  })

  it("answers nothing for a missing or unreadable folder", async () => {
    expect(await followLogs(NodePath.join(profiles(), "missing"), 0).poll()).toEqual([])
  })

  it("reads the profiles folder inside the install folder's files, and never follows a symlinked or hard-linked log", async () => {
    const install = profiles()
    const outside = profiles()
    Fs.mkdirSync(NodePath.join(install, "profiles"))
    Fs.writeFileSync(NodePath.join(outside, "secret.RPT"), "secret line\n")
    Fs.writeFileSync(NodePath.join(outside, "linked.ADM"), "linked line\n")
    Fs.symlinkSync(NodePath.join(outside, "secret.RPT"), NodePath.join(install, "profiles", "newest.RPT"))
    Fs.linkSync(NodePath.join(outside, "linked.ADM"), NodePath.join(install, "profiles", "newest.ADM"))
    const logs = followIn({ files: ServerFiles.local(install), folder: "profiles" }, Date.now())
    expect(await Effect.runPromise(logs.poll)).toEqual([])
    Fs.writeFileSync(NodePath.join(install, "profiles", "real.RPT"), "real line\n")
    setModified(NodePath.join(install, "profiles", "real.RPT"), Date.now() + 10_000)
    expect(await Effect.runPromise(logs.poll)).toEqual(["real line"])
  })
})
