/**
 * One read of an admin log, reduced in memory to what it changes: the
 * kills to insert and, per player, the totals to add. `Ingest` writes the
 * result in one transaction with the new byte offset, so the database only
 * ever holds whole reads. The reduction keeps one entry per player however
 * many lines name them, so a read of thousands of lines costs a few
 * statements.
 */
import type { AdmEvent, Attacker, LoggedPlayer, Position } from "../adm/events.js"
import { advance, type LineClockState, type MutableLineClock, restart } from "./lineClock.js"

/** A fatal hit (`[HP: 0]`) waiting for its kill line: gives the kill its zone and headshot. */
export interface PendingHit {
  readonly victimId: string
  readonly attackerId: string | null
  readonly bodyPart: string | null
  readonly weapon: string | null
  readonly distance: number | null
  readonly atMs: number
}

export interface KillRow {
  readonly id: string
  readonly atMs: number
  readonly killerKind: Attacker["kind"]
  readonly killerId: string | null
  readonly killerName: string | null
  readonly victimId: string | null
  readonly victimName: string
  readonly weapon: string | null
  readonly distance: number | null
  readonly zone: string | null
  readonly headshot: boolean
  readonly killerPos: Position | null
  readonly victimPos: Position | null
}

export interface PlayerDelta {
  name: string
  firstSeenMs: number
  lastSeenMs: number
  readonly names: Map<string, { firstSeenMs: number; lastSeenMs: number }>
  /** Sessions: the first disconnect before any connect closes the stored open session at that time. */
  closeStoredAtMs: number | null | undefined
  /** A connect came first: the stored open session (a missed disconnect) closes at its last sighting. */
  closeStoredAtLastSeen: boolean
  sessionsAdded: number
  playtimeAddedMs: number
  /** After this read: online since (a time), offline (null), or unchanged (undefined). */
  onlineSinceMs: number | null | undefined
  /** The newest sighting with a position (changed in place: one object per player and read). */
  position: { pos: Position; atMs: number } | null
  online: boolean | undefined
}

export interface StatDelta {
  name: string
  kills: number
  deaths: number
  headshots: number
  longest: { readonly distance: number; readonly weapon: string | null; readonly victim: string; readonly atMs: number } | null
}

export interface Joined {
  readonly playerId: string
  readonly name: string
  readonly atMs: number
}

export interface Batch {
  readonly kills: Array<KillRow>
  readonly players: Map<string, PlayerDelta>
  readonly stats: Map<string, StatDelta>
  readonly joined: Array<Joined>
  readonly chat: Array<{ readonly playerId: string | null; readonly name: string; readonly channel: string | null; readonly text: string; readonly atMs: number }>
  clock: MutableLineClock
  pending: Array<PendingHit>
  unknown: number
  lines: number
}

/** Fatal hits kept waiting for their kill line (a kill line follows its hit within the same second). */
const PENDING_LIMIT = 256
const PENDING_WINDOW_MS = 10_000
const HEAD_PARTS = new Set(["head", "brain"])

export const newBatch = (clock: LineClockState, pending: ReadonlyArray<PendingHit>): Batch => ({
  kills: [],
  players: new Map(),
  stats: new Map(),
  joined: [],
  chat: [],
  clock: { ...clock },
  pending: [...pending],
  unknown: 0,
  lines: 0
})

const touch = (batch: Batch, player: LoggedPlayer, atMs: number): PlayerDelta | undefined => {
  const id = player.dayzId
  if (id === null) return undefined
  let delta = batch.players.get(id)
  if (delta === undefined) {
    delta = {
      name: player.name,
      firstSeenMs: atMs,
      lastSeenMs: atMs,
      names: new Map([[player.name, { firstSeenMs: atMs, lastSeenMs: atMs }]]),
      closeStoredAtMs: undefined,
      closeStoredAtLastSeen: false,
      sessionsAdded: 0,
      playtimeAddedMs: 0,
      onlineSinceMs: undefined,
      position: null,
      online: undefined
    }
    batch.players.set(id, delta)
  }
  if (atMs < delta.firstSeenMs) delta.firstSeenMs = atMs
  // Most lines name a player as the last did: their name's sighting is the player's (see `nameSightings`).
  if (player.name !== delta.name) {
    delta.names.get(delta.name)!.lastSeenMs = Math.max(delta.names.get(delta.name)!.lastSeenMs, delta.lastSeenMs)
    const seen = delta.names.get(player.name)
    if (seen === undefined) delta.names.set(player.name, { firstSeenMs: atMs, lastSeenMs: atMs })
    else seen.lastSeenMs = Math.max(seen.lastSeenMs, atMs)
    delta.name = player.name
  }
  if (atMs > delta.lastSeenMs) delta.lastSeenMs = atMs
  if (player.pos !== null && (delta.position === null || atMs >= delta.position.atMs)) {
    if (delta.position === null) delta.position = { pos: player.pos, atMs }
    else {
      delta.position.pos = player.pos
      delta.position.atMs = atMs
    }
  }
  return delta
}

/** Each name a player used in the read, with its sightings: the current name's last is the player's. */
export const nameSightings = (delta: PlayerDelta): ReadonlyMap<string, { readonly firstSeenMs: number; readonly lastSeenMs: number }> => {
  const current = delta.names.get(delta.name)!
  current.lastSeenMs = Math.max(current.lastSeenMs, delta.lastSeenMs)
  return delta.names
}

