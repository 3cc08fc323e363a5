/**
 * Scripted events, from the `-simScript=` file (times relative to start-up)
 * and from files dropped into the control folder (run when read, or `at`
 * seconds after). One event per line, `#` or `//` comments, arguments
 * separated by spaces, "double quotes" around arguments with spaces:
 *
 * ```
 * [at] <seconds> <verb> <arguments>      # with a time
 * <verb> <arguments>                     # at once
 *
 * join <steam64> <name...>               a player connects (refused if banned, locked, full)
 * leave <player>                         a player quits
 * kick <player> [reason...]              BattlEye kicks the player (Admin Kick)
 * chat <player> <channel> <text...>      Global, Side, Direct, Vehicle, Group, Command or Lobby
 * hit <attacker> <victim> [damage] [weapon...]     attacker: a player or a class (see below)
 * kill <killer> <victim> [weapon...]     killer: a player or a class; the fatal hit first
 * headshot <killer> <victim> [weapon...] a kill whose fatal hit is into the head
 * suicide <player>                       `committed suicide`, then the player's `died.` line
 * fall <player> [damage]                 `hit by FallDamageHealth` (35 damage); a fatal fall then `died.`
 * bleed <player>                         the player bleeds out: `died.`, then `bled out`
 * knockout <player> | wake <player>      `is unconscious` / `regained consciousness`
 * lock | unlock                          as #lock / #unlock
 * shutdown                               as #shutdown
 * crash [exit code]                      dies at once without cleaning up
 * mod pause | mod resume                 the companion mod stops / starts polling its command folder
 * mod delay <ms>                         the mod takes each command at once but answers <ms> later
 * ```
 *
 * `<player>` is a Steam64 id or a name. A player's weapon: a firearm (`M4-A1`, `FX-45`, `AKM`, `Mosin 91/30`,
 * `SKS`, `CR-75`, or any other name), a melee weapon (`Combat Knife`, `Machete`, `Baseball Bat`,
 * `Sledgehammer`: no distance), or `fists`. A class as the attacker: `ZmbM_...`/`ZmbF_...` (infected) and
 * `Animal_...` hit by their display name (`Infected`, `Wolf`, `Brown Bear`) and kill by class; `explosion` hits
 * as `hit by explosion (<ammo>)`; any other class (a vehicle, a fire) hits as `hit by <class> with <ammo>`
 * (`weapon` is the ammo: `TransportHit` unless named) and kills as `killed by <class>` (`LandMineTrap`).
 */
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { isSteam64 } from "./ids.js"
import { CHAT_CHANNELS, type Population } from "./population.js"
import type { World } from "./world.js"

export interface ScriptTarget {
  readonly join: (steam64: string, name: string) => void
  readonly leave: (who: string) => void
  readonly kick: (who: string, reason: string) => void
  readonly chat: (who: string, channel: string, text: string) => void
  readonly hit: (attacker: string, victim: string, damage: number | undefined, weapon: string | undefined) => void
  readonly kill: (killer: string, victim: string, weapon: string | undefined, headshot: boolean) => void
  readonly suicide: (who: string) => void
  readonly fall: (who: string, damage: number | undefined) => void
  readonly bleed: (who: string) => void
  readonly consciousness: (who: string, unconscious: boolean) => void
  readonly lock: (locked: boolean) => void
  readonly shutdown: () => void
  readonly crash: (code: number | undefined) => void
  readonly mod: (command: "pause" | "resume" | "delay", ms: number) => void
  readonly log: (line: string) => void
}

export interface ScriptLine {
  readonly atSeconds: number
  readonly verb: string
  readonly args: ReadonlyArray<string>
  readonly line: number
}

const tokenize = (text: string): Array<string> => {
  const tokens: Array<string> = []
  const re = /"([^"]*)"|(\S+)/g
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) tokens.push(m[1] ?? m[2]!)
  return tokens
}

