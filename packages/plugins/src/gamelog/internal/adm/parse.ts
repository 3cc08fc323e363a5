/**
 * One line of a DayZ admin log (`.ADM`) to an {@link AdmLine}: pure, never throws, no state between lines.
 *
 * The shapes are the game's own. The script half of the log is `PluginAdminLog`
 * (`scripts/4_world/plugins/pluginbase/pluginadminlog.c` in BohemiaInteractive/DayZ-Script-Diff);
 * connects, disconnects and vanilla chat are written by the executable; `[Chat - <Channel>]` (and the older
 * `Chat[<Channel>]`) by chat mods, Expansion's among them. Checked against real files: see
 * `test/gamelog/fixtures/README.md`.
 *
 * Every line starts `HH:MM:SS | ` (spaces around `|` vary) except the file's banner: empty lines,
 * `****` rulers (`***EOF***` at the end) and `AdminLog started on <YYYY-MM-DD> at <HH:MM:SS>`.
 *
 * A player is `Player "<name>" (id=<DayZ ID> pos=<x, y, z>)`: ` (DEAD)` between name and `(id=` when the
 * player is dead as the line is written; `id=Unknown` when the engine has no identity (dayzId null);
 * spacing that varies by version (`"A"(id=...)`, `"A" (id=...)`, `(id=..., pos=<...>)`); no `pos=` on
 * connect and disconnect lines. `pos=<x, y, z>` is x east, y north, z height (the script prints the engine's
 * vector as `[0], [2], [1]`), each cut to one decimal and an integer when whole; the engine's float max
 * (a missing position) reads as null.
 *
 * What each line becomes:
 *
 * - `Player "A" is connected (id=I)`, and the console order `Player "A" (id=I pos=<...>) is connected`:
 *   `connected`. `Player "A"(id=I) has been disconnected` (`id=Unknown`: a client that left before it was
 *   connected): `disconnected`.
 * - `Chat("A"(id=I)): text` (vanilla; channel null), `[Chat - Global]("A"(id=I)): text`, `Chat[Global](...)`:
 *   `chat`, the channel lower-cased (`[Chat - ]` has none).
 * - `Player "V" (id=... pos=<...>)[HP: 74] hit by <attacker>`: `hit`, `hp` the victim's health after it.
 *   A player: `Player "K" (id=... pos=<...>) into Head(0) for 26 damage (Bullet_45ACP) with FX-45 from
 *   1.12831 meters ` (ranged; the game leaves the space at the end), `... (MeleeSharpHeavy_1) with Machete`
 *   (melee: no distance), `... for 10 damage (MeleeFist)` (fists: no weapon). Infected and animals by display
 *   name, `Infected into Torso(1) for 6.75 damage (MeleeInfected)`, `Wolf into Head(0) for 10 damage
 *   (MeleeWolf)`, `Brown Bear ... (MeleeBear)`: some servers localise the name (`Заражённый`, `Волк`), so the
 *   ammo decides too. Others, `environment`: `explosion (LandMineExplosion)` (the name `explosion`),
 *   `Hatchback_02 with TransportHit` and `Fireplace with FireDamage` (the ammo after `with`),
 *   `FallDamageHealth` (`FallDamage` before 1.23), `TripwireTrap into (-1) for 0 damage (TripWireHit)` (no
 *   zone: bodyPart null), `Mosin9130_Black into ... (FirearmHit_Rifle)`, Expansion's AI (`AI "Elias" (group=2
 *   ... pos=<...>) into ...`, named `AI "Elias"`). `into Block(3) for 0 damage ` (a blocked blow) has no ammo.
 * - `Player "V" (DEAD) (id=... pos=<...>) killed by <killer>`: `killed`. A player: `Player "K" (id=...) with
 *   M4-A1 from 24.38 meters ` (ranged), `with Combat Knife` (melee: no distance), `with (MeleeFist)` (weapon
 *   `MeleeFist`). `ZmbM_Jacket_blue` (infected, by class), `Animal_CanisLupus_White`; anything else named is
 *   the environment (`LandMineTrap`, `6-M7 Frag Grenade`, a vehicle); `killed by  with 40mm Explosive
 *   Grenade` (two spaces: a weapon nobody held) is the environment named by the weapon.
 * - `committed suicide`: `killed` by `suicide`; `bled out`: `killed` by the environment `bleeding`;
 *   `drowned. Stats> ...`: `killed` by the environment `drowning`.
 * - Lines that only say where a player is: the `##### PlayerList log` block's `Player "A" (id=...
 *   pos=<...>)`, `died. Stats> Water: ... Energy: ... Bleed sources: ...`, `is unconscious`, `regained
 *   consciousness`, `has drowned while unconscious`, `is choosing to respawn`, `is disconnecting while being
 *   unconscious|restrained`, `performed <emote>`: `position`.
 *
 *   On deaths: the game writes one death line per death, `killed by ...` when something else killed the
 *   player, `died.` (or `drowned.`) when the player is their own source: falls, hunger, thirst, bleeding out,
 *   a suicide without a gun. `committed suicide`, `bled out` and the respawn and disconnect lines come just
 *   before that `died.` and say why. So a fall death is `(DEAD) ...[HP: 0] hit by FallDamageHealth` then
 *   `(DEAD) ... died. Stats> ...`: with `died.` a `position`, it has no `killed` event.
 * - `##### ...` and `#####`; building and placement (`placed`, `built`, `Built`, `Dismantled`, `destroyed`,
 *   `folded`, `packed`, `re-packed`, `repaired`, a flag `has raised`/`has lowered`, the `Player SurvivorBase<...>
 *   Mounted|Dug ...` lines); `was teleported from: ...`; `is connecting`; `PLAYER REPORT: ...`; the banner; and
 *   any other timed line (mods write their own: `[BBP] ...`, `CFTools...`): `ignored`.
 * - No time, an impossible time or date, a player or chat line that does not read through (a cut last line, a
 *   shape half written): `unknown`.
 *
 * Names are the players' own and may hold quotes, parentheses and whole imitations of a log line. The game's
 * text is at the start and the end of a line, so the ids are read right to left as in the runtime's
 * `PlayerLog`: a name runs up to the last id block followed by a tail the game writes, and cannot push the
 * real ids aside. A line with two players (a hit or kill by a player) can, with a name that imitates the
 * middle of such a line, be read in two ways: the attacker's ids (always the last block) stay, the victim's,
 * when the readings disagree, are null. A chat line whose name or text imitates `"(id=...)): ` is read at the
 * first such mark, its id null when the marks disagree.
 */
