/**
 * The simulator's admin log against Garrison's ADM reader: a scripted fight (every script verb that writes
 * to the ADM, every kind of killer) run on a population, its `.ADM` file read back line by line. No line is
 * unknown, and each says what the script did, in the order real servers write it.
 */
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { AdmEvent } from "../../../packages/plugins/src/gamelog/internal/adm/events.js"
import { parseAdmLine } from "../../../packages/plugins/src/gamelog/internal/adm/parse.js"
import { parsePlayerLogLine } from "../../../packages/runtime/src/game/PlayerLog.js"
import { Logs } from "../src/logs.js"
import { parseArguments } from "../src/options.js"
import { Population } from "../src/population.js"
import { Rng } from "../src/rng.js"
import { parseScript, playerVerbs, runLine, type ScriptTarget } from "../src/script.js"
import { World } from "../src/world.js"

const folders: Array<string> = []
const closers: Array<() => void> = []
afterAll(() => {
  for (const close of closers) close()
  for (const folder of folders) Fs.rmSync(folder, { recursive: true, force: true })
})

const BANNED = "76561198000000009"

const FIGHT = `
join 76561198000000001 Alice
join 76561198000000002 Bob
join 76561198000000003 "Carl (Medic)"
join 76561198000000004 "Dora [PvP]"
join ${BANNED} Mallory
chat Alice Global hello everyone
chat Bob Direct friendly?
chat "Carl (Medic)" Side on my way
hit Alice Bob 30 M4-A1
hit Bob Alice 15 Combat Knife
hit "Carl (Medic)" Bob 10 fists
hit ZmbM_SoldierNormal "Carl (Medic)" 8
hit Animal_CanisLupus_Grey "Dora [PvP]" 12
hit Hatchback_02 "Dora [PvP]" 5
hit explosion "Dora [PvP]" 20
knockout "Dora [PvP]"
wake "Dora [PvP]"
headshot Alice Bob M4-A1
kill Bob "Carl (Medic)" Machete
kill "Carl (Medic)" Alice fists
kill Animal_UrsusArctos "Dora [PvP]"
kill ZmbM_SoldierNormal Bob
kill LandMineTrap "Carl (Medic)"
fall Alice 20
fall Alice 100
suicide Bob
bleed "Carl (Medic)"
hit Alice "Dora [PvP]" 200 AKM
`

/** Runs `script` on a fresh population; the ADM file's lines and the world. */
const runFight = (script: string) => {
  const dir = Fs.mkdtempSync(NodePath.join(tmpdir(), "garrison-sim-adm-"))
  folders.push(dir)
  const { sim } = parseArguments([], { SIM_VERIFY_DELAY: "0", SIM_REJOIN: "0", SIM_PLAYERS: "0" }, dir)
  const logs = new Logs(dir, true, new Date())
  const rng = new Rng(11)
  const world = new World("chernarusplus", rng.fork(3))
  const population = new Population(
    world,
    {
      broadcast: () => undefined,
      logs,
      canJoin: () => true,
      isLocked: () => false,
      maxPlayers: () => 60,
      isBanned: (person) => person.steam64 === BANNED,
      isWhitelisted: () => true,
      hasPriority: () => false,
      battlEyeBan: () => undefined
    },
    sim,
    rng.fork(4)
  )
  closers.push(() => population.stop(), () => logs.close())
  const problems: Array<string> = []
  const target: ScriptTarget = {
    ...playerVerbs(world, population, (line) => problems.push(line)),
    lock: () => undefined,
    shutdown: () => undefined,
    crash: () => undefined,
    mod: () => undefined,
    log: (line) => problems.push(line)
  }
  for (const line of parseScript(script)) runLine(target, line)
  population.playerList()
  const text = Fs.readFileSync(logs.adm!.path, "utf8")
  const rpt = Fs.readFileSync(logs.rpt.path, "utf8").split("\n")
  return { lines: text.split("\n").filter((line) => line !== ""), rpt, world, problems }
}

describe("the simulator's RPT connect lines", () => {
  it("use real servers' word order, `Player \"Name\" is connected (steamID=...)`, and Garrison reads their Steam64", () => {
    const { rpt, world } = runFight(FIGHT)
    const connects = rpt.filter((line) => line.includes(" is connected"))
    expect(connects.length).toBeGreaterThanOrEqual(4)
    for (const line of connects) expect(line).toMatch(/^\d{1,2}:\d{2}:\d{2}\.\d{3} Player ".+" is connected \(steamID=\d{17}\)$/)
    const carl = connects.find((line) => line.includes('"Carl (Medic)"'))!
    expect(parsePlayerLogLine(carl)).toEqual({ name: "Carl (Medic)", steam64: world.findPerson("Carl (Medic)")!.steam64 })
  })
})

