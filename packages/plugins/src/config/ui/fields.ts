/**
 * The Config tab's fields, one per setting the contract knows (`KNOWN_KEYS`,
 * the same list `ConfigFields` and `ConfigPatch` are built from): its kind
 * and range come from there, and only the words a person reads (label, what
 * it does, its section) are added here. A setting the contract gains without
 * words here still gets an input, under "Other settings", named by its key.
 */
import { KNOWN_KEYS, type KnownKey } from "../internal/knownKeys.js"

export type SectionId = "server" | "joining" | "gameplay" | "time" | "messages" | "storage" | "other"

export const SECTIONS: ReadonlyArray<{ readonly id: SectionId; readonly title: string }> = [
  { id: "server", title: "Server" },
  { id: "joining", title: "Joining and checks" },
  { id: "gameplay", title: "Gameplay and voice" },
  { id: "time", title: "Time of day" },
  { id: "messages", title: "Messages of the day" },
  { id: "storage", title: "Storage and mission" },
  { id: "other", title: "Other settings" }
]

interface Words {
  readonly label: string
  readonly help?: string
  readonly section: SectionId
  /** A whole number with a few values: picked from these, each with its meaning. */
  readonly choices?: Readonly<Record<number, string>>
}

const WORDS: Readonly<Record<string, Words>> = {
  hostname: { label: "Server name", help: "Shown in the server browser.", section: "server" },
  description: { label: "Description", help: "Shown with the server in the browser.", section: "server" },
  password: { label: "Join password", section: "server" },
  passwordAdmin: { label: "Admin password", help: "Typed in the game's chat to become an admin.", section: "server" },
  maxPlayers: { label: "Maximum players", section: "server" },
  instanceId: { label: "Instance id", help: "Names this server's persistence folder.", section: "server" },
  shardId: { label: "Shard id", help: "The private hive's id.", section: "server" },
  steamQueryPort: { label: "Steam query port", section: "server" },
  enableWhitelist: { label: "Only whitelisted players may join", help: "Players in whitelist.txt.", section: "joining" },
  disableBanlist: { label: "Ignore the ban list", help: "ban.txt is not read.", section: "joining" },
  disablePrioritylist: { label: "Ignore the priority list", help: "priority.txt is not read.", section: "joining" },
  verifySignatures: {
    label: "Signature checks",
    help: "Checks the mods' files against their signatures.",
    section: "joining",
    choices: { 0: "0: off", 1: "1: old signatures too", 2: "2: full (the only one DayZ supports)" }
  },
  forceSameBuild: { label: "Players need the server's game build", section: "joining" },
  maxPing: { label: "Highest ping allowed (ms)", section: "joining" },
  loginQueueConcurrentPlayers: { label: "Players let in at once", help: "From the login queue.", section: "joining" },
  loginQueueMaxPlayers: { label: "Login queue length", section: "joining" },
  guaranteedUpdates: { label: "Network protocol", help: "DayZ takes only 1.", section: "joining", choices: { 1: "1" } },
  disable3rdPerson: { label: "No third-person view", section: "gameplay" },
  disableCrosshair: { label: "No crosshair", section: "gameplay" },
  disablePersonalLight: { label: "No personal light", section: "gameplay" },
  lightingConfig: { label: "Night lighting", section: "gameplay", choices: { 0: "Brighter nights", 1: "Darker nights" } },
  respawnTime: { label: "Respawn time (seconds)", section: "gameplay" },
  enableDebugMonitor: { label: "Show the debug monitor", section: "gameplay" },
  disableVoN: { label: "No voice chat", section: "gameplay" },
  vonCodecQuality: { label: "Voice quality", help: "Higher is better.", section: "gameplay" },
  serverTime: { label: "Start time", section: "time" },
  serverTimeAcceleration: { label: "Day time speed", help: "Times faster than real time.", section: "time" },
  serverNightTimeAcceleration: { label: "Night time speed", help: "Multiplies the day time speed at night.", section: "time" },
  serverTimePersistent: { label: "Keep the time across restarts", section: "time" },
  motd: { label: "Messages", help: "One message per line, shown in turn in the chat.", section: "messages" },
  motdInterval: { label: "Seconds between messages", section: "messages" },
  storageAutoFix: { label: "Replace damaged persistence files", section: "storage" },
  template: { label: "Mission", section: "storage" }
}

export interface FieldSpec extends KnownKey {
  readonly label: string
  /** What it does and what it takes, in words (the range and the pattern from the contract). */
  readonly help: string
  readonly section: SectionId
  readonly choices?: Readonly<Record<number, string>>
}

const rangeOf = (key: KnownKey): string | undefined => {
  if (key.kind !== "int" && key.kind !== "number") return undefined
  if (key.min === undefined || key.max === undefined) return undefined
  return `${key.kind === "int" ? "A whole number" : "A number"} from ${key.min} to ${key.max}.`
}

const specOf = (key: KnownKey): FieldSpec => {
  const words = WORDS[key.key]
  const rule = key.pattern === undefined ? rangeOf(key) : `${key.pattern.means[0]!.toUpperCase()}${key.pattern.means.slice(1)}.`
  const help = [words?.help, words?.choices === undefined ? rule : undefined].filter((part) => part !== undefined).join(" ")
  return { ...key, label: words?.label ?? key.key, help, section: words?.section ?? "other", ...(words?.choices === undefined ? {} : { choices: words.choices }) }
}

/** Every setting the contract knows, in its order. */
export const FIELDS: ReadonlyArray<FieldSpec> = KNOWN_KEYS.map(specOf)

export const fieldOf = (key: string): FieldSpec | undefined => FIELDS.find((field) => field.key === key)

/** The DOM id of a setting's input (the error summary links to it). */
export const inputId = (key: string): string => `config-field-${key}`
