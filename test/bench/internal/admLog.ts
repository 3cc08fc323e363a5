/**
 * The adm benchmark's admin log: a seeded DayZ `.ADM` file of a given size,
 * as a busy server writes it, and what it holds (lines of each kind, kills).
 *
 * One simulated second at a time from `AdminLog started on 2026-11-21 at
 * 18:00:00` (the clock runs past midnight as a server's does, the lines keep
 * `HH:MM:SS | `), CRLF line ends as the game writes them on Windows:
 *
 * - about 60 players online out of a pool of BENCH_ADM_PLAYERS regulars and
 *   occasional visitors (a session lasts an hour on average), each
 *   `Player "A" is connected (id=I)` and `Player "A"(id=I) has been
 *   disconnected`; a few names are not ASCII, some hold spaces or brackets;
 * - a `##### PlayerList log: N players` block every 5 minutes, one line per
 *   player online with their position (the positions wander);
 * - chat, `[Chat - Global]("A"(id=I)): text`, now and then `Side`/`Direct`;
 * - infected hitting players (`hit by ZmbM_CitizenASkinny_Brown into
 *   LeftLeg(11) for 8 damage (MeleeZombieMale)`), fights between players
 *   (`hit by Player "B" (id=... pos=<...>) into Head(0) for 26 damage
 *   (Bullet_45ACP) with FX-45 from 12.3 meters`), a few falls, unconscious
 *   players and placed objects;
 * - kills: a fatal `(DEAD) ...[HP: 0] hit by` line, then `Player "V" (DEAD)
 *   (id=... pos=<...>) killed by Player "K" (id=... pos=<...>) with M4-A1
 *   from 24.38 meters` (by infected about one kill in five: `killed by
 *   ZmbM_...`).
 *
 * DayZ IDs are the game's: base64 of sha256 of the Steam64's decimal ASCII,
 * `+` as `-` and `/` as `_`, padding kept.
 */
import { createHash } from "node:crypto"
import { closeSync, openSync, writeSync } from "node:fs"
import { seededRandom } from "../../support/seededRandom.js"

export const ADM_FILE_NAME = "DayZServer_x64_2026-11-21_18-00-00.ADM"
const HEADER = "AdminLog started on 2026-11-21 at 18:00:00"
const START_SECONDS = 18 * 3600
const EOL = "\r\n"
const STEAM64_BASE = 76561198000000000n
const ONLINE_TARGET = 60
const MEAN_SESSION_S = 3600
const PLAYER_LIST_EVERY_S = 300
/** Bytes buffered before each write. */
const FLUSH = 1 << 20