describe("the simulator's admin log, read by Garrison's reader", () => {
  const { lines, world, problems } = runFight(FIGHT)
  const read = lines.map((line) => ({ line, result: parseAdmLine(line) }))
  const events: Array<AdmEvent> = read.flatMap(({ result }) => (result.kind === "event" ? [result.event] : []))
  const idOf = (name: string) => world.findPerson(name)!.dayzId

  it("every script line ran and no line of the log is unknown", () => {
    expect(problems).toEqual([])
    expect(read.filter(({ result }) => result.kind === "unknown").map(({ line }) => line)).toEqual([])
    expect(events[0]).toMatchObject({ type: "log-started" })
  })

  it("joins, the refused join as `id=Unknown`, chat on each channel's form", () => {
    expect(events.filter((e) => e.type === "connected").map((e) => (e.type === "connected" ? [e.player.name, e.player.dayzId] : []))).toEqual([
      ["Alice", idOf("Alice")],
      ["Bob", idOf("Bob")],
      ["Carl (Medic)", idOf("Carl (Medic)")],
      ["Dora [PvP]", idOf("Dora [PvP]")]
    ])
    expect(events.filter((e) => e.type === "disconnected")).toEqual([{ type: "disconnected", seconds: expect.any(Number), player: { name: "Mallory", dayzId: null, pos: null } }])
    expect(events.flatMap((e) => (e.type === "chat" ? [[e.channel, e.player.name, e.player.dayzId, e.text]] : []))).toEqual([
      ["global", "Alice", idOf("Alice"), "hello everyone"],
      [null, "Bob", idOf("Bob"), "friendly?"],
      ["side", "Carl (Medic)", idOf("Carl (Medic)"), "on my way"]
    ])
  })

  it("hits by players (ranged, melee, fists), infected, animals, objects, explosions and falls", () => {
    const hits = events.flatMap((e) => (e.type === "hit" ? [e] : []))
    const by = (e: (typeof hits)[number]) =>
      e.attacker.kind === "player" ? `player ${e.attacker.player.name}` : e.attacker.kind === "suicide" ? "suicide" : `${e.attacker.kind} ${e.attacker.name}`
    expect(hits.map((e) => [e.victim.name, by(e)])).toEqual([
      ["Bob", "player Alice"],
      ["Alice", "player Bob"],
      ["Bob", "player Carl (Medic)"],
      ["Carl (Medic)", "zombie Infected"],
      ["Dora [PvP]", "animal Wolf"],
      ["Dora [PvP]", "environment Hatchback_02"],
      ["Dora [PvP]", "environment explosion"],
      // The fatal hits before the kills: headshot, machete, fists, the bear, the infected.
      ["Bob", "player Alice"],
      ["Carl (Medic)", "player Bob"],
      ["Alice", "player Carl (Medic)"],
      ["Dora [PvP]", "animal Brown Bear"],
      ["Bob", "zombie Infected"],
      ["Alice", "environment FallDamageHealth"],
      ["Alice", "environment FallDamageHealth"],
      ["Dora [PvP]", "player Alice"]
    ])
    const [ranged, melee, fists] = hits
    expect(ranged).toMatchObject({ hp: 70, damage: 30, ammo: "Bullet_556x45", weapon: "M4-A1", victim: { dayzId: idOf("Bob") } })
    expect(ranged!.distance).toBeGreaterThan(0)
    expect(ranged!.attacker).toMatchObject({ kind: "player", player: { dayzId: idOf("Alice") } })
    expect(melee).toMatchObject({ hp: 85, damage: 15, ammo: "MeleeSharpLight_2", weapon: "Combat Knife", distance: null })
    expect(fists).toMatchObject({ hp: 60, damage: 10, ammo: "MeleeFist", weapon: null, distance: null })
    expect(hits[3]).toMatchObject({ ammo: "MeleeInfected", bodyPart: expect.any(String), damage: 8 })
    expect(hits[5]).toMatchObject({ ammo: "TransportHit", damage: null, bodyPart: null })
    expect(hits[6]).toMatchObject({ ammo: "LandMineExplosion" })
    expect(hits.slice(12, 14).map((e) => e.hp)).toEqual([80, 0])
    expect(hits.at(-1)).toMatchObject({ hp: 0, weapon: "AKM" })
  })

  it("a headshot is its fatal `[HP: 0]` hit into the head, then the kill by the same player and weapon", () => {
    const at = events.findIndex((e) => e.type === "hit" && e.hp === 0)
    const [fatal, kill] = [events[at]!, events[at + 1]!]
    expect(fatal).toMatchObject({ type: "hit", hp: 0, bodyPart: "Head", weapon: "M4-A1", victim: { name: "Bob" }, attacker: { kind: "player", player: { name: "Alice" } } })
    expect(kill).toMatchObject({ type: "killed", weapon: "M4-A1", victim: { name: "Bob", dayzId: idOf("Bob") }, killer: { kind: "player", player: { name: "Alice", dayzId: idOf("Alice") } } })
    if (fatal.type !== "hit" || kill.type !== "killed") throw new Error("not a hit and a kill")
    expect(kill.distance).toBe(fatal.distance)
    expect(kill.victim.pos).toEqual(fatal.victim.pos)
  })

  it("kills by players (ranged, melee, fists), animals, infected, the environment; suicide and bleeding out", () => {
    const kills = events.flatMap((e) => (e.type === "killed" ? [e] : []))
    expect(
      kills.map((e) => [
        e.victim.name,
        e.killer.kind === "player" ? `player ${e.killer.player.name}` : e.killer.kind === "suicide" ? "suicide" : `${e.killer.kind} ${e.killer.name}`,
        e.weapon,
        e.distance === null ? null : "distance"
      ])
    ).toEqual([
      ["Bob", "player Alice", "M4-A1", "distance"],
      ["Carl (Medic)", "player Bob", "Machete", null],
      ["Alice", "player Carl (Medic)", "MeleeFist", null],
      ["Dora [PvP]", "animal Animal_UrsusArctos", null, null],
      ["Bob", "zombie ZmbM_SoldierNormal", null, null],
      ["Carl (Medic)", "environment LandMineTrap", null, null],
      ["Bob", "suicide", null, null],
      ["Carl (Medic)", "environment bleeding", null, null],
      ["Dora [PvP]", "player Alice", "AKM", "distance"]
    ])
    for (const kill of kills) expect(kill.victim.dayzId).toBe(idOf(kill.victim.name))
  })

  it("positions: unconscious and awake, `died.` after falls, suicides and bleeding, the PlayerList block", () => {
    const positions = events.flatMap((e) => (e.type === "position" ? [e.player.name] : []))
    expect(positions).toEqual(["Dora [PvP]", "Dora [PvP]", "Alice", "Bob", "Carl (Medic)", "Alice", "Bob", "Carl (Medic)", "Dora [PvP]"])
    const listed = events.slice(-4)
    for (const e of listed) {
      if (e.type !== "position") throw new Error(`not a position: ${e.type}`)
      const person = world.findPerson(e.player.name)!
      expect(e.player.dayzId).toBe(person.dayzId)
      expect(e.player.pos).toEqual({
        x: Number(person.character.position.x.toFixed(1)),
        y: Number(person.character.position.y.toFixed(1)),
        z: Number(person.character.position.z.toFixed(1))
      })
    }
  })

  it("the lines' word order and spacing are the game's", () => {
    const text = lines.join("\n")
    expect(text).toMatch(/\| Player "Bob" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\)\[HP: 0\] hit by Player "Alice" \(id=[^ ]+ pos=<[^>]+>\) into Head\(0\) for [\d.]+ damage \(Bullet_556x45\) with M4-A1 from [\d.]+ meters $/m)
    expect(text).toMatch(/\| Player "Bob" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\) killed by Player "Alice" \(id=[^ ]+ pos=<[^>]+>\) with M4-A1 from [\d.]+ meters $/m)
    expect(text).toMatch(/\| Player "Alice" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\) killed by Player "Carl \(Medic\)" \(id=[^ ]+ pos=<[^>]+>\) with \(MeleeFist\)$/m)
    expect(text).toMatch(/\| Player "Bob" \(id=[^ ]+ pos=<[^>]+>\) committed suicide\n[^\n]*\| Player "Bob" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\) died\. Stats> Water: [\d.]+ Energy: [\d.]+ Bleed sources: \d+$/m)
    expect(text).toMatch(/\| Player "Carl \(Medic\)" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\) died\. Stats> .*\n[^\n]*\| Player "Carl \(Medic\)" \(DEAD\) \(id=[^ ]+ pos=<[^>]+>\) bled out$/m)
    expect(text).toMatch(/\| \[Chat - Global\]\("Alice"\(id=[^)]+\)\): hello everyone$/m)
    expect(text).toMatch(/\| Chat\("Bob"\(id=[^)]+\)\): friendly\?$/m)
    expect(text).toMatch(/\| Player "Mallory"\(id=Unknown\) has been disconnected$/m)
    expect(text).toMatch(/\| ##### PlayerList log: 4 players\n(?:[^\n]*\| Player "[^"]+" \(id=[^ ]+ pos=<[^>]+>\)\n){4}[^\n]*\| #####$/m)
  })
})
