/**
 * Simulated players: a roster derived from the seed joins at start-up, comes
 * and goes (churn), chats, hits and kills (activity), and tries again after
 * being kicked or refused. Every step produces what the real server
 * produces: BattlEye server messages, RPT and ADM lines, and events for the
 * companion mod.
 *
 * Joins are refused while the server is locked, when the player is listed in
 * `ban.txt` (Steam64 or DayZ ID), banned by BattlEye (GUID or IP) or by the
 * mod, missing from `whitelist.txt` with `enableWhitelist = 1`, or when the
 * server is full (players in `priority.txt` still get in).
 */
import { formatPos, type Logs } from "./logs.js"
import type { SimOptions } from "./options.js"
import type { Rng } from "./rng.js"
import { distance, type Online, type Person, World } from "./world.js"

export interface PopulationHooks {
  /** Pushes a BattlEye server message to logged-in RCon admins. */
  readonly broadcast: (text: string) => void
  readonly logs: Logs
  readonly canJoin: () => boolean
  readonly isLocked: () => boolean
  readonly maxPlayers: () => number
  readonly isBanned: (person: Person) => boolean
  readonly isWhitelisted: (person: Person) => boolean
  readonly hasPriority: (person: Person) => boolean
  /** A BattlEye ban (GUID or IP) with its reason, if any. */
  readonly battlEyeBan: (person: Person) => string | undefined
  /** After a player left, was kicked or was disconnected by a shutdown (the server saves their character). */
  readonly disconnected?: (person: Person) => void
}

const NAMES = [
  "Bravo17", "Survivor", "ColdSteel", "Hunter", "NightOwl", "Frosty", "Vandal", "Raven", "Ghost", "Maverick",
  "Nomad", "Wolfie", "Sniper_Pete", "Medic", "Berezino Bob", "Kamenka Kid", "Echo", "Tundra", "Viper", "Scav",
  "Lumberjack", "Fisherman", "Doc Holliday", "Sparrow", "Grizzly", "Ranger", "Boots", "Hatchet Harry", "Rusty", "Zed Slayer"
]
const CHAT_LINES = [
  "friendly?", "anyone near Elektro?", "need a medic", "got a spare can opener?", "heli crash north of Vybor",
  "don't shoot!", "lol", "where is everyone", "selling beans", "server restart soon?", "gg", "watch out, zombies"
]
export const WEAPONS = [
  { weapon: "M4-A1", ammo: "Bullet_556x45" },
  { weapon: "FX-45", ammo: "Bullet_45ACP" },
  { weapon: "AKM", ammo: "Bullet_762x39" },
  { weapon: "Mosin 91/30", ammo: "Bullet_762x54" },
  { weapon: "SKS", ammo: "Bullet_762x39" },
  { weapon: "CR-75", ammo: "Bullet_9x19" }
] as const
const BODY_PARTS = ["Head(0)", "Torso(12)", "LeftArm(16)", "RightArm(9)", "LeftLeg(22)", "RightLeg(19)"] as const
const ZOMBIES = ["ZmbM_HermitSkinny_Beige", "ZmbF_CitizenANormal_Blue", "ZmbM_SoldierNormal", "ZmbM_FarmerFat_Green"] as const
export const CHAT_CHANNELS = ["Global", "Side", "Direct", "Vehicle", "Group", "Command", "Lobby"] as const

const who = (p: Person) => `"${p.name}" (id=${p.dayzId} pos=${formatPos(p.character.position)})`

export class Population {
  private readonly timers = new Set<NodeJS.Timeout>()
  private stopped = false

  constructor(
    private readonly world: World,
    private readonly hooks: PopulationHooks,
    private readonly options: SimOptions,
    private readonly rng: Rng
  ) {}