import type { AdmEvent, AdmLine, Attacker, LoggedPlayer, Position } from "./events.js"

// Written for speed: an ingester reads files of hundreds of megabytes, a line at a time. What costs here is
// each builtin call (a regular expression run, `indexOf`, a number conversion) and each character looked at
// from script, so the common lines are read by a few anchored (sticky) expressions that do the scanning
// natively, and everything else by the careful, slower reader below them, which any line can go through:
// where both read a line they read it the same (the tests check).

const IGNORED: AdmLine = Object.freeze({ kind: "ignored" })
const UNKNOWN: AdmLine = Object.freeze({ kind: "unknown" })

const event = (value: AdmEvent): AdmLine => ({ kind: "event", event: value })

/** Not a shape this reader knows: the caller decides (another reading of the line, or `ignored`). */
const NONE = 0
/** A shape it knows, badly formed: `unknown`, unless another reading of the line works. */
const INVALID = 1
type Miss = typeof NONE | typeof INVALID

/** A coordinate beyond any map: the engine prints float max (`-340282346638528859811704183484516925440.0`) for a missing position. */
const FAR = 1e6

const SPACE = 32
const TAB = 9
const QUOTE = 34
const OPEN = 40
const CLOSE = 41

const isDigit = (c: number) => c >= 48 && c <= 57
const isSpace = (c: number) => c === SPACE || c === TAB

/** Whether `s` holds `literal` at `at`. */
const has = (s: string, at: number, literal: string): boolean => {
  const n = literal.length
  if (at < 0 || at + n > s.length) return false
  for (let i = 0; i < n; i++) if (s.charCodeAt(at + i) !== literal.charCodeAt(i)) return false
  return true
}

/** `literal` at `at` and a space after it. */
const word = (s: string, at: number, literal: string) => has(s, at, literal) && isSpace(s.charCodeAt(at + literal.length))

/** `literal` at `at` and nothing but spaces after it. */
const only = (s: string, at: number, literal: string) => has(s, at, literal) && skipSpaces(s, at + literal.length) >= s.length

const skipSpaces = (s: string, at: number) => {
  const n = s.length
  while (at < n && isSpace(s.charCodeAt(at))) at++
  return at
}

/** `end` moved back over spaces. */
const trimBack = (s: string, end: number) => {
  while (end > 0 && isSpace(s.charCodeAt(end - 1))) end--
  return end
}

const NUM = "-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?"
const NUMBER = new RegExp(`^${NUM}$`)

/** A number as the log prints it (`-12`, `4564.8`, `1e-05`), or NaN. */
const numberOf = (text: string): number => (NUMBER.test(text) ? parseFloat(text) : NaN)

/** Set by {@link positionOf}: whether the text was three numbers. */
let positionRead = false

/**
 * What `pos=<...>` holds, `x, y, z`: the position, null for the engine's no-position value; {@link positionRead}
 * false when it is not three numbers. The three read in one pass (a conversion each costs as much as the rest).
 */
const positionOf = (text: string): Position | null => {
  positionRead = false
  const n = text.length
  let i = 0
  let x = 0
  let y = 0
  let z = 0
  for (let k = 0; k < 3; k++) {
    while (i < n && isSpace(text.charCodeAt(i))) i++
    const start = i
    const negative = text.charCodeAt(i) === 45
    if (negative) i++
    let value = 0
    let digits = 0
    let scale = 1
    let c = text.charCodeAt(i)
    while (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48)
      digits++
      c = text.charCodeAt(++i)
    }
    if (digits === 0) return null
    if (c === 46) {
      const before = digits
      c = text.charCodeAt(++i)
      while (c >= 48 && c <= 57) {
        value = value * 10 + (c - 48)
        digits++
        scale *= 10
        c = text.charCodeAt(++i)
      }
      if (digits === before) return null
    }
    if (c === 101 || c === 69 || digits > 15) {
      // An exponent, or more digits than a double holds exactly: the slow way.
      while (i < n && !isSpace(text.charCodeAt(i)) && text.charCodeAt(i) !== 44) i++
      value = numberOf(text.slice(start, i))
      if (Number.isNaN(value)) return null
    } else value = negative ? -value / scale : value / scale
    if (k === 0) x = value
    else if (k === 1) y = value
    else z = value
    while (i < n && isSpace(text.charCodeAt(i))) i++
    if (k < 2) {
      if (text.charCodeAt(i) !== 44) return null
      i++
    }
  }
  if (i !== n) return null
  positionRead = true
  return Math.abs(x) > FAR || Math.abs(y) > FAR || Math.abs(z) > FAR ? null : { x, y, z }
}