const stat = (batch: Batch, playerId: string, name: string): StatDelta => {
  let delta = batch.stats.get(playerId)
  if (delta === undefined) {
    delta = { name, kills: 0, deaths: 0, headshots: 0, longest: null }
    batch.stats.set(playerId, delta)
  }
  delta.name = name
  return delta
}

const connected = (batch: Batch, player: LoggedPlayer, atMs: number) => {
  const delta = touch(batch, player, atMs)
  if (delta === undefined) return
  if (delta.onlineSinceMs === undefined && delta.closeStoredAtMs === undefined) delta.closeStoredAtLastSeen = true
  else if (typeof delta.onlineSinceMs === "number") delta.playtimeAddedMs += Math.max(0, atMs - delta.onlineSinceMs)
  delta.sessionsAdded++
  delta.onlineSinceMs = atMs
  delta.online = true
  batch.joined.push({ playerId: player.dayzId!, name: player.name, atMs })
}

const disconnected = (batch: Batch, player: LoggedPlayer, atMs: number) => {
  const delta = touch(batch, player, atMs)
  if (delta === undefined) return
  if (delta.onlineSinceMs === undefined && delta.closeStoredAtMs === undefined && !delta.closeStoredAtLastSeen) delta.closeStoredAtMs = atMs
  else if (typeof delta.onlineSinceMs === "number") delta.playtimeAddedMs += Math.max(0, atMs - delta.onlineSinceMs)
  delta.onlineSinceMs = null
  delta.online = false
}

const hit = (batch: Batch, event: Extract<AdmEvent, { type: "hit" }>, atMs: number) => {
  touch(batch, event.victim, atMs)
  if (event.attacker.kind === "player") touch(batch, event.attacker.player, atMs)
  if (event.hp !== 0 || event.victim.dayzId === null) return
  batch.pending = batch.pending.filter((p) => p.victimId !== event.victim.dayzId && atMs - p.atMs <= PENDING_WINDOW_MS)
  batch.pending.push({
    victimId: event.victim.dayzId,
    attackerId: event.attacker.kind === "player" ? event.attacker.player.dayzId : null,
    bodyPart: event.bodyPart,
    weapon: event.weapon,
    distance: event.distance,
    atMs
  })
  if (batch.pending.length > PENDING_LIMIT) batch.pending.splice(0, batch.pending.length - PENDING_LIMIT)
}

const killed = (batch: Batch, event: Extract<AdmEvent, { type: "killed" }>, atMs: number, id: string) => {
  touch(batch, event.victim, atMs)
  const killer = event.killer
  const killerPlayer = killer.kind === "player" ? killer.player : null
  if (killerPlayer !== null) touch(batch, killerPlayer, atMs)
  const victimId = event.victim.dayzId
  const index = victimId === null ? -1 : batch.pending.findIndex((p) => p.victimId === victimId && atMs - p.atMs <= PENDING_WINDOW_MS)
  const fatal = index < 0 ? undefined : batch.pending.splice(index, 1)[0]
  const matches = fatal !== undefined && (killerPlayer === null || fatal.attackerId === null || fatal.attackerId === killerPlayer.dayzId)
  const zone = matches ? fatal.bodyPart : null
  const headshot = zone !== null && HEAD_PARTS.has(zone.toLowerCase())
  const weapon = event.weapon ?? (matches ? fatal.weapon : null)
  const distance = event.distance ?? (matches ? fatal.distance : null)
  batch.kills.push({
    id,
    atMs,
    killerKind: killer.kind,
    killerId: killerPlayer?.dayzId ?? null,
    killerName: killerPlayer !== null ? killerPlayer.name : "name" in killer ? killer.name : null,
    victimId,
    victimName: event.victim.name,
    weapon,
    distance,
    zone,
    headshot,
    killerPos: killerPlayer?.pos ?? null,
    victimPos: event.victim.pos
  })
  if (victimId !== null) stat(batch, victimId, event.victim.name).deaths++
  // Only a player killing another player scores; a suicide is a death alone.
  if (killerPlayer !== null && killerPlayer.dayzId !== null && killerPlayer.dayzId !== victimId) {
    const s = stat(batch, killerPlayer.dayzId, killerPlayer.name)
    s.kills++
    if (headshot) s.headshots++
    if (distance !== null && (s.longest === null || distance > s.longest.distance)) {
      s.longest = { distance, weapon, victim: event.victim.name, atMs }
    }
  }
}

/**
 * Adds one parsed line. `idPrefix` + `offset` names the line for ever
 * (server, file, byte offset: a kill's id); `fallbackDate` dates lines
 * before any header.
 */
export const addEvent = (batch: Batch, event: AdmEvent, idPrefix: string, offset: number, fallbackDate: string): void => {
  if (event.type === "log-started") {
    batch.clock = restart(event.date, event.seconds)
    return
  }
  const atMs = advance(batch.clock, event.seconds, fallbackDate)
  switch (event.type) {
    case "connected":
      return connected(batch, event.player, atMs)
    case "disconnected":
      return disconnected(batch, event.player, atMs)
    case "chat":
      touch(batch, event.player, atMs)
      batch.chat.push({ playerId: event.player.dayzId, name: event.player.name, channel: event.channel, text: event.text, atMs })
      return
    case "hit":
      return hit(batch, event, atMs)
    case "killed":
      return killed(batch, event, atMs, idPrefix + offset)
    case "position":
      touch(batch, event.player, atMs)
      return
  }
}