export const parseScript = (text: string): Array<ScriptLine> => {
  const lines: Array<ScriptLine> = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim()
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("//")) return
    const tokens = tokenize(trimmed)
    let atSeconds = 0
    if (tokens[0]?.toLowerCase() === "at") tokens.shift()
    if (tokens[0] !== undefined && /^\d+(\.\d+)?$/.test(tokens[0])) atSeconds = Number(tokens.shift())
    const verb = tokens.shift()
    if (verb !== undefined) lines.push({ atSeconds, verb: verb.toLowerCase(), args: tokens, line: index + 1 })
  })
  return lines
}

export const runLine = (target: ScriptTarget, line: ScriptLine): void => {
  const a = line.args
  const need = (n: number) => {
    if (a.length < n) throw new Error(`"${line.verb}" needs ${n} argument(s)`)
  }
  try {
    switch (line.verb) {
      case "join":
        need(2)
        if (!isSteam64(a[0]!)) throw new Error(`"${a[0]}" is not a Steam64 id`)
        target.join(a[0]!, a.slice(1).join(" "))
        return
      case "leave":
        need(1)
        target.leave(a[0]!)
        return
      case "kick":
        need(1)
        target.kick(a[0]!, a.slice(1).join(" ") || "Kicked")
        return
      case "chat": {
        need(3)
        const channel = CHAT_CHANNELS.find((c) => c.toLowerCase() === a[1]!.toLowerCase())
        if (channel === undefined) throw new Error(`unknown chat channel "${a[1]}"`)
        target.chat(a[0]!, channel, a.slice(2).join(" "))
        return
      }
      case "hit": {
        need(2)
        const damage = a[2] !== undefined && /^\d+(\.\d+)?$/.test(a[2]) ? Number(a[2]) : undefined
        const weapon = a.slice(damage === undefined ? 2 : 3).join(" ")
        target.hit(a[0]!, a[1]!, damage, weapon === "" ? undefined : weapon)
        return
      }
      case "kill":
      case "headshot": {
        need(2)
        const weapon = a.slice(2).join(" ")
        target.kill(a[0]!, a[1]!, weapon === "" ? undefined : weapon, line.verb === "headshot")
        return
      }
      case "suicide":
        need(1)
        target.suicide(a[0]!)
        return
      case "fall": {
        need(1)
        if (a[1] !== undefined && !/^\d+(\.\d+)?$/.test(a[1])) throw new Error(`"fall" takes damage, not "${a[1]}"`)
        target.fall(a[0]!, a[1] === undefined ? undefined : Number(a[1]))
        return
      }
      case "bleed":
        need(1)
        target.bleed(a[0]!)
        return
      case "knockout":
      case "wake":
        need(1)
        target.consciousness(a[0]!, line.verb === "knockout")
        return
      case "lock":
      case "unlock":
        target.lock(line.verb === "lock")
        return
      case "shutdown":
        target.shutdown()
        return
      case "crash":
        target.crash(a[0] === undefined ? undefined : Number(a[0]))
        return
      case "mod": {
        need(1)
        const command = a[0]!.toLowerCase()
        if (command === "pause" || command === "resume") return target.mod(command, 0)
        if (command === "delay") {
          need(2)
          if (!/^\d+$/.test(a[1]!)) throw new Error(`"mod delay" needs milliseconds, not "${a[1]}"`)
          return target.mod("delay", Number(a[1]))
        }
        throw new Error(`"mod" takes pause, resume or delay <ms>, not "${a[0]}"`)
      }
      default:
        throw new Error(`unknown verb "${line.verb}"`)
    }
  } catch (error) {
    target.log(`[sim] script line ${line.line} ("${line.verb} ${a.join(" ")}"): ${error instanceof Error ? error.message : String(error)}`)
  }
}

type PlayerVerbs = Pick<ScriptTarget, "join" | "leave" | "kick" | "chat" | "hit" | "kill" | "suicide" | "fall" | "bleed" | "consciousness">