const idOf = (raw: string) => (raw === "" || raw === "Unknown" ? null : raw)

// ---------------------------------------------------------------------------------------------------------
// Blocks: `" (DEAD) (id=X pos=<x, y, z>)`, the ids and position after a player's name. The line's blocks are
// kept in scratch space reused from line to line (the reader is synchronous and never re-entered).
// ---------------------------------------------------------------------------------------------------------

const quoteAt: Array<number> = []
const endAt: Array<number> = []
const ids: Array<string | null> = []
const positions: Array<Position | null> = []
let blocks = 0

const DEAD = "\\s*(?:\\(DEAD\\)\\s*)?"
/** An id block: 1 the id, 2 what `pos=<...>` holds (a comma before `pos` on old versions). */
const ID_POS = `\\(id=([^\\s()<>",]*),?\\s*(?:pos=<([^<>]*)>\\s*)?\\)`
/** A block from its `(id=`. */
const BLOCK_AT_ID = new RegExp(ID_POS, "y")
/** A block from the name's closing quote. */
const BLOCK_AFTER_QUOTE = new RegExp(`"${DEAD}${ID_POS}`, "y")

/** Records a block; false when its position is not three numbers. */
const record = (quote: number, end: number, id: string, pos: string | undefined): boolean => {
  let position: Position | null = null
  if (pos !== undefined) {
    position = positionOf(pos)
    if (!positionRead) return false
  }
  quoteAt[blocks] = quote
  endAt[blocks] = end
  ids[blocks] = idOf(id)
  positions[blocks] = position
  blocks++
  return true
}

/** Records the block whose `(id=` is at `k` when it is a whole block right after a name's closing quote. */
const readBlock = (s: string, nameStart: number, k: number): boolean => {
  let j = k - 1
  while (j >= nameStart && isSpace(s.charCodeAt(j))) j--
  if (s.charCodeAt(j) === CLOSE && j >= nameStart + 5 && has(s, j - 5, "(DEAD)")) {
    j -= 6
    while (j >= nameStart && isSpace(s.charCodeAt(j))) j--
  }
  if (j < nameStart || s.charCodeAt(j) !== QUOTE) return false
  BLOCK_AT_ID.lastIndex = k
  const m = BLOCK_AT_ID.exec(s)
  return m !== null && record(j, BLOCK_AT_ID.lastIndex, m[1]!, m[2])
}

/** Records the block after the closing quote at `quote`; its end, or -1. */
const blockAfterQuote = (s: string, quote: number): number => {
  BLOCK_AFTER_QUOTE.lastIndex = quote
  const m = BLOCK_AFTER_QUOTE.exec(s)
  if (m === null) return -1
  const end = BLOCK_AFTER_QUOTE.lastIndex
  return record(quote, end, m[1]!, m[2]) ? end : -1
}

const playerOf = (s: string, nameStart: number, block: number): LoggedPlayer => ({
  name: s.slice(nameStart, quoteAt[block]),
  dayzId: ids[block]!,
  pos: positions[block]!
})

// ---------------------------------------------------------------------------------------------------------
// Attackers and what they did
// ---------------------------------------------------------------------------------------------------------

/** Infected by what hit them: `MeleeInfected`, `MeleeSoldierInfectedLong`, `MeleeZombie_Heavy`. */
const ZOMBIE_AMMO = /Infected|Zombie/i
/** Animals by what hit them: `MeleeWolf` (wolves, dogs), `MeleeBear`, `MeleeBearShock`. */
const ANIMAL_AMMO = /^Melee(?:Wolf|Bear|Dog|Animal|Boar|Fox|Hog)/i

/** A hit's attacker by display name; the ammo decides where the name is localised (`Заражённый`, `Волк`). */
const creature = (name: string, ammo: string | null): Attacker => {
  if (name === "Infected" || name.startsWith("Zmb") || (ammo !== null && ZOMBIE_AMMO.test(ammo))) return { kind: "zombie", name }
  if (name.startsWith("Animal_") || (ammo !== null && ANIMAL_AMMO.test(ammo))) return { kind: "animal", name }
  return { kind: "environment", name }
}

/** A killer named by class: `ZmbM_...` (and modded `Infected...`), `Animal_...`; anything else the environment. */
const killerNamed = (name: string): Attacker =>
  name.startsWith("Zmb") || name.startsWith("Infected")
    ? { kind: "zombie", name }
    : name.startsWith("Animal_")
      ? { kind: "animal", name }
      : { kind: "environment", name }

// Set by scanWeapon, scanHitMessage and scanNamedHit: what the line's hit or kill says.
let weapon: string | null = null
let distance: number | null = null
let bodyPart: string | null = null
let damage: number | null = null
let ammo: string | null = null
let attacker: Attacker = { kind: "suicide" }

const HIT_MESSAGE_SOURCE = `\\s+into\\s+(\\w*)\\((-?\\d+)\\)\\s+for\\s+(${NUM})\\s+damage\\s*(?:\\(([^()]*)\\))?`
/** The rest of the line: nothing, or ` with <weapon>[ from <n> meters]` (one group, read by {@link weaponParts}). */
const WEAPON_SOURCE = `(?:\\s+with\\s+(.*)|\\s*)$`
/** `with <weapon>[ from <n> meters]` to the end of the line. */
const WEAPON = /\s*with\s+(.*)$/y
/** ` into Head(0) for 26 damage (Bullet_45ACP)[ with FX-45[ from 1.12831 meters]] ` to the end of the line. */
const HIT_MESSAGE = new RegExp(HIT_MESSAGE_SOURCE + WEAPON_SOURCE, "y")

