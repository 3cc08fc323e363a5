/**
 * The ADM line reader: every shape real servers write (see fixtures/README.md for where each was checked),
 * the spacing of each game version, CRLF, hostile names, and what is ignored or unknown. Both readers inside
 * it (the fast expressions and the careful block-by-block one) must agree on every line here.
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import type { AdmEvent, AdmLine } from "../../src/gamelog/internal/adm/events.js"
import { parseAdmLine, parseAdmLineCarefully } from "../../src/gamelog/internal/adm/parse.js"

const A = "TcmSnkztHYG6vKHSzwZPju4gD2sNd5iA6OZaCwb3Azw="
const B = "Aiu5UWnjn8bVKBwl0GS_iK-LRPs6Z7wcTn1NIn0IfGc="
const C = "z2FddfFwa0p2fkqTfHfg8fvnrPpmaB8Mmmu_-UDbqEw="

/** Both readers, which must agree. */
const read = (line: string): AdmLine => {
  const fast = parseAdmLine(line)
  expect(parseAdmLineCarefully(line)).toEqual(fast)
  return fast
}

const eventOf = (line: string): AdmEvent => {
  const result = read(line)
  if (result.kind !== "event") throw new Error(`not an event (${result.kind}): ${line}`)
  return result.event
}

const fixtureLines = (name: string): Array<string> => {
  const text = Fs.readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), "utf8")
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return lines
}