/** The verbs that act on players, on `population` (the server's script target uses them; so can a test). */
export const playerVerbs = (world: World, population: Population, log: (line: string) => void): PlayerVerbs => {
  const person = (who: string) => world.findPerson(who)
  /** The named player, or undefined after saying there is none. */
  const someone = (verb: string, who: string) => {
    const p = person(who)
    if (p === undefined) log(`[sim] ${verb}: no player "${who}"`)
    return p
  }
  return {
    join: (steam64, name) => {
      const h = createHash("md5").update(steam64).digest()
      const ip = `${(h[0]! % 200) + 11}.${h[1]}.${h[2]}.${(h[3]! % 254) + 1}`
      population.attemptJoin(world.person(steam64, name, ip))
    },
    leave: (who) => {
      const p = someone("leave", who)
      if (p !== undefined) population.leave(p)
    },
    kick: (who, reason) => {
      const p = person(who)
      const online = p === undefined ? undefined : world.onlineBySteam(p.steam64)
      if (online === undefined) log(`[sim] kick: "${who}" is not online`)
      else population.kick(online, reason)
    },
    chat: (who, channel, text) => {
      const p = someone("chat", who)
      if (p !== undefined) population.chat(p, channel, text)
    },
    hit: (attacker, victim, damage, weapon) => {
      const v = someone("hit", victim)
      if (v !== undefined) population.hit(person(attacker) ?? attacker, v, { ...(damage === undefined ? {} : { damage }), ...(weapon === undefined ? {} : { weapon }) })
    },
    kill: (killer, victim, weapon, headshot) => {
      const v = someone("kill", victim)
      if (v !== undefined) population.kill(person(killer) ?? killer, v, { weapon, ...(headshot ? { headshot } : {}) })
    },
    suicide: (who) => {
      const p = someone("suicide", who)
      if (p !== undefined) population.suicide(p)
    },
    fall: (who, damage) => {
      const p = someone("fall", who)
      if (p !== undefined) population.fall(p, damage)
    },
    bleed: (who) => {
      const p = someone("bleed", who)
      if (p !== undefined) population.bleed(p)
    },
    consciousness: (who, unconscious) => {
      const p = someone(unconscious ? "knockout" : "wake", who)
      if (p !== undefined) population.consciousness(p, unconscious)
    }
  }
}

/** Schedules every line; returns the timers so the server can cancel them. */
export const schedule = (target: ScriptTarget, lines: ReadonlyArray<ScriptLine>): Array<NodeJS.Timeout> =>
  lines.map((line) => setTimeout(() => runLine(target, line), line.atSeconds * 1000))

/** Polls a folder for `*.txt` files of script lines; each file runs once, then is deleted. */
export class ControlFolder {
  private timer: NodeJS.Timeout | undefined
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(
    private readonly dir: string,
    private readonly pollMs: number,
    private readonly target: ScriptTarget
  ) {}

  start(): void {
    Fs.mkdirSync(this.dir, { recursive: true })
    const tick = () => {
      this.poll()
      this.timer = setTimeout(tick, this.pollMs)
    }
    this.timer = setTimeout(tick, this.pollMs)
  }

  poll(): void {
    let names: Array<string>
    try {
      names = Fs.readdirSync(this.dir).filter((n) => n.endsWith(".txt") && !n.startsWith(".")).sort()
    } catch {
      return
    }
    for (const name of names) {
      const path = NodePath.join(this.dir, name)
      let text: string
      try {
        text = Fs.readFileSync(path, "utf8")
        Fs.rmSync(path, { force: true })
      } catch {
        continue
      }
      for (const line of parseScript(text)) {
        if (line.atSeconds === 0) runLine(this.target, line)
        else {
          const timer = setTimeout(() => {
            this.timers.delete(timer)
            runLine(this.target, line)
          }, line.atSeconds * 1000)
          this.timers.add(timer)
        }
      }
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    for (const timer of this.timers) clearTimeout(timer)
  }
}