/** A weapon that ends in part of ` from <n> meters`: a line cut short (the game writes the whole). */
const CUT_RANGE = /\sfrom(?:\s+[-+.\deE]*(?:\s+m(?:e(?:t(?:e(?:r)?)?)?)?)?)?$/

const isNumberChar = (c: number) => isDigit(c) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69

/**
 * What follows `with `: the weapon, and the distance when it ends ` from <n> meters` (read from the end: a
 * weapon's name may hold anything). Sets {@link weapon} and {@link distance}; false when there is no weapon
 * or the line was cut inside ` from <n> meters`.
 */
const weaponParts = (text: string): boolean => {
  const end = trimBack(text, text.length)
  let weaponEnd = end
  distance = null
  if (end > 7 && has(text, end - 6, "meters") && isSpace(text.charCodeAt(end - 7))) {
    const numberEnd = trimBack(text, end - 6)
    let numberStart = numberEnd
    while (numberStart > 0 && isNumberChar(text.charCodeAt(numberStart - 1))) numberStart--
    const from = trimBack(text, numberStart) - 4
    if (numberStart < numberEnd && isSpace(text.charCodeAt(numberStart - 1)) && from > 0 && has(text, from, "from") && isSpace(text.charCodeAt(from - 1))) {
      const value = numberOf(text.slice(numberStart, numberEnd))
      if (!Number.isNaN(value)) {
        distance = value
        weaponEnd = trimBack(text, from)
      }
    }
  }
  if (weaponEnd === 0) return false
  weapon = weaponEnd === text.length ? text : text.slice(0, weaponEnd)
  return !CUT_RANGE.test(weapon)
}

const scanWeapon = (s: string, at: number): boolean => {
  WEAPON.lastIndex = at
  const m = WEAPON.exec(s)
  return m !== null && weaponParts(m[1]!)
}

/** Sets the hit's fields from a {@link HIT_MESSAGE} match whose groups start at `g`; false when its weapon is not whole. */
const hitFields = (m: RegExpExecArray, g: number): boolean => {
  bodyPart = m[g] === "" ? null : m[g]!
  damage = parseFloat(m[g + 2]!)
  ammo = m[g + 3] ?? null
  const rest = m[g + 4]
  if (rest === undefined) {
    weapon = null
    distance = null
    return true
  }
  return weaponParts(rest)
}

const scanHitMessage = (s: string, at: number): boolean => {
  HIT_MESSAGE.lastIndex = at
  const m = HIT_MESSAGE.exec(s)
  return m !== null && hitFields(m, 1)
}

/** Expansion's AI: `AI "Elias" (group=2 faction="Mercenaries" pos=<...>)`, then the hit message. */
const AI_ATTACKER = /^AI\s+"([^"]*)"\s*\((?:[^()"]|"[^"]*")*\)/

/** After `hit by ` (`at`; `stunned by ` when `stunned`): an attacker that is not a player, and what it did (sets the hit's fields). */
const scanNamedHit = (s: string, at: number, stunned: boolean): Miss | true => {
  const c0 = s.charCodeAt(at)
  if (c0 === QUOTE || has(s, at, "Player ")) return INVALID
  if (c0 === 65 && has(s, at, "AI ")) {
    const ai = AI_ATTACKER.exec(s.slice(at))
    if (ai === null || !scanHitMessage(s, at + ai[0].length)) return INVALID
    attacker = { kind: "environment", name: `AI "${ai[1]!}"` }
    return true
  }
  const n = s.length
  // The name runs to ` into ` (a creature or object that dealt a blow), or is one of the forms without one.
  for (let p = at; p < n; p++) {
    const c = s.charCodeAt(p)
    if (c === QUOTE) return INVALID
    if (isSpace(c) && p > at && scanHitMessage(s, p)) {
      attacker = creature(s.slice(at, trimBack(s, p)), ammo)
      return true
    }
  }
  const end = trimBack(s, n)
  if (end <= at) return INVALID
  bodyPart = null
  damage = null
  weapon = null
  distance = null
  ammo = null
  if (has(s, at, "explosion")) {
    const open = skipSpaces(s, at + 9)
    if (open === end) {
      attacker = { kind: "environment", name: "explosion" }
      return true
    }
    if (s.charCodeAt(open) === OPEN && s.charCodeAt(end - 1) === CLOSE) {
      const inner = s.slice(open + 1, end - 1)
      if (inner.includes("(") || inner.includes(")")) return INVALID
      attacker = { kind: "environment", name: "explosion" }
      ammo = inner
      return true
    }
  }
  let space = at
  while (space < end && !isSpace(s.charCodeAt(space))) space++
  if (space === end) {
    // The ammo alone: `hit by FallDamageHealth` (the game writes no other ammo so), `stunned by <ammo>`.
    const name = s.slice(at, end)
    if (!stunned && !name.startsWith("FallDamage")) return INVALID
    attacker = { kind: "environment", name }
    return true
  }
  // `Hatchback_02 with TransportHit`, `Fireplace with FireDamage`: the object and its ammo, one word each.
  if (has(s, space, " with ")) {
    const ammoStart = skipSpaces(s, space + 6)
    let q = ammoStart
    while (q < end && !isSpace(s.charCodeAt(q))) q++
    if (q === end && ammoStart < end) {
      attacker = { kind: "environment", name: s.slice(at, space) }
      ammo = s.slice(ammoStart, end)
      return true
    }
  }
  return INVALID
}

