/**
 * The `serverDZ.cfg` settings Garrison knows, with their types and ranges
 * (DayZ's documented ones): read as typed fields, checked on every change.
 * 0/1 switches are booleans in the API and written back as 0 and 1. Anything
 * else in the file is an unknown key, shown and kept as it is.
 */
export type KeyKind = "string" | "secret" | "int" | "number" | "bool" | "strings"

export interface KnownKey {
  readonly key: string
  readonly kind: KeyKind
  readonly min?: number
  readonly max?: number
  /** The class blocks it lives in (the mission template). */
  readonly path?: ReadonlyArray<string>
  /** A pattern a string must match, and how a person reads it. */
  readonly pattern?: { readonly regex: RegExp; readonly means: string }
}

export const KNOWN_KEYS: ReadonlyArray<KnownKey> = [
  { key: "hostname", kind: "string" },
  { key: "password", kind: "secret" },
  { key: "passwordAdmin", kind: "secret" },
  { key: "description", kind: "string" },
  { key: "maxPlayers", kind: "int", min: 1, max: 127 },
  { key: "enableWhitelist", kind: "bool" },
  { key: "disableBanlist", kind: "bool" },
  { key: "disablePrioritylist", kind: "bool" },
  { key: "verifySignatures", kind: "int", min: 0, max: 2 },
  { key: "forceSameBuild", kind: "bool" },
  { key: "instanceId", kind: "int", min: 1, max: 2147483647 },
  { key: "storageAutoFix", kind: "bool" },
  { key: "shardId", kind: "string", pattern: { regex: /^[A-Za-z0-9]{0,6}$/, means: "up to 6 letters or digits" } },
  { key: "disableVoN", kind: "bool" },
  { key: "vonCodecQuality", kind: "int", min: 0, max: 30 },
  { key: "disable3rdPerson", kind: "bool" },
  { key: "disableCrosshair", kind: "bool" },
  { key: "disablePersonalLight", kind: "bool" },
  { key: "lightingConfig", kind: "int", min: 0, max: 1 },
  { key: "serverTime", kind: "string", pattern: { regex: /^(SystemTime|\d{4}\/\d{1,2}\/\d{1,2}\/\d{1,2}\/\d{1,2})$/, means: 'SystemTime or YYYY/MM/DD/HH/MM' } },
  { key: "serverTimeAcceleration", kind: "number", min: 0, max: 24 },
  { key: "serverNightTimeAcceleration", kind: "number", min: 0.1, max: 64 },
  { key: "serverTimePersistent", kind: "bool" },
  { key: "guaranteedUpdates", kind: "int", min: 1, max: 1 },
  { key: "loginQueueConcurrentPlayers", kind: "int", min: 1, max: 127 },
  { key: "loginQueueMaxPlayers", kind: "int", min: 1, max: 1000 },
  { key: "respawnTime", kind: "int", min: 0, max: 3600 },
  { key: "motd", kind: "strings" },
  { key: "motdInterval", kind: "number", min: 0, max: 3600 },
  { key: "maxPing", kind: "int", min: 0, max: 10000 },
  { key: "steamQueryPort", kind: "int", min: 1, max: 65535 },
  { key: "enableDebugMonitor", kind: "bool" },
  { key: "template", kind: "string", path: ["Missions", "DayZ"], pattern: { regex: /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, means: "a mission folder name such as dayzOffline.chernarusplus" } }
]

export const knownKey = (key: string): KnownKey | undefined => KNOWN_KEYS.find((k) => k.key === key)

/** What a secret's value is shown as: the mask when one is set, "" when none (the runtime's, as every view shows it). */
export { SECRET_MASK } from "@garrison/runtime"
