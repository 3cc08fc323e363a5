/**
 * What one line of a DayZ admin log (`.ADM`) says, once parsed. The parser
 * (`parse.ts`) is pure and never throws; the ingester (`../../Ingest.ts`)
 * turns `seconds` (the line's `HH:MM:SS`) into an instant with the date of
 * the file's `AdminLog started on <date> at <time>` header.
 */

/** `pos=<x, y, z>`: x east, y north (the map's plane, metres), z height. */
export interface Position {
  readonly x: number
  readonly y: number
  readonly z: number
}

/** A player as one line names them. `dayzId` is null on lines that say `id=Unknown` or name no id. */
export interface LoggedPlayer {
  readonly name: string
  readonly dayzId: string | null
  readonly pos: Position | null
}

/** Who or what dealt a hit or a death. */
export type Attacker =
  | { readonly kind: "player"; readonly player: LoggedPlayer }
  /** Infected: `ZmbM_...`, `ZmbF_...`. */
  | { readonly kind: "zombie"; readonly name: string }
  /** `Animal_CanisLupus`, `Animal_UrsusArctos`, ... */
  | { readonly kind: "animal"; readonly name: string }
  /** Anything else named: `FallDamage`, `explosion`, a vehicle, a trap; `bleeding` (`bled out`), `drowning` (`drowned.`). */
  | { readonly kind: "environment"; readonly name: string }
  /** `committed suicide`. */
  | { readonly kind: "suicide" }

export type AdmEvent =
  /** `AdminLog started on 2026-11-21 at 18:00:00`: the date the following lines' times belong to. */
  | { readonly type: "log-started"; readonly date: string; readonly seconds: number }
  | { readonly type: "connected"; readonly seconds: number; readonly player: LoggedPlayer }
  | { readonly type: "disconnected"; readonly seconds: number; readonly player: LoggedPlayer }
  /** `channel`: `global`, `direct`, `side`, `vehicle`, `group`, `command`, `lobby`, or null when the line names none. */
  | { readonly type: "chat"; readonly seconds: number; readonly channel: string | null; readonly player: LoggedPlayer; readonly text: string }
  | {
      readonly type: "hit"
      readonly seconds: number
      readonly victim: LoggedPlayer
      /** `[HP: n]` after the hit; null when the line has none. */
      readonly hp: number | null
      readonly attacker: Attacker
      /** `into Head(0)` gives `Head`. */
      readonly bodyPart: string | null
      readonly damage: number | null
      /** `(Bullet_45ACP)`. */
      readonly ammo: string | null
      readonly weapon: string | null
      readonly distance: number | null
    }
  | {
      readonly type: "killed"
      readonly seconds: number
      readonly victim: LoggedPlayer
      readonly killer: Attacker
      readonly weapon: string | null
      readonly distance: number | null
    }
  /** A line that only tells where a player is: the `PlayerList log` block's lines, `died. Stats>`, `is unconscious`, ... */
  | { readonly type: "position"; readonly seconds: number; readonly player: LoggedPlayer }

export type AdmLine =
  | { readonly kind: "event"; readonly event: AdmEvent }
  /** A well-formed line of a shape the product does not use (placed objects, block markers, empty lines). */
  | { readonly kind: "ignored" }
  /** Not an ADM line the parser understands (corrupt, cut, or an unknown shape): counted and skipped. */
  | { readonly kind: "unknown" }