// ---------------------------------------------------------------------------------------------------------
// What follows a player's block
// ---------------------------------------------------------------------------------------------------------

const at = (seconds: number, player: LoggedPlayer): AdmLine => event({ type: "position", seconds, player })
const killedBy = (seconds: number, victim: LoggedPlayer, killer: Attacker): AdmLine => event({ type: "killed", seconds, victim, killer, weapon: null, distance: null })

/** A hit of the player the line's last block names (`block`), from `p`: `[HP: n] hit by `, `hit by `, `stunned by `. */
const hitTail = (s: string, seconds: number, nameStart: number, block: number, p: number): AdmLine | Miss => {
  let hp: number | null = null
  if (s.charCodeAt(p) === 91) {
    if (!has(s, p, "[HP:")) return NONE
    const close = s.indexOf("]", p)
    if (close < 0) return INVALID
    hp = numberOf(s.slice(skipSpaces(s, p + 4), trimBack(s, close)))
    if (Number.isNaN(hp)) return INVALID
    p = skipSpaces(s, close + 1)
  }
  let from: number
  const stunned = word(s, p, "stunned")
  if (word(s, p, "hit")) from = skipSpaces(s, p + 3)
  else if (stunned) from = skipSpaces(s, p + 7)
  else return hp === null ? NONE : INVALID
  if (!word(s, from, "by")) return INVALID
  const read = scanNamedHit(s, skipSpaces(s, from + 2), stunned)
  if (read !== true) return read
  return event({ type: "hit", seconds, victim: playerOf(s, nameStart, block), hp, attacker, bodyPart, damage, ammo, weapon, distance })
}

/** A death of the player the line's last block names; `p` is after `killed by`. */
const killTail = (s: string, seconds: number, nameStart: number, block: number, p: number): AdmLine | Miss => {
  const from = skipSpaces(s, p)
  if (scanWeapon(s, from)) {
    // `killed by  with 40mm Explosive Grenade`: a weapon nobody held.
    return event({ type: "killed", seconds, victim: playerOf(s, nameStart, block), killer: { kind: "environment", name: weapon! }, weapon, distance })
  }
  if (s.charCodeAt(from) === QUOTE || has(s, from, "Player ")) return INVALID
  const end = trimBack(s, s.length)
  if (from >= end) return INVALID
  let space = from
  for (let q = from; q < end; q++) {
    const c = s.charCodeAt(q)
    if (c === QUOTE) return INVALID
    if (space === from && isSpace(c)) space = q
  }
  // `ZmbM_Jacket_blue`, `LandMineTrap` (a class, maybe `with` something); `6-M7 Frag Grenade` (a display name).
  if (space > from && has(s, space, " with ")) {
    return event({ type: "killed", seconds, victim: playerOf(s, nameStart, block), killer: killerNamed(s.slice(from, space)), weapon: s.slice(skipSpaces(s, space + 6), end), distance: null })
  }
  return killedBy(seconds, playerOf(s, nameStart, block), killerNamed(s.slice(from, end)))
}

/**
 * What follows the line's last block (`block`), for the player it names, when no one else in the line is a
 * player. NONE for what a player's block is followed by when they are the attacker (` into ...`, ` with ...`).
 */
const singleTail = (s: string, seconds: number, nameStart: number, block: number): AdmLine | Miss => {
  const p = skipSpaces(s, endAt[block]!)
  if (p >= s.length) return at(seconds, playerOf(s, nameStart, block))
  switch (s.charCodeAt(p)) {
    case 91: // [HP: n] hit by
      return hitTail(s, seconds, nameStart, block, p)
    case 105: // i
      if (has(s, p, "into")) return NONE
      if (has(s, p, "is unconscious") || has(s, p, "is choosing to respawn") || has(s, p, "is disconnecting while being ")) {
        return at(seconds, playerOf(s, nameStart, block))
      }
      if (only(s, p, "is connected")) return event({ type: "connected", seconds, player: playerOf(s, nameStart, block) })
      return only(s, p, "is connecting") ? IGNORED : NONE
    case 119: // w
      return has(s, p, "was teleported ") ? IGNORED : NONE
    case 104: // h
      if (word(s, p, "hit")) return hitTail(s, seconds, nameStart, block, p)
      if (only(s, p, "has been disconnected")) return event({ type: "disconnected", seconds, player: playerOf(s, nameStart, block) })
      if (has(s, p, "has drowned while unconscious")) return at(seconds, playerOf(s, nameStart, block))
      return has(s, p, "has raised ") || has(s, p, "has lowered ") ? IGNORED : NONE
    case 115: // s
      return word(s, p, "stunned") ? hitTail(s, seconds, nameStart, block, p) : NONE
    case 107: { // k
      const by = skipSpaces(s, p + 6)
      return word(s, p, "killed") && word(s, by, "by") ? killTail(s, seconds, nameStart, block, by + 2) : NONE
    }
    case 100: // d
      if (has(s, p, "died.")) return at(seconds, playerOf(s, nameStart, block))
      if (has(s, p, "drowned.")) return killedBy(seconds, playerOf(s, nameStart, block), { kind: "environment", name: "drowning" })
      return has(s, p, "dismantled ") || has(s, p, "destroyed ") ? IGNORED : NONE
    case 114: // r
      if (has(s, p, "regained consciousness")) return at(seconds, playerOf(s, nameStart, block))
      return has(s, p, "repaired ") || has(s, p, "re-packed ") ? IGNORED : NONE
    case 99: // c
      return only(s, p, "committed suicide") ? killedBy(seconds, playerOf(s, nameStart, block), { kind: "suicide" }) : NONE
    case 98: // b
      if (only(s, p, "bled out")) return killedBy(seconds, playerOf(s, nameStart, block), { kind: "environment", name: "bleeding" })
      return has(s, p, "built ") ? IGNORED : NONE
    case 112: // p
      if (has(s, p, "performed ")) return at(seconds, playerOf(s, nameStart, block))
      return has(s, p, "placed ") || has(s, p, "packed ") ? IGNORED : NONE
    case 102: // f
      return has(s, p, "folded ") ? IGNORED : NONE
    default:
      // The build actions written without a space (`Built`, `Dismantled`) and the debug-string lines
      // (`Player SurvivorBase<0x...> ... Mounted BarbedWire on Fence`, `... Dug in ...`).
      return has(s, p, "Built ") || has(s, p, "Dismantled ") || has(s, p, "Player ") || has(s, p, "Mounted ") || has(s, p, "Unmounted ") || has(s, p, "Dug ")
        ? IGNORED
        : NONE
  }
}

