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
/** Firearms: hits and kills ` with <weapon> from <n> meters ` (the game leaves the trailing space). */
export const WEAPONS = [
  { weapon: "M4-A1", ammo: "Bullet_556x45" },
  { weapon: "FX-45", ammo: "Bullet_45ACP" },
  { weapon: "AKM", ammo: "Bullet_762x39" },
  { weapon: "Mosin 91/30", ammo: "Bullet_762x54" },
  { weapon: "SKS", ammo: "Bullet_762x39" },
  { weapon: "CR-75", ammo: "Bullet_9x19" }
] as const
/** Melee weapons: ` with <weapon>`, no distance. `fists` in a script: no weapon, `(MeleeFist)`. */
export const MELEE = [
  { weapon: "Combat Knife", ammo: "MeleeSharpLight_2" },
  { weapon: "Machete", ammo: "MeleeSharpHeavy_1" },
  { weapon: "Baseball Bat", ammo: "MeleeBat" },
  { weapon: "Sledgehammer", ammo: "MeleeSledgehammer" }
] as const
const FISTS = "fists"

/** What a player fights with; `weapon` is what the kill record names (`MeleeFist` for fists). */
interface Armed {
  readonly kind: "firearm" | "melee" | "fists"
  readonly weapon: string
  readonly ammo: string
}
const BODY_PARTS = ["Head(0)", "Torso(12)", "LeftArm(16)", "RightArm(9)", "LeftLeg(22)", "RightLeg(19)"] as const
const ZOMBIES = ["ZmbM_HermitSkinny_Beige", "ZmbF_CitizenANormal_Blue", "ZmbM_SoldierNormal", "ZmbM_FarmerFat_Green"] as const
/**
 * Creatures by class (what a kill line names) and what their hit lines name instead: the display name and the
 * ammo (`hit by Infected into Torso(1) for 6 damage (MeleeInfected)`, then `killed by ZmbM_SoldierNormal`).
 */
const CREATURES: ReadonlyArray<{ readonly prefix: string; readonly display: string; readonly ammo: string }> = [
  { prefix: "Zmb", display: "Infected", ammo: "MeleeInfected" },
  { prefix: "Animal_CanisLupus", display: "Wolf", ammo: "MeleeWolf" },
  { prefix: "Animal_UrsusArctos", display: "Brown Bear", ammo: "MeleeBear" },
  { prefix: "Animal_", display: "Animal", ammo: "MeleeAnimal" }
]
const creatureOf = (className: string) => CREATURES.find((c) => className.startsWith(c.prefix))
export const CHAT_CHANNELS = ["Global", "Side", "Direct", "Vehicle", "Group", "Command", "Lobby"] as const

/** `"Name" (id=<DayZ ID> pos=<x, y, z>)`, with ` (DEAD)` after the name when the line is written about a dead player. */
const who = (p: Person, dead = false) => `"${p.name}"${dead ? " (DEAD)" : ""} (id=${p.dayzId} pos=${formatPos(p.character.position)})`

