/**
 * The simulator's scripted fight read by two controllers over real
 * processes and files: one stays up; the other is killed (SIGKILL) between
 * two kills and started again while the game server goes on writing its
 * admin log. Both end with the same kill feed and leaderboard: nothing
 * missed, nothing counted twice.
 *
 * Needs the build (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Fleet, makeFleet, type ServerStatus, until } from "../support/fleet.js"
import { readAdm, type SimInstall, simControl } from "../support/sim.js"

const env = { GAMELOG_POLL_INTERVAL: "300 millis" }
const up = makeFleet({ env })
const down = makeFleet({ env })
afterAll(async () => {
  await up.close()
  await down.close()
})

const ALICE = "76561198000000101"
const BOB = "76561198000000102"
const CARL = "76561198000000103"

interface Kill {
  readonly id: string
  readonly serverId: string
  readonly [field: string]: unknown
}

let install: SimInstall
let crashing: Awaited<ReturnType<Fleet["startController"]>>
let upId: string
let downId: string

const kills = async (fleet: Fleet) => ((await fleet.api("GET", "/api/killfeed?limit=100")).body as { items: ReadonlyArray<Kill> }).items
const killsReach = (fleet: Fleet, n: number, what: string) => until(() => kills(fleet), (items) => items.length >= n, 20_000, what)
/** A kill as both controllers should know it: everything but the ids their own server entries give. */
const comparable = (items: ReadonlyArray<Kill>) => items.map(({ id, serverId, ...rest }) => ({ ...rest, line: id.slice(serverId.length) }))
const board = async (fleet: Fleet) => ((await fleet.api("GET", "/api/leaderboard?sort=kills&limit=100")).body as { entries: ReadonlyArray<unknown> }).entries

beforeAll(async () => {
  install = await up.installSim({ deriveRconPort: true })
  await up.startController()
  crashing = await down.startController()
  const created = await up.createServer(install, "Fight")
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  upId = (created.body as { id: string }).id
  // The second controller only reads the same install's logs: its entry is never started.
  const watching = await down.createServer(install, "Fight (watched)")
  expect(watching.status, JSON.stringify(watching.body)).toBe(201)
  downId = (watching.body as { id: string }).id
  const started = await up.api("POST", `/api/servers/${upId}/start`)
  expect(started.status, JSON.stringify(started.body)).toBeLessThan(300)
  up.trackGameProcess((started.body as ServerStatus).pid!)
  await up.rconConnected(upId, 30_000)
}, 90_000)

describe("a fight read across a controller's crash", { timeout: 90_000 }, () => {
  it("gives the same kill feed and leaderboard as a controller that stayed up", async () => {
    simControl(install, `join ${ALICE} Alice`, `join ${BOB} Bob`, `join ${CARL} "Carl the Third"`)
    await until(() => readAdm(install), (text) => text.includes('"Carl the Third" is connected'), 20_000, "three players in the ADM")
    simControl(install, "hit Alice Bob 30 M4-A1", "kill Alice Bob M4-A1")
    await killsReach(up, 1, "the first kill on the controller that stays up")
    await killsReach(down, 1, "the first kill on the controller that will crash")

    crashing.child.kill("SIGKILL")
    await crashing.exited
    simControl(install, `kill ${CARL} Alice Mosin9130`, `kill ZmbM_CitizenASkinny_Brown ${CARL}`, `kill Alice ${CARL}`)
    await until(() => readAdm(install), (text) => text.split("killed by").length - 1 >= 4, 20_000, "four kills in the ADM")
    await killsReach(up, 4, "four kills on the controller that stayed up")

    await down.startController()
    const afterCrash = await killsReach(down, 4, "four kills after the restart")
    const stayed = await kills(up)
    expect(afterCrash).toHaveLength(stayed.length)
    expect(comparable(afterCrash)).toEqual(comparable(stayed))
    expect(stayed.filter((k) => k["killerKind"] === "player")).toHaveLength(3)
    expect(await board(down)).toEqual(await board(up))
    // A second look a few polls later still counts each kill once.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(await kills(down)).toHaveLength(stayed.length)
    expect(((await down.api("GET", `/api/servers/${downId}/gamelog`)).body as { linesUnknown: number }).linesUnknown).toBe(0)
  })
})