type TwoPlayer = Extract<AdmEvent, { type: "hit" | "killed" }>

// Set by toAttacker.
let attackerHp: number | null = null
let attackerKills = false

/**
 * From the end of the victim's block to the attacker's name: `[HP: 74] hit by Player "`, ` killed by Player "`
 * (`Player` missing on old versions). Where the name starts, or -1.
 */
const toAttacker = (s: string, p: number): number => {
  attackerHp = null
  if (s.charCodeAt(p) === 91) {
    if (!has(s, p, "[HP:")) return -1
    const close = s.indexOf("]", p)
    if (close < 0) return -1
    attackerHp = numberOf(s.slice(skipSpaces(s, p + 4), trimBack(s, close)))
    if (Number.isNaN(attackerHp)) return -1
    p = close + 1
  }
  p = skipSpaces(s, p)
  attackerKills = attackerHp === null && word(s, p, "killed")
  if (attackerKills) p = skipSpaces(s, p + 6)
  else if (word(s, p, "hit")) p = skipSpaces(s, p + 3)
  else return -1
  if (!word(s, p, "by")) return -1
  p = skipSpaces(s, p + 2)
  if (has(s, p, "Player")) p = skipSpaces(s, p + 6)
  return s.charCodeAt(p) === QUOTE ? p + 1 : -1
}

/** What the line says after the last block, read once for all the readings of a line with two players. */
interface AttackerTail {
  readonly hit: { bodyPart: string | null; damage: number | null; ammo: string | null; weapon: string | null; distance: number | null } | undefined
  readonly kill: { weapon: string | null; distance: number | null } | undefined
}

const attackerTail = (s: string, last: number): AttackerTail => {
  const hit = scanHitMessage(s, endAt[last]!) ? { bodyPart, damage, ammo, weapon, distance } : undefined
  const kill = scanWeapon(s, endAt[last]!) ? { weapon: weapon === "(MeleeFist)" ? "MeleeFist" : weapon, distance } : undefined
  return { hit, kill }
}

/** A hit or kill by a player: the victim's block `victim`, the attacker's the line's last, `last`. */
const twoPlayers = (s: string, seconds: number, nameStart: number, victim: number, last: number, tail: AttackerTail): TwoPlayer | Miss => {
  const attackerStart = toAttacker(s, endAt[victim]!)
  if (attackerStart < 0) return NONE
  if (attackerStart > quoteAt[last]!) return INVALID
  if (attackerKills) {
    if (tail.kill === undefined) return INVALID
    const player = playerOf(s, attackerStart, last)
    return { type: "killed", seconds, victim: playerOf(s, nameStart, victim), killer: { kind: "player", player }, ...tail.kill }
  }
  if (tail.hit === undefined) return INVALID
  const player = playerOf(s, attackerStart, last)
  return { type: "hit", seconds, victim: playerOf(s, nameStart, victim), hp: attackerHp, attacker: { kind: "player", player }, ...tail.hit }
}

const samePlace = (a: Position | null, b: Position | null) => a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.z === b.z)

// ---------------------------------------------------------------------------------------------------------
// Player lines
// ---------------------------------------------------------------------------------------------------------

/** `A" is connected (id=X)` (after `Player "`): the name greedy, the id in the last parentheses. */
const CONNECTED = /^(.*)"\s*is connected\s*\(id=([^\s()<>",]*)\)\s*$/

/**
 * A hit from the end of the victim's block, the attacker's name holding no quote: 1 hp, then a player (2 name,
 * 3 id, 4 pos, 5 zone, 6 component, 7 damage, 8 ammo, 9 what follows `with`) or a creature (10 name, 11 zone,
 * 12 component, 13 damage, 14 ammo).
 */