  private later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      if (!this.stopped) run()
    }, ms)
    this.timers.add(timer)
    return timer
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  /** The roster from the seed: same seed, same people. */
  makeRoster(count: number): Array<Person> {
    const rng = this.rng.fork(1)
    const people: Array<Person> = []
    const used = new Set<string>()
    for (let i = 0; i < count; i++) {
      let steam64: string
      do steam64 = (76561198000000000n + BigInt(rng.int(0, 99_999_999))).toString()
      while (used.has(steam64))
      used.add(steam64)
      const base = NAMES[i % NAMES.length]!
      const name = i < NAMES.length ? base : `${base}${Math.floor(i / NAMES.length) + 1}`
      const ip = `${rng.int(11, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`
      people.push(this.world.person(steam64, name, ip, 2304))
    }
    return people
  }

  /** Starts the roster, churn and activity. */
  start(): void {
    const roster = this.makeRoster(this.options.players)
    roster.forEach((person, i) => {
      person.wantsOnline = true
      const at = this.options.joinInterval * i
      if (at === 0) this.attemptJoin(person)
      else this.later(at, () => this.attemptJoin(person))
    })
    const events = this.rng.fork(2)
    if (this.options.churn > 0) this.scheduleChurn(events)
    if (this.options.activity > 0) this.scheduleActivity(events)
  }

  private interval(rng: Rng, meanSeconds: number): number {
    // Exponential spacing, clamped so nothing fires in a burst or never.
    return Math.min(4, Math.max(0.2, -Math.log(1 - rng.next()))) * meanSeconds * 1000
  }

  private scheduleChurn(rng: Rng): void {
    this.later(this.interval(rng, this.options.churn), () => {
      const online = this.world.onlineSorted()
      if (online.length > 0) {
        const leaving = rng.pick(online).person
        this.leave(leaving)
        leaving.wantsOnline = true
        this.later(this.interval(rng, this.options.churn), () => this.attemptJoin(leaving))
      }
      this.scheduleChurn(rng)
    })
  }

  private scheduleActivity(rng: Rng): void {
    this.later(this.interval(rng, this.options.activity), () => {
      const online = this.world.onlineSorted().filter((o) => o.verified)
      if (online.length > 0) {
        const actor = rng.pick(online).person
        const roll = rng.next()
        if (roll < 0.6) this.chat(actor, rng.chance(0.5) ? "Global" : "Direct", rng.pick(CHAT_LINES))
        else if (online.length > 1 && roll < 0.85) {
          const victim = rng.pick(online.filter((o) => o.person !== actor)).person
          this.hit(actor, victim, { damage: rng.int(5, 40) })
        } else if (online.length > 1) {
          const victim = rng.pick(online.filter((o) => o.person !== actor)).person
          this.kill(actor, victim, {})
        } else this.hit(rng.pick(ZOMBIES), actor, { damage: rng.int(3, 15) })
      }
      this.scheduleActivity(rng)
    })
  }

  private refuse(person: Person, reason: string): "refused" {
    this.hooks.logs.engine(`Player "${person.name}"(steamID=${person.steam64}) kicked from server: ${reason}`)
    this.world.record("player.refused", { platformId: person.steam64, name: person.name, reason })
    this.scheduleRejoin(person)
    return "refused"
  }

  scheduleRejoin(person: Person): void {
    if (this.options.rejoin <= 0 || !person.wantsOnline) return
    if (person.rejoinTimer !== undefined) clearTimeout(person.rejoinTimer)
    person.rejoinTimer = this.later(this.options.rejoin * 1000, () => {
      person.rejoinTimer = undefined
      if (person.wantsOnline && this.world.onlineBySteam(person.steam64) === undefined) this.attemptJoin(person)
    })
  }

  /** One connection attempt; "joined" or "refused" (with the reason logged in the RPT). */
  attemptJoin(person: Person): "joined" | "refused" | "online" {
    person.wantsOnline = true
    if (this.world.onlineBySteam(person.steam64) !== undefined) return "online"
    if (!this.hooks.canJoin()) return this.refuse(person, "Server is not running")
    if (this.hooks.isLocked()) return this.refuse(person, "Server is locked")
    if (this.hooks.isBanned(person)) return this.refuse(person, "You are banned (ban.txt)")
    if (!this.hooks.isWhitelisted(person)) return this.refuse(person, "You are not on the whitelist")
    const modBan = this.world.modBans.find((b) => b.platformId === person.steam64 && (b.expiration === null || b.expiration > Date.now()))
    if (modBan !== undefined) return this.refuse(person, `You are banned (${modBan.reason})`)
    if (this.world.online.size >= this.hooks.maxPlayers() && !this.hooks.hasPriority(person)) {
      return this.refuse(person, "Server is full")
    }
    this.connect(person)
    return "joined"
  }

  private connect(person: Person): void {
    const slot = this.world.freeSlot()
    const online: Online = { person, slot, ping: -1, verified: false, inLobby: true, connectedAt: Date.now() }
    this.world.online.set(slot, online)
    this.world.version++
    const now = Date.now()
    person.firstSeen ??= now
    person.lastSeen = now
    person.sessions++
    if (!person.character.alive) person.character = this.world.freshCharacter()
    this.hooks.broadcast(`Player #${slot} ${person.name} (${person.ip}:${person.port}) connected`)
    this.hooks.broadcast(`Player #${slot} ${person.name} - GUID: ${person.guid} (unverified)`)
    this.hooks.logs.engine(`Player "${person.name}"(steamID=${person.steam64}) is connected`)
    this.hooks.logs.admin(`Player "${person.name}" is connected (id=${person.dayzId})`)
    this.world.record("player.connected", { platformId: person.steam64, name: person.name, slot })
    const verify = () => {
      if (this.world.online.get(slot) !== online) return
      online.verified = true
      online.inLobby = false
      online.ping = this.rng.int(20, 140)
      this.world.version++
      this.hooks.broadcast(`Verified GUID (${person.guid}) of player #${slot} ${person.name}`)
      const beBan = this.hooks.battlEyeBan(person)
      if (beBan !== undefined) this.kick(online, `Banned (${beBan})`, "")
    }
    if (this.options.verifyDelay <= 0) verify()
    else this.later(this.options.verifyDelay, verify)
  }

  /** Removes an online player: `left` (quit), `kicked` or `shutdown`. */
  private disconnect(online: Online): void {
    const person = online.person
    this.world.online.delete(online.slot)
    this.world.version++
    const now = Date.now()
    person.playtimeMs += now - online.connectedAt
    person.lastSeen = now
    this.hooks.broadcast(`Player #${online.slot} ${person.name} disconnected`)
    this.hooks.logs.engine(`Player "${person.name}"(steamID=${person.steam64}) disconnected`)
    this.hooks.logs.admin(`Player "${person.name}"(id=${person.dayzId}) has been disconnected`)
    this.world.record("player.disconnected", { platformId: person.steam64, name: person.name, slot: online.slot })
    this.hooks.disconnected?.(person)
  }

  /** The player quits (does not come back on their own). */
  leave(person: Person): boolean {
    person.wantsOnline = false
    const online = this.world.onlineBySteam(person.steam64)
    if (online === undefined) return false
    this.disconnect(online)
    return true
  }

  /** BattlEye kick: `<prefix> (<reason>)`, e.g. `Admin Kick (AFK)`. The player tries to rejoin later. */
  kick(online: Online, reason: string, prefix = "Admin Kick"): void {
    const person = online.person
    const text = prefix === "" ? reason : reason === "" ? prefix : `${prefix} (${reason})`
    this.hooks.broadcast(`Player #${online.slot} ${person.name} (${person.guid}) has been kicked by BattlEye: ${text}`)
    this.world.record("player.kicked", { platformId: person.steam64, name: person.name, reason: text })
    this.disconnect(online)
    this.scheduleRejoin(person)
  }

  /** Everyone leaves (server shutting down); nobody rejoins this process. */
  disconnectAll(): void {
    for (const online of this.world.onlineSorted()) this.disconnect(online)
  }

  chat(person: Person, channel: string, text: string): void {
    const online = this.world.onlineBySteam(person.steam64)
    if (online === undefined) return
    this.hooks.broadcast(`(${channel}) ${person.name}: ${text}`)
    this.hooks.logs.admin(`Chat("${person.name}"(id=${person.dayzId})): ${text}`)
    this.world.record("chat", { platformId: person.steam64, name: person.name, channel, text })
  }

  hit(attacker: Person | string, victim: Person, options: { damage?: number; weapon?: string; bodyPart?: string }): void {
    if (this.world.onlineBySteam(victim.steam64) === undefined || !victim.character.alive) return
    const damage = options.damage ?? 20
    const c = victim.character
    if (!c.godmode) c.health = Math.max(0, Math.round((c.health - damage) * 10) / 10)
    const part = options.bodyPart ?? this.rng.pick(BODY_PARTS)
    let line: string
    if (typeof attacker === "string") {
      line = `Player ${who(victim)}[HP: ${c.health}] hit by ${attacker} into ${part} for ${damage} damage (MeleeZombie)`
    } else {
      this.closeIn(attacker, victim)
      const gun = WEAPONS.find((w) => w.weapon === options.weapon) ?? this.rng.pick(WEAPONS)
      const metres = distance(attacker.character.position, c.position)
      line = `Player ${who(victim)}[HP: ${c.health}] hit by Player ${who(attacker)} into ${part} for ${damage} damage (${gun.ammo}) with ${gun.weapon} from ${metres.toFixed(5)} meters`
    }
    this.hooks.logs.admin(line)
    this.world.record("player.hit", {
      platformId: victim.steam64,
      name: victim.name,
      attacker: typeof attacker === "string" ? attacker : attacker.steam64,
      damage,
      health: c.health
    })
    if (c.health <= 0) this.kill(attacker, victim, { weapon: options.weapon, headshot: part.startsWith("Head") })
  }

  /** Fights happen at fighting range: an attacker far away is moved within 2-250 m of the victim. */
  private closeIn(attacker: Person, victim: Person): void {
    const from = victim.character.position
    if (distance(attacker.character.position, from) <= 300) return
    const range = this.rng.float(2, 250, 2)
    const angle = this.rng.next() * 2 * Math.PI
    attacker.character.position = {
      x: Math.round((from.x + Math.cos(angle) * range) * 10) / 10,
      y: Math.round((from.y + Math.sin(angle) * range) * 10) / 10,
      z: from.z
    }
  }

  kill(killer: Person | string, victim: Person, options: { weapon?: string | undefined; distance?: number; headshot?: boolean }): void {
    if (this.world.onlineBySteam(victim.steam64) === undefined) return
    const c = victim.character
    const victimPos = { ...c.position }
    c.alive = false
    c.health = 0
    victim.deaths++
    const weapon = options.weapon ?? this.rng.pick(WEAPONS).weapon
    const headshot = options.headshot ?? this.rng.chance(0.2)
    let line: string
    let metres = 0
    if (typeof killer === "string") {
      line = `Player "${victim.name}" (DEAD) (id=${victim.dayzId} pos=${formatPos(victimPos)}) killed by ${killer}`
    } else {
      this.closeIn(killer, victim)
      metres = options.distance ?? Math.round(distance(killer.character.position, victimPos) * 100) / 100
      line = `Player "${victim.name}" (DEAD) (id=${victim.dayzId} pos=${formatPos(victimPos)}) killed by Player ${who(killer)} with ${weapon} from ${metres} meters`
      killer.kills++
      if (headshot) killer.headshots++
      killer.character.stats["playersKilled"] = (killer.character.stats["playersKilled"] ?? 0) + 1
      if (killer.longestKill === undefined || metres > killer.longestKill.distance) {
        killer.longestKill = { distance: metres, weapon, victim: victim.name, timestamp: Date.now() }
      }
    }
    this.hooks.logs.admin(line)
    this.world.kills.push({
      killer: typeof killer === "string" ? undefined : killer.steam64,
      killerName: typeof killer === "string" ? killer : killer.name,
      victim: victim.steam64,
      victimName: victim.name,
      weapon: typeof killer === "string" ? killer : weapon,
      distance: metres,
      headshot: typeof killer === "string" ? false : headshot,
      timestamp: Date.now(),
      killerPos: typeof killer === "string" ? undefined : { ...killer.character.position },
      victimPos
    })
    this.world.record("player.killed", {
      platformId: victim.steam64,
      name: victim.name,
      killer: typeof killer === "string" ? killer : killer.steam64,
      weapon,
      distance: metres
    })
    // Respawn at once as a fresh character (the player stays connected).
    victim.character = this.world.freshCharacter()
  }

  /** Death without a killer (admin kill, explosion, ...): the ADM `died. Stats>` line; the player respawns. */
  die(person: Person, cause: string): void {
    if (this.world.onlineBySteam(person.steam64) === undefined) return
    const c = person.character
    const at = { ...c.position }
    person.deaths++
    this.hooks.logs.admin(
      `Player "${person.name}" (DEAD) (id=${person.dayzId} pos=${formatPos(at)}) died. Stats> Water: ${c.water.toFixed(3)} Energy: ${c.energy.toFixed(3)} Bleed sources: ${c.bleedingSources}`
    )
    this.world.record("player.died", { platformId: person.steam64, name: person.name, cause, position: at })
    person.character = this.world.freshCharacter()
  }

  /** The ADM `PlayerList log` block. */
  playerList(): void {
    const online = this.world.onlineSorted()
    this.hooks.logs.admin(`##### PlayerList log: ${online.length} players`)
    for (const o of online) this.hooks.logs.admin(`Player ${who(o.person)}`)
    this.hooks.logs.admin("#####")
  }
}

export { World }