/** How many lines of each kind (events by type). */
const tally = (lines: ReadonlyArray<string>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const line of lines) {
    const result = read(line)
    const key = result.kind === "event" ? result.event.type : result.kind
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe("the file's banner and times", () => {
  it("reads the header's date and time", () => {
    expect(eventOf("AdminLog started on 2026-11-21 at 18:00:00")).toEqual({ type: "log-started", date: "2026-11-21", seconds: 64_800 })
    expect(eventOf("AdminLog started on 2026-11-21 at 18:00:00\r")).toEqual({ type: "log-started", date: "2026-11-21", seconds: 64_800 })
    expect(eventOf("\uFEFFAdminLog started on 2024-02-29 at 00:00:01")).toEqual({ type: "log-started", date: "2024-02-29", seconds: 1 })
  })

  it("an impossible header date or time is unknown", () => {
    expect(read("AdminLog started on 2026-02-30 at 18:00:00")).toEqual({ kind: "unknown" })
    expect(read("AdminLog started on 2026-11-21 at 24:00:00")).toEqual({ kind: "unknown" })
    expect(read("AdminLog started on 2026-11-21")).toEqual({ kind: "unknown" })
  })

  it("empty lines and the rulers around the file are ignored", () => {
    for (const line of ["", "\r", "   ", "*".repeat(78), "**********************************EOF****************************************\r"]) {
      expect(read(line)).toEqual({ kind: "ignored" })
    }
  })

  it("`HH:MM:SS | ` with any spacing around the bar; seconds of the day", () => {
    const line = (prefix: string) => `${prefix}Player "A" (id=${A} pos=<1.0, 2.0, 3.0>)`
    for (const prefix of ["23:59:58 | ", "23:59:58|", "23:59:58  |  ", "23:59:58\t|\t"]) {
      expect(eventOf(line(prefix))).toMatchObject({ type: "position", seconds: 86_398 })
    }
  })

  it("no time, a short or impossible time, a line that is not the log's: unknown", () => {
    for (const line of [
      `24:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)`,
      `12:60:00 | Player "A" (id=${A} pos=<1, 2, 3>)`,
      `12:00:61 | Player "A" (id=${A} pos=<1, 2, 3>)`,
      `06:08 | Player "A" (id=${A} pos=<1, 2, 3>)`,
      `12:00:00 Player "A" (id=${A} pos=<1, 2, 3>)`,
      `Player "A" (id=${A} pos=<1, 2, 3>)`,
      " (31)",
      "\u0000\u0000\u0000garbage",
      "12:00:0"
    ]) {
      expect(read(line), line).toEqual({ kind: "unknown" })
    }
  })

  it("a CRLF line reads as the same line without the CR", () => {
    const line = `18:06:31 | Player "Mira" (DEAD) (id=${C} pos=<4866.3, 10215, 339.1>) killed by Player "Kestrel" (id=${A} pos=<4866.7, 10215.8, 339.1>) with AKM from 0.92363 meters `
    expect(read(`${line}\r`)).toEqual(read(line))
  })
})

describe("connects and disconnects", () => {
  it("`is connected (id=...)`, the name's parentheses kept", () => {
    expect(eventOf(`18:01:09 | Player "Pavel (1)" is connected (id=${A})`)).toEqual({
      type: "connected",
      seconds: 64_869,
      player: { name: "Pavel (1)", dayzId: A, pos: null }
    })
  })

  it("the console order, with a position: `(id=... pos=<...>) is connected`", () => {
    expect(eventOf(`18:02:15 | Player "Pavel" (id=${A} pos=<11617.2, 14954.9, 93.6>) is connected`)).toEqual({
      type: "connected",
      seconds: 64_935,
      player: { name: "Pavel", dayzId: A, pos: { x: 11617.2, y: 14954.9, z: 93.6 } }
    })
  })

  it("`has been disconnected`, with or without a space before the parenthesis", () => {
    const expected = { type: "disconnected", seconds: 3600, player: { name: "Old Man Jenkins", dayzId: B, pos: null } }
    expect(eventOf(`01:00:00 | Player "Old Man Jenkins"(id=${B}) has been disconnected`)).toEqual(expected)
    expect(eventOf(`01:00:00 | Player "Old Man Jenkins" (id=${B}) has been disconnected`)).toEqual(expected)
  })

  it("`id=Unknown` (a client that left before it was connected) has no DayZ ID", () => {
    expect(eventOf(`20:06:52 | Player "Richy"(id=Unknown) has been disconnected`)).toEqual({
      type: "disconnected",
      seconds: 72_412,
      player: { name: "Richy", dayzId: null, pos: null }
    })
  })

  it("`is connecting` (console, before the character loads) is ignored", () => {
    expect(read(`18:01:05 | Player "Kestrel" (id=${A}) is connecting`)).toEqual({ kind: "ignored" })
  })
})

describe("chat", () => {
  it("vanilla `Chat(...)` has no channel", () => {
    expect(eventOf(`18:04:15 | Chat("Pavel (1)"(id=${A})): ok :) see you (at the) "airfield"`)).toEqual({
      type: "chat",
      seconds: 65_055,
      channel: null,
      player: { name: "Pavel (1)", dayzId: A, pos: null },
      text: 'ok :) see you (at the) "airfield"'
    })
  })

  it("`[Chat - <Channel>]` (chat mods) and the older `Chat[<Channel>]`: the channel lower-cased", () => {
    const cases: Array<[string, string | null]> = [
      [`[Chat - Global]("Mira"(id=${C})): anyone near Vybor? `, "global"],
      [`[Chat - Direct]("Mira"(id=${C})): anyone near Vybor? `, "direct"],
      [`[Chat - Side]("Mira"(id=${C})): anyone near Vybor? `, "side"],
      [`[Chat - Vehicle]("Mira"(id=${C})): anyone near Vybor? `, "vehicle"],
      [`[Chat - Group]("Mira"(id=${C})): anyone near Vybor? `, "group"],
      [`[Chat - Command]("Mira"(id=${C})): anyone near Vybor? `, "command"],
      [`[Chat - Lobby]("Mira"(id=${C})): anyone near Vybor? `, "lobby"],
      [`[Chat - Transport]("Mira"(id=${C})): anyone near Vybor? `, "transport"],
      [`[Chat - ]("Mira"(id=${C})): anyone near Vybor? `, null],
      [`Chat[Global]("Mira"(id=${C})): anyone near Vybor? `, "global"],
      [`Chat[Admin]("Mira"(id=${C})): anyone near Vybor? `, "admin"]
    ]
    for (const [line, channel] of cases) {
      expect(eventOf(`12:19:06 | ${line}`), line).toEqual({
        type: "chat",
        seconds: 44_346,
        channel,
        player: { name: "Mira", dayzId: C, pos: null },
        text: "anyone near Vybor? "
      })
    }
  })

  it("spacing variants and an empty message", () => {
    expect(eventOf(`18:20:10 | Chat ("Old Man Jenkins" (id=${B})): hello log`)).toMatchObject({ player: { name: "Old Man Jenkins", dayzId: B }, text: "hello log" })
    expect(eventOf(`18:20:10 | Chat("Old Man Jenkins"(id=${B})): `)).toMatchObject({ text: "" })
  })

  it("a chat line cut before its text is unknown", () => {
    expect(read(`18:20:10 | Chat("Old Man Jenkins"(id=${B}`)).toEqual({ kind: "unknown" })
    expect(read(`18:20:10 | [Chat - Global]("Old Man`)).toEqual({ kind: "unknown" })
  })
})

describe("hits", () => {
  it("by a player, ranged: hp, body part, damage, ammo, weapon, distance (the trailing space the game writes)", () => {
    expect(
      eventOf(
        `20:05:46 | Player "Mira" (id=${C} pos=<4867.1, 10217.6, 339.1>)[HP: 88.5114] hit by Player "Kestrel" (id=${A} pos=<4871.6, 10214, 339.1>) into RightHand(47) for 86.1164 damage (Bullet_556x45) with M4-A1 from 5.85645 meters `
      )
    ).toEqual({
      type: "hit",
      seconds: 72_346,
      victim: { name: "Mira", dayzId: C, pos: { x: 4867.1, y: 10217.6, z: 339.1 } },
      hp: 88.5114,
      attacker: { kind: "player", player: { name: "Kestrel", dayzId: A, pos: { x: 4871.6, y: 10214, z: 339.1 } } },
      bodyPart: "RightHand",
      damage: 86.1164,
      ammo: "Bullet_556x45",
      weapon: "M4-A1",
      distance: 5.85645
    })
  })

  it("a weapon with spaces and slashes; the fatal `[HP: 0]` hit into the head, the victim (DEAD)", () => {
    expect(
      eventOf(
        `20:08:12 | Player "Muty" (DEAD) (id=${C} pos=<6942.0, 7677.0, 296.9>)[HP: 0] hit by Player "Jeffery" (id=${A} pos=<6976.7, 7744.1, 297.5>) into Head(0) for 33.5483 damage (Bullet_762x54) with Mosin 91/30 from 75.5504 meters `
      )
    ).toMatchObject({ victim: { name: "Muty", dayzId: C }, hp: 0, bodyPart: "Head", damage: 33.5483, weapon: "Mosin 91/30", distance: 75.5504 })
    expect(
      eventOf(
        `20:10:12 | Player "Muty" (id=${C} pos=<6928.6, 7770.3, 296.7>)[HP: 56.9588] hit by Player "Jeffery" (DEAD) (id=${A} pos=<6956.1, 7733.3, 296.8>) into RightLeg(3) for 26.0892 damage (Bullet_12GaugePellets) with Sawed-off IZh-43 from 46.1073 meters`
      )
    ).toMatchObject({ attacker: { kind: "player", player: { name: "Jeffery", dayzId: A } }, weapon: "Sawed-off IZh-43", distance: 46.1073 })
  })

  it("melee has a weapon and no distance; fists neither", () => {
    expect(
      eventOf(
        `20:12:18 | Player "Muty" (id=${C} pos=<7029.7, 7700.1, 296.0>)[HP: 35.9929] hit by Player "Jeffery" (id=${A} pos=<7029.1, 7699.5, 296.1>) into Head(0) for 5 damage (MeleeBeanBasher) with Plain Baseball Bat Red`
      )
    ).toMatchObject({ bodyPart: "Head", damage: 5, ammo: "MeleeBeanBasher", weapon: "Plain Baseball Bat Red", distance: null })
    expect(
      eventOf(
        `18:07:02 | Player "Pavel" (id=${C} pos=<7029.7, 7700.1, 296.0>)[HP: 90] hit by Player "Lena" (id=${A} pos=<7029.1, 7699.5, 296.1>) into Torso(1) for 10 damage (MeleeFist_Heavy)`
      )
    ).toMatchObject({ attacker: { kind: "player" }, bodyPart: "Torso", damage: 10, ammo: "MeleeFist_Heavy", weapon: null, distance: null })
  })

  it("the old form (1.0x): no `Player` before the attacker, a comma before `pos`", () => {
    expect(
      eventOf(
        `18:20:01 | Player "Kestrel"(id=${A}, pos=<3605.9, 2296.0, 6.0>)[HP: 74] hit by "Old Man Jenkins"(id=${B} pos=<3605.9, 2296.0, 6.0>) into Head(0) for 26 damage (Bullet_45ACP) with FX-45 from 1.12831 meters`
      )
    ).toEqual({
      type: "hit",
      seconds: 66_001,
      victim: { name: "Kestrel", dayzId: A, pos: { x: 3605.9, y: 2296, z: 6 } },
      hp: 74,
      attacker: { kind: "player", player: { name: "Old Man Jenkins", dayzId: B, pos: { x: 3605.9, y: 2296, z: 6 } } },
      bodyPart: "Head",
      damage: 26,
      ammo: "Bullet_45ACP",
      weapon: "FX-45",
      distance: 1.12831
    })
  })

  it("infected by display name (`Infected`, localised) or class; animals by display name", () => {
    const hit = (by: string) => eventOf(`18:03:11 | Player "Kestrel" (id=${A} pos=<4437.8, 9392.4, 333.0>)[HP: 99.2775] hit by ${by}`)
    expect(hit("Infected into LeftArm(18) for 7.225 damage (MeleeSoldierInfected)")).toMatchObject({
      attacker: { kind: "zombie", name: "Infected" },
      bodyPart: "LeftArm",
      damage: 7.225,
      ammo: "MeleeSoldierInfected",
      weapon: null,
      distance: null
    })
    expect(hit("Infected into Torso(1) for 6.75 damage (MeleeZombie_Heavy)")).toMatchObject({ attacker: { kind: "zombie" }, ammo: "MeleeZombie_Heavy" })
    expect(hit("Заражённый into LeftLeg(8) for 7.225 damage (MeleeInfectedLong)")).toMatchObject({ attacker: { kind: "zombie", name: "Заражённый" } })
    expect(hit("ZmbM_CitizenASkinny_Brown into LeftLeg(8) for 8 damage (MeleeZombieMale)")).toMatchObject({ attacker: { kind: "zombie", name: "ZmbM_CitizenASkinny_Brown" } })
    expect(hit("Wolf into Head(0) for 10 damage (MeleeWolf)")).toMatchObject({ attacker: { kind: "animal", name: "Wolf" }, bodyPart: "Head", damage: 10 })
    expect(hit("Волк into Head(0) for 10 damage (MeleeWolf)")).toMatchObject({ attacker: { kind: "animal", name: "Волк" } })
    expect(hit("Brown Bear into Torso(36) for 23.75 damage (MeleeBearShock)")).toMatchObject({ attacker: { kind: "animal", name: "Brown Bear" }, damage: 23.75 })
    expect(hit("Animal_CanisLupus_Grey into Torso(1) for 20 damage (MeleeWolf)")).toMatchObject({ attacker: { kind: "animal", name: "Animal_CanisLupus_Grey" } })
  })

  it("the environment: falls, explosions, vehicles, fire, traps, objects, blocked blows, Expansion's AI", () => {
    const hit = (by: string) => eventOf(`18:07:30 | Player "Lena" (id=${B} pos=<2198.4, 3378.2, 91.9>)[HP: 95.9196] hit by ${by}`)
    const none = { bodyPart: null, damage: null, weapon: null, distance: null }
    expect(hit("FallDamageHealth")).toMatchObject({ hp: 95.9196, attacker: { kind: "environment", name: "FallDamageHealth" }, ammo: null, ...none })
    expect(hit("FallDamage")).toMatchObject({ attacker: { kind: "environment", name: "FallDamage" }, ammo: null, ...none })
    expect(hit("explosion (LandMineExplosion)")).toMatchObject({ attacker: { kind: "environment", name: "explosion" }, ammo: "LandMineExplosion", ...none })
    expect(hit("Hatchback_02_Black with TransportHit")).toMatchObject({ attacker: { kind: "environment", name: "Hatchback_02_Black" }, ammo: "TransportHit", ...none })
    expect(hit("Fireplace with FireDamage")).toMatchObject({ attacker: { kind: "environment", name: "Fireplace" }, ammo: "FireDamage" })
    expect(hit("TripwireTrap into (-1) for 0 damage (TripWireHit)")).toMatchObject({ attacker: { kind: "environment", name: "TripwireTrap" }, bodyPart: null, damage: 0, ammo: "TripWireHit" })
    expect(hit("Mosin9130_Black into RightArm(31) for 2.5 damage (FirearmHit_Rifle)")).toMatchObject({ attacker: { kind: "environment", name: "Mosin9130_Black" }, bodyPart: "RightArm" })
    expect(hit("Infected into Block(3) for 0 damage ")).toMatchObject({ attacker: { kind: "zombie" }, bodyPart: "Block", damage: 0, ammo: null })
    expect(hit(`AI "Elias" (group=2 faction="Mercenaries" pos=<2230.1, 3370.2, 92.3>) into Torso(12) for 10 damage (Bullet_556x45) with M4-A1 from 21.6 meters `)).toMatchObject({
      attacker: { kind: "environment", name: 'AI "Elias"' },
      bodyPart: "Torso",
      weapon: "M4-A1",
      distance: 21.6
    })
  })

  it("a hit on a body with no identity (`Unknown/Dead Entity`, `id=Unknown`) has no DayZ ID", () => {
    expect(
      eventOf(
        `20:11:18 | Player "Unknown/Dead Entity" (id=Unknown pos=<12155.5, 9759.9, 11.3>)[HP: 0] hit by Player "Kalamuchta" (id=${A} pos=<12155.1, 9760.9, 11.3>) into Brain(37) for 89.8052 damage (Bullet_762x39Tracer) with AKM from 1.08558 meters `
      )
    ).toMatchObject({ victim: { name: "Unknown/Dead Entity", dayzId: null, pos: { x: 12155.5, y: 9759.9, z: 11.3 } }, bodyPart: "Brain" })
  })
})

describe("deaths", () => {
  const victim = { name: "Mira", dayzId: C, pos: { x: 4866.3, y: 10215, z: 339.1 } }
  const died = (tail: string) => eventOf(`18:06:31 | Player "Mira" (DEAD) (id=${C} pos=<4866.3, 10215, 339.1>) ${tail}`)

  it("by a player, ranged", () => {
    expect(died(`killed by Player "Kestrel" (id=${A} pos=<4866.7, 10215.8, 339.1>) with AKM from 0.92363 meters `)).toEqual({
      type: "killed",
      seconds: 65_191,
      victim,
      killer: { kind: "player", player: { name: "Kestrel", dayzId: A, pos: { x: 4866.7, y: 10215.8, z: 339.1 } } },
      weapon: "AKM",
      distance: 0.92363
    })
    expect(died(`killed by Player "Kestrel" (id=${A} pos=<4866.7, 10215.8, 339.1>) with M4-A1 from 24.38 meters`)).toMatchObject({ weapon: "M4-A1", distance: 24.38 })
  })

  it("melee: no distance; fists: `with (MeleeFist)`; a killer who is dead too", () => {
    expect(died(`killed by Player "Kestrel" (id=${A} pos=<4866.7, 10215.8, 339.1>) with Combat Knife`)).toMatchObject({ killer: { kind: "player" }, weapon: "Combat Knife", distance: null })
    expect(died(`killed by Player "Kestrel" (id=${A} pos=<4866.7, 10215.8, 339.1>) with (MeleeFist)`)).toMatchObject({ weapon: "MeleeFist", distance: null })
    expect(died(`killed by Player "Kestrel" (DEAD) (id=${A} pos=<4866.7, 10215.8, 339.1>) with SCR 17`)).toMatchObject({
      killer: { kind: "player", player: { name: "Kestrel", dayzId: A } },
      weapon: "SCR 17"
    })
  })

  it("infected and animals by class; anything else named is the environment", () => {
    expect(died("killed by ZmbM_Jacket_blue")).toEqual({ type: "killed", seconds: 65_191, victim, killer: { kind: "zombie", name: "ZmbM_Jacket_blue" }, weapon: null, distance: null })
    expect(died("killed by ZmbF_CitizenANormal_Blue")).toMatchObject({ killer: { kind: "zombie", name: "ZmbF_CitizenANormal_Blue" } })
    expect(died("killed by Animal_CanisLupus_White")).toMatchObject({ killer: { kind: "animal", name: "Animal_CanisLupus_White" } })
    expect(died("killed by Animal_UrsusArctos")).toMatchObject({ killer: { kind: "animal", name: "Animal_UrsusArctos" } })
    expect(died("killed by LandMineTrap")).toMatchObject({ killer: { kind: "environment", name: "LandMineTrap" }, weapon: null })
    expect(died("killed by 6-M7 Frag Grenade")).toMatchObject({ killer: { kind: "environment", name: "6-M7 Frag Grenade" } })
    expect(died("killed by CivilianSedan_Wine")).toMatchObject({ killer: { kind: "environment", name: "CivilianSedan_Wine" } })
  })

  it("`killed by  with <weapon>` (a weapon nobody held): the environment, named by the weapon", () => {
    expect(died("killed by  with 40mm Explosive Grenade")).toMatchObject({
      killer: { kind: "environment", name: "40mm Explosive Grenade" },
      weapon: "40mm Explosive Grenade",
      distance: null
    })
  })

  it("suicide, bleeding out, drowning", () => {
    expect(eventOf(`20:11:10 | Player "Mira" (id=${C} pos=<4866.3, 10215, 339.1>) committed suicide`)).toEqual({
      type: "killed",
      seconds: 72_670,
      victim,
      killer: { kind: "suicide" },
      weapon: null,
      distance: null
    })
    expect(died("bled out")).toMatchObject({ killer: { kind: "environment", name: "bleeding" } })
    expect(died("drowned. Stats> Water: 5000 Energy: 2400.5 Bleed sources: 0")).toMatchObject({ killer: { kind: "environment", name: "drowning" } })
  })

  it("`died. Stats>` only says where (the game's own death line, no killer)", () => {
    for (const stats of ["died. Stats> Water: 453.218 Energy: 417.115 Bleed sources: 0", "died. Stats> Water: 489.53 Energy: 594.765", "died. Stats> could not fetch"]) {
      expect(died(stats)).toEqual({ type: "position", seconds: 65_191, player: victim })
    }
  })
})

describe("positions", () => {
  it("the PlayerList block's lines: x east, y north, z height; `(DEAD)` bodies too", () => {
    // The script prints the engine's vector as [0], [2], [1]: Chernarus is some 15 km each way, its hills a few hundred metres high.
    expect(eventOf(`20:06:22 | Player "Muty" (id=${C} pos=<7028.9, 7680.0, 296.2>)`)).toEqual({
      type: "position",
      seconds: 72_382,
      player: { name: "Muty", dayzId: C, pos: { x: 7028.9, y: 7680, z: 296.2 } }
    })
    expect(eventOf(`20:06:22 | Player "Liggy117" (DEAD) (id=${A} pos=<4866.2, 10214.9, 339.1>)`)).toMatchObject({ type: "position", player: { dayzId: A } })
  })

  it("integers, negative heights, and the engine's float max (no position)", () => {
    expect(eventOf(`13:03:05 | Player "debel" (id=${A} pos=<1475, 11884, -0.2>)`)).toMatchObject({ player: { pos: { x: 1475, y: 11884, z: -0.2 } } })
    expect(eventOf(`13:03:05 | Player "debel" (id=${A} pos=<-340282346638528859811704183484516925440.0, 11884, 5.1>)`)).toMatchObject({ player: { dayzId: A, pos: null } })
  })

  it("the states that carry a position", () => {
    for (const tail of [
      "is unconscious",
      "regained consciousness",
      "has drowned while unconscious",
      "is choosing to respawn",
      "is disconnecting while being unconscious",
      "is disconnecting while being restrained",
      "performed EmoteSitA",
      "performed EmoteSuicide with SteakKnife"
    ]) {
      expect(eventOf(`20:10:15 | Player "Jeffery" (id=${A} pos=<6964.6, 7739.0, 296.9>) ${tail}`), tail).toEqual({
        type: "position",
        seconds: 72_615,
        player: { name: "Jeffery", dayzId: A, pos: { x: 6964.6, y: 7739, z: 296.9 } }
      })
    }
  })
})

describe("ignored", () => {
  it("block markers, building and placement, flags, teleports, reports and mods' lines", () => {
    const p = `Player "Quiet Fox" (id=${A} pos=<12155.5, 9759.9, 11.3>)`
    for (const line of [
      "##### PlayerList log: 31 players",
      "#####",
      `${p} placed Fireplace<Fireplace>`,
      `${p} placed Nameless Object<GardenPlot>`,
      `${p} built Fence with Shovel`,
      `${p}Built wall_base_down on Fence with Hammer`,
      `${p}Dismantled Lower Frame from Fence with Hatchet`,
      `${p} dismantled Fence with Hammer`,
      `${p} destroyed Gate with Sledgehammer`,
      `${p} folded Fence`,
      `${p} packed Large Tent with Hands `,
      `${p} re-packed Medium Tent with Hands `,
      `${p} repaired Gate with Hammer`,
      `${p} built ShelterStick with Hands `,
      `${p} has raised Flag_Livonia on TerritoryFlag at <12154.250000, 11.500000, 9760.750000>`,
      `${p} has lowered Flag_Livonia on TerritoryFlag at <12154.250000, 11.500000, 9760.750000>`,
      `${p}Player SurvivorBase<0x0000024f3a8c1e50> SurvivorM_Lewis:20305 Mounted BarbedWire on Fence`,
      `${p} was teleported from: <12155.481934, 11.441010, 9759.478516> to: <5154.072754, 56.397713, 1075.143311>. Reason: Spawning in Player Restricted Area: Bunker`,
      `PLAYER REPORT: <2026-11-21_18-14-00> <${A}>: someone is flying`,
      "[BBP] 'AgentSmi7h' (76561198045837007) DISMANTLED [T1] Large Floor using Hatchet LOCATION:<13043.718750, 58.478035, 7127.118164>",
      'CFAPIChatExpansion => {"status":1,"validation":true}',
      "------------------------- Expansion BaseRaiding Damage Report -------------------------",
      "ChatLog enabled",
      ""
    ]) {
      expect(read(`18:08:30 | ${line}`), line).toEqual({ kind: "ignored" })
    }
  })
})

describe("unknown: cut and malformed lines", () => {
  const full = `18:06:20 | Player "Mira" (id=${C} pos=<4867.1, 10217.6, 339.1>)[HP: 88.5114] hit by Player "Kestrel" (id=${A} pos=<4871.6, 10214, 339.1>) into RightHand(47) for 86.1164 damage (Bullet_556x45) with M4-A1 from 5.85645 meters `

  it("a player line cut anywhere up to its ammo is unknown", () => {
    const cuts = ['"Mir', `(id=${C.slice(0, 10)}`, "pos=<4867.1, 102", "10217.6, 339.1>", "[HP: 88", "hit by Pla", '"Kest', `(id=${A.slice(0, 5)}`, "10214, 339.1>", " into Right", "RightHand(4", " for 86.1", "damage (Bullet_5"]
    for (const cut of cuts) {
      expect(full.includes(cut), cut).toBe(true)
      const line = full.slice(0, full.indexOf(cut) + cut.length)
      expect(read(line), line).toEqual({ kind: "unknown" })
    }
    // Cut inside ` from <n> meters`: the game always writes it whole.
    for (const cut of [" from", " from 5.85", " from 5.85645", " from 5.85645 met"]) {
      const line = full.slice(0, full.indexOf(" from") + cut.length)
      expect(read(line), line).toEqual({ kind: "unknown" })
    }
  })

  it("malformed blocks and tails", () => {
    for (const line of [
      `18:00:00 | Player "A" (id=${A} pos=<1, 2>)`,
      `18:00:00 | Player "A" (id=${A} pos=<1, two, 3>)`,
      `18:00:00 | Player "A"`,
      `18:00:00 | Player "A" (DEAD) killed by ZmbM_Jacket_blue`,
      `18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)[HP: 50`,
      `18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)[HP: x] hit by Infected into Torso(1) for 5 damage (MeleeInfected)`,
      `18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)[HP: 50] hit by Player "B"`,
      `18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)[HP: 50] hit by Infected into Torso for 5 damage (MeleeInfected)`,
      `18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>)[HP: 50] hit by Infect`,
      `18:00:00 | Player "A" (DEAD) (id=${A} pos=<1, 2, 3>) killed by Player "B" (id=${B}`
    ]) {
      expect(read(line), line).toEqual({ kind: "unknown" })
    }
  })

  it("an unknown tail after a whole block is a well-formed line the product does not use: ignored", () => {
    expect(read(`18:00:00 | Player "A" (id=${A} pos=<1, 2, 3>) did something new`)).toEqual({ kind: "ignored" })
  })
})

describe("hostile names: the real ids are never pushed aside", () => {
  const R = "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR="
  const F = "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF="
  const K = "KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK="

  it("a name imitating a block: the ids in the last block", () => {
    expect(eventOf(`10:00:00 | Player "Evil" (id=${F} pos=<1, 2, 3>)" (id=${R} pos=<4, 5, 6>)`)).toEqual({
      type: "position",
      seconds: 36_000,
      player: { name: `Evil" (id=${F} pos=<1, 2, 3>)`, dayzId: R, pos: { x: 4, y: 5, z: 6 } }
    })
    expect(eventOf(`10:00:00 | Player "X"(id=${F}) has been disconnected"(id=${R}) has been disconnected`)).toMatchObject({
      type: "disconnected",
      player: { name: `X"(id=${F}) has been disconnected`, dayzId: R }
    })
    expect(eventOf(`10:00:00 | Player "X" is connected (id=${F})" is connected (id=${R})`)).toMatchObject({
      type: "connected",
      player: { name: `X" is connected (id=${F})`, dayzId: R }
    })
  })

  it("quotes and parentheses in a name; `(id=` without a closing quote before it is the name's", () => {
    expect(eventOf(`10:00:00 | Player "Bob "The Builder" (1)" (id=${R} pos=<4, 5, 6>)[HP: 50] hit by Player "K" (id=${K} pos=<7, 8, 9>) into Torso(1) for 5 damage (Bullet_9x19) with CR-75 from 3 meters `)).toMatchObject({
      victim: { name: 'Bob "The Builder" (1)', dayzId: R },
      attacker: { kind: "player", player: { name: "K", dayzId: K } }
    })
    expect(eventOf(`10:00:00 | Player "A (id=${F} pos=<1, 2, 3>)" (id=${R} pos=<4, 5, 6>)`)).toMatchObject({ player: { name: `A (id=${F} pos=<1, 2, 3>)`, dayzId: R } })
  })

  it("a victim imitating a hit by an infected or a kill by a player: the game's end of the line decides", () => {
    expect(
      eventOf(
        `10:00:00 | Player "A" (id=${F} pos=<1, 2, 3>)[HP: 5] hit by Infected into Torso(1) for 5 damage (MeleeInfected)" (id=${R} pos=<4, 5, 6>)[HP: 50] hit by Infected into Head(0) for 7 damage (MeleeInfected)`
      )
    ).toMatchObject({ victim: { dayzId: R, pos: { x: 4, y: 5, z: 6 } }, hp: 50, bodyPart: "Head", damage: 7 })
    expect(eventOf(`10:00:00 | Player "V" (DEAD) (id=${F} pos=<1, 2, 3>) killed by Player "K" (DEAD) (id=${R} pos=<4, 5, 6>) killed by ZmbM_CitizenASkinny_Brown`)).toMatchObject({
      type: "killed",
      victim: { dayzId: R },
      killer: { kind: "zombie", name: "ZmbM_CitizenASkinny_Brown" }
    })
  })

  it("a line with two players read in two ways: the attacker's ids stay, the victim's are dropped", () => {
    const tail = `(id=${K} pos=<7, 8, 9>) into Torso(1) for 5 damage (Bullet_9x19) with CR-75 from 3 meters `
    // The victim's name imitates the middle of the line.
    const victimLies = eventOf(`10:00:00 | Player "V" (id=${F} pos=<1, 2, 3>)[HP: 1] hit by Player "Z" (id=${R} pos=<4, 5, 6>)[HP: 50] hit by Player "K" ${tail}`)
    expect(victimLies).toMatchObject({ victim: { dayzId: null, pos: null }, attacker: { kind: "player", player: { dayzId: K, pos: { x: 7, y: 8, z: 9 } } } })
    // The attacker's does.
    const attackerLies = eventOf(`10:00:00 | Player "V" (id=${R} pos=<4, 5, 6>)[HP: 50] hit by Player "Z" (id=${F} pos=<1, 2, 3>)[HP: 1] hit by Player "W" ${tail}`)
    expect(attackerLies).toMatchObject({ victim: { dayzId: null, pos: null }, attacker: { kind: "player", player: { dayzId: K } } })
  })

  it("chat: a name or text imitating `\"(id=...)): ` leaves the line with no id", () => {
    expect(eventOf(`10:00:00 | Chat("a"(id=${F})): b"(id=${R})): hi`)).toMatchObject({ player: { name: "a", dayzId: null } })
    expect(eventOf(`10:00:00 | Chat("Bob"(id=${R})): look "(id=${F})): x`)).toMatchObject({ player: { name: "Bob", dayzId: null }, text: `look "(id=${F})): x` })
    expect(eventOf(`10:00:00 | Chat("Bob"(id=${R})): quoting "(id=${R})): x`)).toMatchObject({ player: { name: "Bob", dayzId: R } })
  })

  it("long hostile lines read quickly and never throw", () => {
    const started = performance.now()
    const lines = [
      `10:00:00 | Player "V" ${`(id=${F} pos=<1, 2, 3>)[HP: 1] hit by Player "`.repeat(3000)}" (id=${K} pos=<7, 8, 9>) into Torso(1) for 5 damage (X)`,
      `10:00:00 | Player "${'"'.repeat(100_000)}(id=x pos=<1, 2, 3>)`,
      `10:00:00 | Chat("${'"(id=x)):'.repeat(20_000)}`,
      `10:00:00 | Player "a" (id=x pos=<1, 2, 3>)[HP: 1] hit by ${"a ".repeat(50_000)}into`,
      `10:00:00 | Player "a" (id=x pos=<1, 2, 3>)[HP: 1] hit by Player "b" (id=y pos=<1, 2, 3>) into Torso(1) for 5 damage (X) with ${"a from 1 ".repeat(20_000)}mete`,
      `10:00:00 | Player "a" ${"(id=".repeat(50_000)}`
    ]
    for (const line of lines) expect(() => read(line)).not.toThrow()
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it("never throws on random lines made of log fragments", () => {
    const fragments = ['Player "', '"', " (DEAD) ", "(id=", `${A}`, " pos=<", "1.5, 2, -3", ">", ")", "[HP: ", "50", "]", " hit by ", " killed by ", "Player ", " into ", "Head(0)", " for ", " damage ", "(Bullet_9x19)", " with ", "M4-A1", " from ", " meters ", "Chat(", "[Chat - Global](", ")): ", ",", " ", "\r", "18:00:00 | "]
    let seed = 42
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    for (let i = 0; i < 3000; i++) {
      let line = i % 2 === 0 ? "18:00:00 | " : ""
      const parts = 1 + Math.floor(next() * 25)
      for (let j = 0; j < parts; j++) line += fragments[Math.floor(next() * fragments.length)]!
      expect(["event", "ignored", "unknown"]).toContain(read(line).kind)
    }
  })
})

describe("the fixtures", () => {
  it("mixed-versions.ADM (CRLF, several versions' spacing): every line, and how many of each", () => {
    const text = Fs.readFileSync(fileURLToPath(new URL("./fixtures/mixed-versions.ADM", import.meta.url)), "utf8")
    expect(text.split("\r\n").length).toBe(text.split("\n").length)
    const lines = fixtureLines("mixed-versions.ADM")
    expect(tally(lines)).toEqual({
      "log-started": 1,
      connected: 6,
      disconnected: 3,
      chat: 5,
      hit: 20,
      killed: 11,
      position: 12,
      ignored: 22,
      unknown: 1
    })
    const events = lines.map((line) => parseAdmLine(line)).flatMap((r) => (r.kind === "event" ? [r.event] : []))
    const killers = events.flatMap((e) => (e.type === "killed" ? [e.killer.kind === "player" ? `player ${e.killer.player.name}` : e.killer.kind === "suicide" ? "suicide" : `${e.killer.kind} ${e.killer.name}`] : []))
    expect(killers).toEqual([
      "animal Animal_CanisLupus_Grey",
      "player Kestrel",
      "player Lena",
      "suicide",
      "environment bleeding",
      "environment drowning",
      "zombie ZmbM_Jacket_blue",
      "environment LandMineTrap",
      "environment 40mm Explosive Grenade",
      "environment 6-M7 Frag Grenade",
      "player Old Man Jenkins"
    ])
    const attackers = events.flatMap((e) => (e.type === "hit" ? [e.attacker.kind] : []))
    expect(attackers.filter((k) => k === "player")).toHaveLength(7)
    expect(attackers.filter((k) => k === "zombie")).toHaveLength(3)
    expect(attackers.filter((k) => k === "animal")).toHaveLength(3)
    expect(attackers.filter((k) => k === "environment")).toHaveLength(7)
    expect(events.filter((e) => e.type === "chat").map((e) => (e.type === "chat" ? e.channel : undefined))).toEqual(["global", "direct", null, "admin", null])
  })

  it("partial-last-line.ADM (LF, a byte-order mark, garbage, a last line cut short): the cut line is unknown", () => {
    const lines = fixtureLines("partial-last-line.ADM")
    expect(lines[0]!.charCodeAt(0)).toBe(0xfeff)
    expect(tally(lines)).toEqual({
      "log-started": 1,
      connected: 2,
      disconnected: 1,
      chat: 1,
      hit: 5,
      killed: 1,
      position: 2,
      ignored: 5,
      unknown: 4
    })
    expect(read(lines.at(-1)!)).toEqual({ kind: "unknown" })
  })
})