const HIT_AFTER = new RegExp(
  `\\[HP:\\s*(${NUM})\\s*\\]\\s*hit by\\s+(?:(?:Player\\s*)?"([^"]*)"${DEAD}${ID_POS}${HIT_MESSAGE_SOURCE}${WEAPON_SOURCE}` +
    `|([^"\\s][^"]*?)${HIT_MESSAGE_SOURCE}\\s*$)`,
  "y"
)
/** A kill by a player from the end of the victim's block, the killer's name holding no quote: 1 name, 2 id, 3 pos, 4 what follows `with`. */
const KILL_AFTER = new RegExp(`\\s*killed by\\s+(?:Player\\s*)?"([^"]*)"${DEAD}${ID_POS}\\s*with\\s+(.*)$`, "y")

/** A player the fast expressions captured: name, id, what `pos=<...>` holds; undefined when the position is not three numbers. */
const captured = (name: string, id: string, pos: string | undefined): LoggedPlayer | undefined => {
  if (pos === undefined) return { name, dayzId: idOf(id), pos: null }
  const position = positionOf(pos)
  return positionRead ? { name, dayzId: idOf(id), pos: position } : undefined
}

/**
 * The common case, fast: names without quotes, so the line's blocks are the first after each name. Gives up
 * (undefined) on anything else, which {@link blocksLine} reads; where both read a line they agree.
 */
const quoteFreeLine = (s: string, seconds: number, nameStart: number): AdmLine | undefined => {
  blocks = 0
  const quote = s.indexOf('"', nameStart)
  if (quote < 0) return undefined
  const end = blockAfterQuote(s, quote)
  if (end < 0) return undefined
  const c = s.charCodeAt(end)
  if (c === 91) {
    HIT_AFTER.lastIndex = end
    const m = HIT_AFTER.exec(s)
    if (m !== null) {
      const hp = parseFloat(m[1]!)
      if (m[2] !== undefined) {
        // A weapon holding a quote could hold a block: the careful reader decides.
        if (m[9] !== undefined && m[9].includes('"')) return undefined
        const other = captured(m[2], m[3]!, m[4])
        if (other === undefined || !hitFields(m, 5)) return undefined
        return event({ type: "hit", seconds, victim: playerOf(s, nameStart, 0), hp, attacker: { kind: "player", player: other }, bodyPart, damage, ammo, weapon, distance })
      }
      hitFields(m, 11)
      return event({ type: "hit", seconds, victim: playerOf(s, nameStart, 0), hp, attacker: creature(m[10]!, ammo), bodyPart, damage, ammo, weapon: null, distance: null })
    }
  } else if (isSpace(c) && s.charCodeAt(skipSpaces(s, end)) === 107) {
    KILL_AFTER.lastIndex = end
    const m = KILL_AFTER.exec(s)
    if (m !== null) {
      if (m[4]!.includes('"')) return undefined
      const other = captured(m[1]!, m[2]!, m[3])
      if (other === undefined || !weaponParts(m[4]!)) return undefined
      return event({
        type: "killed", seconds, victim: playerOf(s, nameStart, 0), killer: { kind: "player", player: other },
        weapon: weapon === "(MeleeFist)" ? "MeleeFist" : weapon, distance
      })
    }
  }
  if (s.indexOf("(id=", end) >= 0) return undefined
  const single = singleTail(s, seconds, nameStart, 0)
  return typeof single === "number" ? undefined : single
}

/** More `(id=` than this in one line is not a line the game wrote (and reading each costs the length of the line). */
const MAX_BLOCKS = 32

/** A `Player "` line (from `at`) read block by block: any shape, any name. */
const blocksLine = (s: string, seconds: number, at: number): AdmLine => {
  const nameStart = at + 8
  blocks = 0
  let lastWasBlock = false
  let tried = 0
  for (let k = s.indexOf("(id=", nameStart); k >= 0; k = s.indexOf("(id=", k + 4)) {
    // No line the game writes holds more than a few (two players, and whatever their names imitate).
    if (++tried > MAX_BLOCKS) return UNKNOWN
    lastWasBlock = readBlock(s, nameStart, k)
  }
  if (!lastWasBlock) {
    // `Player "A" is connected (id=X)`: the one line whose ids do not follow the name.
    const m = CONNECTED.exec(s.slice(nameStart))
    if (m !== null) return event({ type: "connected", seconds, player: { name: m[1]!, dayzId: idOf(m[2]!), pos: null } })
  }
  const n = blocks
  if (n === 0) return UNKNOWN
  const last = n - 1
  const single = singleTail(s, seconds, nameStart, last)
  if (typeof single !== "number") return single

  // A hit or kill by a player: the victim's block is an earlier one. The name runs to the last block that reads.
  let chosen: TwoPlayer | undefined
  let ambiguous = false
  let invalid = single === INVALID
  const tail = attackerTail(s, last)
  for (let i = n - 2; i >= 0; i--) {
    const read = twoPlayers(s, seconds, nameStart, i, last, tail)
    if (read === INVALID) invalid = true
    else if (read !== NONE) {
      if (chosen === undefined) chosen = read
      else if (read.victim.dayzId !== chosen.victim.dayzId || !samePlace(read.victim.pos, chosen.victim.pos)) ambiguous = true
    }
  }
  if (chosen === undefined) return invalid ? UNKNOWN : IGNORED
  if (ambiguous) chosen = { ...chosen, victim: { name: chosen.victim.name, dayzId: null, pos: null } }
  return event(chosen)
}

/** A line whose message, from `at`, starts `Player "`. */
const playerLine = (s: string, seconds: number, at: number): AdmLine => quoteFreeLine(s, seconds, at + 8) ?? blocksLine(s, seconds, at)