export const dayzIdOf = (steam64: string): string =>
  createHash("sha256").update(steam64, "latin1").digest("base64").replace(/\+/g, "-").replace(/\//g, "_")

export interface AdmLogReport {
  readonly bytes: number
  readonly lines: number
  /** `killed by` lines: the kill feed's rows. */
  readonly kills: number
  readonly playerKills: number
  readonly zombieKills: number
  readonly hits: number
  readonly fatalHits: number
  readonly chat: number
  readonly connects: number
  readonly disconnects: number
  readonly playerLists: number
  readonly positions: number
  readonly other: number
  /** Distinct players who connected. */
  readonly players: number
  /** Simulated seconds the file covers. */
  readonly seconds: number
}

interface Player {
  readonly name: string
  readonly id: string
  x: number
  y: number
  z: number
  hp: number
  online: boolean
}

const FIRST = ["Survivor", "Ivan", "Kolya", "Sasha", "Mike", "Jack", "Lena", "Olga", "Tom", "Nils", "Bjorn", "Pierre", "Hans", "Marek", "Tomek", "Dave"]
const LAST = ["", "", "_TTV", "99", "Sniper", "Bandit", " the Medic", "xX", "-GER", " [PvP]", "420", "_UK", "Hunter", " (AFK)", "_Wolf", "Doc"]
const FOREIGN = ["Jürgen", "Дмитрий", "Łukasz", "José", "Søren", "Ärger", "Ковбой", "Zoë"]
const WEAPONS: ReadonlyArray<readonly [string, string]> = [
  ["M4-A1", "Bullet_556x45"],
  ["AKM", "Bullet_762x39"],
  ["FX-45", "Bullet_45ACP"],
  ["Mosin 91/30", "Bullet_762x54"],
  ["SVD", "Bullet_762x54"],
  ["CR-75", "Bullet_380"],
  ["Blaze", "Bullet_308Win"],
  ["KA-M", "Bullet_545x39"],
  ["BK-12", "Bullet_12GaugePellets"],
  ["Deagle", "Bullet_357"]
]
const ZOMBIES = [
  "ZmbM_CitizenASkinny_Brown",
  "ZmbM_PatrolNormal_Autumn",
  "ZmbF_JournalistNormal_White",
  "ZmbM_HermitSkinny_Beige",
  "ZmbM_Jacket_blue",
  "ZmbF_CitizenANormal_Blue",
  "ZmbM_SoldierNormal"
]
const ZOMBIE_AMMO = ["MeleeZombieMale", "MeleeZombieFemale", "MeleeInfected"]
const PARTS: ReadonlyArray<readonly [string, number]> = [
  ["Head", 0],
  ["Torso", 1],
  ["Torso", 1],
  ["Torso", 1],
  ["LeftArm", 2],
  ["RightArm", 4],
  ["LeftLeg", 11],
  ["RightLeg", 12],
  ["LeftFoot", 13],
  ["RightHand", 5]
]
const SAID = ["anyone near Elektro?", "friendly!", "need morphine", "where is the heli crash", "lol", "gg", "selling AKM at trader", "don't shoot", "KOS at NWAF", "restart in 10?", "who has a car", "thanks man"]
const PLACED = ["Fireplace", "TentMedium", "LandMineTrap", "BearTrap", "FenceKit", "Barrel_Green"]

const format = (n: number): string => {
  const t = Math.trunc(n * 10) / 10
  return Number.isInteger(t) ? String(t) : t.toFixed(1)
}
const clock = (seconds: number): string => {
  const s = seconds % 86_400
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  return `${h < 10 ? "0" : ""}${h}:${m < 10 ? "0" : ""}${m}:${sec < 10 ? "0" : ""}${sec} | `
}

/** Writes `file`: at least `targetBytes` of admin log (whole seconds of it), seeded by `seed`. */
export const writeAdmLog = (file: string, targetBytes: number, seed: number, poolSize: number): AdmLogReport => {
  const random = seededRandom(seed, "adm")
  const pick = <A>(items: ReadonlyArray<A>): A => items[random.int(0, items.length)]!
  const chance = (p: number) => random.next() < p
  const pool: Array<Player> = Array.from({ length: poolSize }, (_, i) => {
    const steam64 = (STEAM64_BASE + BigInt(i) * 7919n + 13n).toString()
    const base = i % 29 === 5 ? FOREIGN[i % FOREIGN.length]! : `${FIRST[i % FIRST.length]!}${LAST[(i * 7) % LAST.length]!}`
    return { name: `${base}${i >= FIRST.length * LAST.length ? String(i) : ""}`, id: dayzIdOf(steam64), x: 0, y: 0, z: 0, hp: 100, online: false }
  })
  // Regulars come back much more often than visitors: the first tenth of the pool is drawn half the time.
  const drawOffline = (): Player => {
    for (;;) {
      const p = pool[chance(0.5) ? random.int(0, Math.max(1, Math.floor(poolSize / 10))) : random.int(0, poolSize)]!
      if (!p.online) return p
    }
  }
  const online: Array<Player> = []
  const everSeen = new Set<Player>()

  const fd = openSync(file, "w")
  let buffer = ""
  let bytes = 0
  let lines = 0
  const counts = { kills: 0, playerKills: 0, zombieKills: 0, hits: 0, fatalHits: 0, chat: 0, connects: 0, disconnects: 0, playerLists: 0, positions: 0, other: 0 }
  const flush = () => {
    const chunk = Buffer.from(buffer, "utf8")
    writeSync(fd, chunk)
    bytes += chunk.length
    buffer = ""
  }
  const line = (text: string) => {
    buffer += text + EOL
    lines++
    if (buffer.length >= FLUSH) flush()
  }
  const block = (p: Player, dead = false) => `Player "${p.name}"${dead ? " (DEAD)" : ""} (id=${p.id} pos=<${format(p.x)}, ${format(p.y)}, ${format(p.z)}>)`
  const spawn = (p: Player) => {
    p.x = 1000 + random.next() * 13_000
    p.y = 1500 + random.next() * 12_500
    p.z = 5 + random.next() * 400
    p.hp = 100
  }
  const connect = (p: Player, at: string) => {
    p.online = true
    spawn(p)
    online.push(p)
    everSeen.add(p)
    counts.connects++
    line(`${at}Player "${p.name}" is connected (id=${p.id})`)
  }
  const disconnect = (index: number, at: string) => {
    const p = online[index]!
    online[index] = online[online.length - 1]!
    online.pop()
    p.online = false
    counts.disconnects++
    line(`${at}Player "${p.name}"(id=${p.id}) has been disconnected`)
  }
  const two = (): readonly [Player, Player] | undefined => {
    if (online.length < 2) return undefined
    const a = random.int(0, online.length)
    let b = random.int(0, online.length - 1)
    if (b >= a) b++
    return [online[a]!, online[b]!]
  }

  try {
    line(HEADER)
    let t = START_SECONDS
    for (let i = 0; i < ONLINE_TARGET; i++) connect(drawOffline(), clock(t))
    while (bytes + buffer.length < targetBytes) {
      t++
      const at = clock(t)
      for (const p of online) {
        p.x = Math.min(15_000, Math.max(0, p.x + (random.next() - 0.5) * 6))
        p.y = Math.min(15_000, Math.max(0, p.y + (random.next() - 0.5) * 6))
      }
      if (chance(online.length / MEAN_SESSION_S)) disconnect(random.int(0, online.length), at)
      if (chance(ONLINE_TARGET / MEAN_SESSION_S)) connect(drawOffline(), at)
      if (t % PLAYER_LIST_EVERY_S === 0) {
        counts.playerLists++
        line(`${at}##### PlayerList log: ${online.length} players`)
        for (const p of online) {
          counts.positions++
          line(`${at}${block(p)}`)
        }
        line(`${at}#####`)
      }
      if (online.length === 0) continue
      if (chance(0.3)) {
        const p = pick(online)
        const channel = chance(0.85) ? "Global" : chance(0.5) ? "Side" : "Direct"
        counts.chat++
        line(`${at}[Chat - ${channel}]("${p.name}"(id=${p.id})): ${pick(SAID)}`)
      }
      if (chance(0.6)) {
        const p = pick(online)
        const [part, index] = pick(PARTS)
        const damage = 3 + random.int(0, 12)
        p.hp = Math.max(1, p.hp - damage)
        counts.hits++
        line(`${at}${block(p)}[HP: ${p.hp}] hit by ${pick(ZOMBIES)} into ${part}(${index}) for ${damage} damage (${pick(ZOMBIE_AMMO)})`)
      }
      const pair = chance(0.35) ? two() : undefined
      if (pair !== undefined) {
        const [victim, attacker] = pair
        const [weapon, ammo] = pick(WEAPONS)
        const distance = (2 + random.next() * 150).toFixed(random.int(1, 6))
        for (let n = random.int(1, 4); n > 0; n--) {
          const [part, index] = pick(PARTS)
          const damage = 8 + random.int(0, 30)
          victim.hp = Math.max(1, victim.hp - damage)
          counts.hits++
          line(`${at}${block(victim)}[HP: ${victim.hp}] hit by ${block(attacker)} into ${part}(${index}) for ${damage} damage (${ammo}) with ${weapon} from ${distance} meters`)
        }
      }
      const killPair = chance(0.045) ? two() : undefined
      if (killPair !== undefined) {
        const [victim, killer] = killPair
        const [part, index] = pick(PARTS)
        counts.fatalHits++
        counts.hits++
        counts.kills++
        if (chance(0.8)) {
          const [weapon, ammo] = pick(WEAPONS)
          const distance = (2 + random.next() * 300).toFixed(2)
          line(`${at}${block(victim, true)}[HP: 0] hit by ${block(killer)} into ${part}(${index}) for ${30 + random.int(0, 60)} damage (${ammo}) with ${weapon} from ${distance} meters`)
          line(`${at}${block(victim, true)} killed by ${block(killer)} with ${weapon} from ${distance} meters`)
          counts.playerKills++
        } else {
          const zombie = pick(ZOMBIES)
          line(`${at}${block(victim, true)}[HP: 0] hit by ${zombie} into ${part}(${index}) for ${5 + random.int(0, 10)} damage (${pick(ZOMBIE_AMMO)})`)
          line(`${at}${block(victim, true)} killed by ${zombie}`)
          counts.zombieKills++
        }
        spawn(victim)
      }
      if (chance(0.01)) {
        const p = pick(online)
        counts.hits++
        counts.other++
        line(`${at}${block(p, true)}[HP: 0] hit by FallDamageHealth`)
        line(`${at}${block(p, true)} died. Stats> Water: ${(random.next() * 3000).toFixed(3)} Energy: ${(random.next() * 3000).toFixed(3)} Bleed sources: 0`)
        spawn(p)
      }
      if (chance(0.03)) {
        counts.other++
        const p = pick(online)
        line(chance(0.5) ? `${at}${block(p)} placed ${pick(PLACED)}` : `${at}${block(p)} is unconscious`)
      }
    }
    flush()
    return { bytes, lines, ...counts, players: everSeen.size, seconds: t - START_SECONDS }
  } finally {
    closeSync(fd)
  }
}
