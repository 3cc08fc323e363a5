/**
 * Game servers never run as root: a controller running as root starts each
 * one as the owner of its install folder (read from `/proc/<pid>/status`),
 * leaves what it writes into the install to that user, refuses a root-owned
 * install with a 409 that says how to fix it (nothing spawned), and adopts
 * the game's process again after a restart of the controller.
 *
 * The controller runs here with `ALLOW_ROOT_GAME_SERVERS=false` (the test
 * support sets it to true elsewhere: other tests make their installs as
 * root). Run as root, as CI runs; a controller that is not root starts game
 * servers as itself, which the last test checks when that is the case.
 */
import { execFileSync } from "node:child_process"
import { chmodSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isAlive, makeFleet, until } from "../support/fleet.js"
import type { SimInstall } from "../support/sim.js"

const NOBODY = 65534
const asRoot = process.getuid?.() === 0
const fleet = makeFleet({ env: { ALLOW_ROOT_GAME_SERVERS: "false" } })
const { api } = fleet

/** The real uid of a process, from the `Uid:` line of /proc/<pid>/status (real, effective, saved, filesystem). */
const uidOf = (pid: number): ReadonlyArray<number> => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("Uid:"))
  return (line ?? "").split(/\s+/).slice(1, 5).map(Number)
}

// The run's temporary folder is 0700: the game's user must be able to walk through it to its install.
const runFolder = tmpdir()
const runFolderMode = statSync(runFolder).mode & 0o7777
let owned: SimInstall
let rootOwned: SimInstall

beforeAll(async () => {
  owned = await fleet.installSim()
  rootOwned = await fleet.installSim()
  if (asRoot) {
    chmodSync(runFolder, 0o711)
    chmodSync(owned.dir, 0o755)
    execFileSync("chown", ["-R", `${NOBODY}:${NOBODY}`, owned.dir])
  }
  await fleet.startController()
}, 60_000)

afterAll(async () => {
  await fleet.close()
  chmodSync(runFolder, runFolderMode)
})

describe.sequential("game servers run as their install's owner, never as root", { timeout: 60_000 }, () => {
  let ownedId = ""
  let pid = 0

  it("starts the game as the install folder's owner; what Garrison writes into the install is that user's too", async () => {
    const created = await fleet.createServer(owned, "Owned")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    ownedId = (created.body as { id: string }).id
    const started = await api("POST", `/api/servers/${ownedId}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const running = await fleet.rconConnected(ownedId, 30_000)
    pid = running.pid ?? 0
    fleet.trackGameProcess(pid)
    const expected = asRoot ? NOBODY : process.getuid!()
    expect(uidOf(pid)).toEqual([expected, expected, expected, expected])
    // ban.txt is written before every start; the game (as its user) must be able to write it.
    expect(statSync(NodePath.join(owned.dir, "ban.txt")).uid).toBe(expected)
    // So is a file the editor makes (in a folder the controller made: the profiles folder).
    const file = await api("PUT", `/api/servers/${ownedId}/files/write`, { path: "profiles/notes.txt", content: "hello\n" })
    expect(file.status, JSON.stringify(file.body)).toBeLessThan(300)
    expect(statSync(NodePath.join(owned.dir, "profiles/notes.txt")).uid).toBe(expected)
  })

  it("adopts the game's process again after the controller restarts (it keeps running as its user)", async () => {
    await fleet.stopController()
    expect(isAlive(pid)).toBe(true)
    await fleet.startController()
    const adopted = await until(() => fleet.status(ownedId), (s) => s.status === "running", 20_000, "the adoption")
    expect(adopted.pid).toBe(pid)
    const stopped = await api("POST", `/api/servers/${ownedId}/stop`)
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200)
    await until(() => isAlive(pid), (alive) => !alive, 20_000, "the game's exit")
  })

  it("refuses a root-owned install with a 409 saying how to fix it, and runs nothing", async () => {
    const created = await fleet.createServer(rootOwned, "RootOwned")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body as { id: string }).id
    const started = await api("POST", `/api/servers/${id}/start`)
    if (!asRoot) {
      // A controller that is not root starts the game as itself: nothing to refuse.
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      const running = await fleet.rconConnected(id, 30_000)
      fleet.trackGameProcess(running.pid ?? 0)
      expect(uidOf(running.pid ?? 0)[0]).toBe(process.getuid!())
      return
    }
    expect(started.status, JSON.stringify(started.body)).toBe(409)
    const body = started.body as { message: string; details: { reason: string } }
    expect(body.details.reason).toBe("runs-as-root")
    expect(body.message).toContain(`the install folder ${rootOwned.dir} is owned by root`)
    expect(body.message).toContain("GAME_SERVER_USER")
    expect(body.message).toContain("ALLOW_ROOT_GAME_SERVERS=true")
    const status = await fleet.status(id)
    expect(status.status).toBe("stopped")
    expect(status.pid).toBeNull()
  })
})