// ---------------------------------------------------------------------------------------------------------
// Chat, the header, the line
// ---------------------------------------------------------------------------------------------------------

const CHAT_HEAD = /^(?:Chat(?:\s*\[([^\]]*)\])?|\[\s*Chat\s*(?:-\s*([^\]]*))?\])\s*\(\s*"/
/** The end of a chat line's name: `"(id=X)): `. Global: every candidate. */
const CHAT_SEPARATOR = /"\s*\(id=([^\s()<>",]*)\)\s*\)\s*:/g

/** A line whose message, from `at`, starts `Chat` or `[Chat`. */
const chatLine = (s: string, seconds: number, at: number): AdmLine => {
  const body = s.slice(at)
  const head = CHAT_HEAD.exec(body)
  if (head === null) return has(body, 0, "Chat(") || has(body, 0, "Chat[") || has(body, 0, "[Chat") ? UNKNOWN : IGNORED
  const tag = (head[1] ?? head[2])?.trim()
  const channel = tag === undefined || tag === "" ? null : tag.toLowerCase()
  const nameStart = head[0].length
  CHAT_SEPARATOR.lastIndex = nameStart
  const first = CHAT_SEPARATOR.exec(body)
  if (first === null) return UNKNOWN
  let dayzId = idOf(first[1]!)
  // A name or text that imitates `"(id=...)): ` makes the line readable in two ways: no id then.
  for (let m = CHAT_SEPARATOR.exec(body); m !== null; m = CHAT_SEPARATOR.exec(body)) if (idOf(m[1]!) !== dayzId) dayzId = null
  const textStart = first.index + first[0].length
  const text = body.charCodeAt(textStart) === SPACE ? body.slice(textStart + 1) : body.slice(textStart)
  return event({ type: "chat", seconds, channel, player: { name: body.slice(nameStart, first.index), dayzId, pos: null }, text })
}

const HEADER = /^AdminLog started on (\d{4})-(\d{2})-(\d{2}) at (\d{2}):(\d{2}):(\d{2})\s*$/
const RULER = /^\*+(?:EOF\*+)?\s*$/

const header = (line: string): AdmLine => {
  const m = HEADER.exec(line)
  if (m === null) return UNKNOWN
  const [year, month, day, h, min, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return UNKNOWN
  if (h > 23 || min > 59 || sec > 59) return UNKNOWN
  return event({ type: "log-started", date: `${m[1]}-${m[2]}-${m[3]}`, seconds: h * 3600 + min * 60 + sec })
}

/** `Player "` at `at` (the commonest test, spelled out: {@link has} costs more). */
const isPlayerQuote = (s: string, at: number) =>
  s.charCodeAt(at + 7) === QUOTE && s.charCodeAt(at + 6) === SPACE && s.charCodeAt(at) === 80 && s.charCodeAt(at + 1) === 108 &&
  s.charCodeAt(at + 2) === 97 && s.charCodeAt(at + 3) === 121 && s.charCodeAt(at + 4) === 101 && s.charCodeAt(at + 5) === 114

const twoDigits = (s: string, at: number) => (s.charCodeAt(at) - 48) * 10 + (s.charCodeAt(at + 1) - 48)

const parse = (raw: string, careful: boolean): AdmLine => {
  let end = raw.length
  while (end > 0 && (raw.charCodeAt(end - 1) === 13 || raw.charCodeAt(end - 1) === 10)) end--
  const start = raw.charCodeAt(0) === 0xfeff ? 1 : 0
  const s = start === 0 && end === raw.length ? raw : raw.slice(start, end)

  // `HH:MM:SS`, spaces, `|`, spaces.
  if (s.length >= 9 && s.charCodeAt(2) === 58 && s.charCodeAt(5) === 58 && isDigit(s.charCodeAt(0)) && isDigit(s.charCodeAt(1)) &&
    isDigit(s.charCodeAt(3)) && isDigit(s.charCodeAt(4)) && isDigit(s.charCodeAt(6)) && isDigit(s.charCodeAt(7))) {
    const h = twoDigits(s, 0)
    const m = twoDigits(s, 3)
    const sec = twoDigits(s, 6)
    if (h > 23 || m > 59 || sec > 59) return UNKNOWN
    let i = skipSpaces(s, 8)
    if (s.charCodeAt(i) !== 124) return UNKNOWN
    i = skipSpaces(s, i + 1)
    const seconds = h * 3600 + m * 60 + sec
    const c = s.charCodeAt(i)
    if (c === 80 && isPlayerQuote(s, i)) return careful ? blocksLine(s, seconds, i) : playerLine(s, seconds, i)
    if ((c === 67 && has(s, i, "Chat")) || (c === 91 && has(s, i, "[Chat"))) return chatLine(s, seconds, i)
    return IGNORED
  }
  if (has(s, 0, "AdminLog started on")) return header(s)
  if (skipSpaces(s, 0) === s.length || RULER.test(s)) return IGNORED
  return UNKNOWN
}

/** What one line of an ADM file says (a trailing `\r` and a leading byte-order mark are dropped). Never throws. */
export const parseAdmLine = (line: string): AdmLine => {
  try {
    return parse(line, false)
  } catch {
    return UNKNOWN
  }
}

/** {@link parseAdmLine} without the fast expressions: for tests, which check the two agree. */
export const parseAdmLineCarefully = (line: string): AdmLine => {
  try {
    return parse(line, true)
  } catch {
    return UNKNOWN
  }
}