/** A distance as the game prints a float: at most six significant digits. */
const metresText = (metres: number) => String(Number(metres.toPrecision(6)))

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
    // A client refused while the server runs left before it was connected, with no identity yet: `id=Unknown`.
    if (this.hooks.canJoin()) this.hooks.logs.admin(`Player "${person.name}"(id=Unknown) has been disconnected`)
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
    // The word order real servers write (the parser also takes `"Name"(steamID=...) is connected`).
    this.hooks.logs.engine(`Player "${person.name}" is connected (steamID=${person.steam64})`)
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

  /**
   * Chat: vanilla DayZ has direct chat only, `Chat("Name"(id=...)): text` (the executable writes it); the other
   * channels come from a chat mod, which writes `[Chat - Global]("Name"(id=...)): text` (Expansion's form).
   */
  chat(person: Person, channel: string, text: string): void {
    const online = this.world.onlineBySteam(person.steam64)
    if (online === undefined) return
    this.hooks.broadcast(`(${channel}) ${person.name}: ${text}`)
    const tag = channel === "Direct" ? "Chat" : `[Chat - ${channel}]`
    this.hooks.logs.admin(`${tag}("${person.name}"(id=${person.dayzId})): ${text}`)
    this.world.record("chat", { platformId: person.steam64, name: person.name, channel, text })
  }

  /** What a player fights with: a firearm of the table, a melee weapon, `fists`; any other name a firearm; none, a random firearm. */
  private armed(name: string | undefined, orRandom: boolean): Armed {
    if (name !== undefined && name.toLowerCase() === FISTS) return { kind: "fists", weapon: "MeleeFist", ammo: "MeleeFist" }
    const melee = name === undefined ? undefined : MELEE.find((w) => w.weapon.toLowerCase() === name.toLowerCase())
    if (melee !== undefined) return { kind: "melee", weapon: melee.weapon, ammo: melee.ammo }
    const gun = WEAPONS.find((w) => w.weapon === name)
    if (gun !== undefined) return { kind: "firearm", weapon: gun.weapon, ammo: gun.ammo }
    if (name !== undefined && !orRandom) return { kind: "firearm", weapon: name, ammo: "Bullet_762x39" }
    const random = this.rng.pick(WEAPONS)
    return { kind: "firearm", weapon: random.weapon, ammo: random.ammo }
  }

  /** What follows `hit by ` for a hit dealt by `attacker` (a player or a class name) into `part`. */
  private hitBy(attacker: Person | string, arms: Armed | undefined, part: string, damage: number, metres: number, ammo: string | undefined): string {
    if (typeof attacker !== "string") {
      const blow = `Player ${who(attacker)} into ${part} for ${damage} damage (${arms!.ammo})`
      if (arms!.kind === "fists") return blow
      if (arms!.kind === "melee") return `${blow} with ${arms!.weapon}`
      return `${blow} with ${arms!.weapon} from ${metresText(metres)} meters `
    }
    const creature = creatureOf(attacker)
    // Infected and animals by their display name; explosions by their ammo; objects (vehicles, fire, wire) by class and ammo.
    if (creature !== undefined) return `${creature.display} into ${part} for ${damage} damage (${ammo ?? creature.ammo})`
    if (attacker === "explosion") return `explosion (${ammo ?? "LandMineExplosion"})`
    return `${attacker} with ${ammo ?? "TransportHit"}`
  }

  /**
   * A hit, as the game logs it: `Player "V" (id=... pos=<...>)[HP: <health after>] hit by ...`, the victim
   * `(DEAD)` and `[HP: 0]` when it kills (the death line follows). `attacker`: a player, or a class
   * (`ZmbM_...` and `Animal_...` hit by display name; `explosion`; anything else an object, `with <ammo>`,
   * the ammo `weapon` names, `TransportHit` by default).
   */
  hit(attacker: Person | string, victim: Person, options: { damage?: number; weapon?: string; bodyPart?: string }): void {
    if (this.world.onlineBySteam(victim.steam64) === undefined || !victim.character.alive) return
    const damage = options.damage ?? 20
    const c = victim.character
    if (!c.godmode) c.health = Math.max(0, Math.round((c.health - damage) * 10) / 10)
    const part = options.bodyPart ?? this.rng.pick(BODY_PARTS)
    let arms: Armed | undefined
    let metres = 0
    if (typeof attacker !== "string") {
      this.closeIn(attacker, victim)
      arms = this.armed(options.weapon, true)
      metres = Math.round(distance(attacker.character.position, c.position) * 100) / 100
    }
    const fatal = c.health <= 0
    this.hooks.logs.admin(`Player ${who(victim, fatal)}[HP: ${c.health}] hit by ${this.hitBy(attacker, arms, part, damage, metres, typeof attacker === "string" ? options.weapon : undefined)}`)
    this.world.record("player.hit", {
      platformId: victim.steam64,
      name: victim.name,
      attacker: typeof attacker === "string" ? attacker : attacker.steam64,
      damage,
      health: c.health
    })
    if (fatal) this.died(attacker, victim, { arms, metres, headshot: part.startsWith("Head") })
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

  /**
   * A kill, as the game logs it: the fatal blow (`(DEAD) ...[HP: 0] hit by ...`, into the head for a headshot)
   * by a player or a creature, then `(DEAD) ... killed by Player "K" (...) with <weapon> from <n> meters `
   * (melee: no distance; fists: `with (MeleeFist)`), `killed by ZmbM_...`, `killed by Animal_...`, or, for any
   * other class (a trap, an explosive), the kill line alone: `killed by LandMineTrap`.
   */
  kill(killer: Person | string, victim: Person, options: { weapon?: string | undefined; distance?: number; headshot?: boolean }): void {
    if (this.world.onlineBySteam(victim.steam64) === undefined) return
    const c = victim.character
    const headshot = options.headshot ?? this.rng.chance(0.2)
    let arms: Armed | undefined
    let metres = 0
    if (typeof killer !== "string") {
      this.closeIn(killer, victim)
      arms = this.armed(options.weapon, false)
      metres = options.distance ?? Math.round(distance(killer.character.position, c.position) * 100) / 100
    }
    if (typeof killer !== "string" || creatureOf(killer) !== undefined) {
      const part = headshot ? "Head(0)" : this.rng.pick(BODY_PARTS.filter((p) => !p.startsWith("Head")))
      const damage = Math.max(1, Math.round(c.health * 10) / 10)
      c.health = 0
      this.hooks.logs.admin(`Player ${who(victim, true)}[HP: 0] hit by ${this.hitBy(killer, arms, part, damage, metres, undefined)}`)
    }
    this.died(killer, victim, { arms, metres, headshot })
  }

  /** The death line of a kill (after its fatal blow), the records, and the respawn. */
  private died(killer: Person | string, victim: Person, how: { arms: Armed | undefined; metres: number; headshot: boolean }): void {
    const c = victim.character
    const victimPos = { ...c.position }
    c.alive = false
    c.health = 0
    victim.deaths++
    const weapon = typeof killer === "string" ? killer : how.arms!.weapon
    const metres = how.arms === undefined || how.arms.kind !== "firearm" ? 0 : how.metres
    let line: string
    if (typeof killer === "string") {
      line = `Player ${who(victim, true)} killed by ${killer}`
    } else {
      const arms = how.arms!
      const used = arms.kind === "fists" ? "(MeleeFist)" : arms.kind === "melee" ? arms.weapon : `${arms.weapon} from ${metresText(metres)} meters `
      line = `Player ${who(victim, true)} killed by Player ${who(killer)} with ${used}`
      killer.kills++
      if (how.headshot) killer.headshots++
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
      weapon,
      distance: metres,
      headshot: typeof killer === "string" ? false : how.headshot,
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

  /**
   * A death with no one else to blame (admin kill, explosion by the mod, a fall, hunger, bleeding out, a
   * suicide): the game's one death line for it, `(DEAD) ... died. Stats> Water: ... Energy: ... Bleed sources:
   * ...`, then `after` (the same prefix) when given; the player respawns.
   */
  die(person: Person, cause: string, after?: string): void {
    if (this.world.onlineBySteam(person.steam64) === undefined) return
    const c = person.character
    const at = { ...c.position }
    c.alive = false
    c.health = 0
    person.deaths++
    this.hooks.logs.admin(`Player ${who(person, true)} died. Stats> Water: ${c.water.toFixed(3)} Energy: ${c.energy.toFixed(3)} Bleed sources: ${c.bleedingSources}`)
    if (after !== undefined) this.hooks.logs.admin(`Player ${who(person, true)} ${after}`)
    this.world.record("player.died", { platformId: person.steam64, name: person.name, cause, position: at })
    person.character = this.world.freshCharacter()
  }

  /** The suicide emote: `committed suicide` (written before the death, so not `(DEAD)`), then `died.`. */
  suicide(person: Person): void {
    if (this.world.onlineBySteam(person.steam64) === undefined || !person.character.alive) return
    this.hooks.logs.admin(`Player ${who(person)} committed suicide`)
    this.die(person, "suicide")
  }

  /** A fall: `[HP: n] hit by FallDamageHealth`; a fatal one is `(DEAD) ...[HP: 0] hit by FallDamageHealth` then `died.`. */
  fall(person: Person, damage = 35): void {
    if (this.world.onlineBySteam(person.steam64) === undefined || !person.character.alive) return
    const c = person.character
    if (!c.godmode) c.health = Math.max(0, Math.round((c.health - damage) * 10) / 10)
    const fatal = c.health <= 0
    this.hooks.logs.admin(`Player ${who(person, fatal)}[HP: ${c.health}] hit by FallDamageHealth`)
    this.world.record("player.hit", { platformId: person.steam64, name: person.name, attacker: "FallDamageHealth", damage, health: c.health })
    if (fatal) this.die(person, "fall")
  }

  /** Bleeding out: the player dies first (`died. Stats> ... Bleed sources: n`), then `(DEAD) ... bled out`. */
  bleed(person: Person): void {
    if (this.world.onlineBySteam(person.steam64) === undefined || !person.character.alive) return
    person.character.bleedingSources = Math.max(1, person.character.bleedingSources)
    this.die(person, "bleeding", "bled out")
  }

  /** `is unconscious` / `regained consciousness` (the latter only for the living, as the game does). */
  consciousness(person: Person, unconscious: boolean): void {
    const c = person.character
    if (this.world.onlineBySteam(person.steam64) === undefined || c.unconscious === unconscious) return
    c.unconscious = unconscious
    if (unconscious || c.alive) this.hooks.logs.admin(`Player ${who(person)} ${unconscious ? "is unconscious" : "regained consciousness"}`)
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
