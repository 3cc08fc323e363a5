/**
 * The chat-bot's actions, as the conventions' table gives them: the
 * permission each needs, and its kind, which sets its per-user cooldown
 * (queries 3 s, admin actions 10 s, start/stop/restart 30 s).
 */
export type ActionKind = "query" | "admin" | "power"

export interface ChatAction {
  readonly name: string
  readonly permission: string
  readonly kind: ActionKind
  /**
   * What it changes is every server's (the global ban list, the priority queue): a grant scoped to
   * the server named in the call does not count, as `/api/bans` and `/api/priority-queue` refuse it.
   */
  readonly global: boolean
}

/** Actions whose effect reaches every server. */
const GLOBAL_ACTIONS: ReadonlySet<string> = new Set(["banWhitelist", "priorityQueue"])

const table: ReadonlyArray<readonly [permission: string, kind: ActionKind, names: ReadonlyArray<string>]> = [
  ["server.view", "query", ["status", "servers", "timeWeather"]],
  ["players.view", "query", ["players", "playerInfo", "watchList"]],
  ["mods.view", "query", ["mods", "modStatus"]],
  ["logs.view", "query", ["chatFeed", "killfeed"]],
  ["metrics.view", "query", ["leaderboard"]],
  ["bans.manage", "admin", ["banWhitelist"]],
  ["priority.manage", "admin", ["priorityQueue"]],
  ["server.start", "power", ["start"]],
  ["server.stop", "power", ["stop"]],
  ["server.restart", "power", ["restart"]],
  [
    "server.rcon",
    "admin",
    [
      "lock",
      "unlock",
      "rcon",
      "message",
      "actionHeal",
      "actionKill",
      "actionTeleport",
      "actionSpawnItem",
      "actionUnstuck",
      "actionFreeze",
      "actionStrip",
      "actionExplode",
      "actionMessage"
    ]
  ],
  ["players.kick", "admin", ["kick"]],
  ["mods.install", "admin", ["modInstall", "modUninstall", "modEnable", "modDisable"]]
]

/** Every action by name. */
export const CHAT_ACTIONS: ReadonlyMap<string, ChatAction> = new Map(
  table.flatMap(([permission, kind, names]) => names.map((name): [string, ChatAction] => [name, { name, permission, kind, global: GLOBAL_ACTIONS.has(name) }]))
)

/** The cooldown of each kind, per chat user and action (ms). */
export const COOLDOWN_MS: Readonly<Record<ActionKind, number>> = { query: 3_000, admin: 10_000, power: 30_000 }

/** The known action names, sorted, for a refusal that lists them. */
export const knownActions = (): ReadonlyArray<string> => [...CHAT_ACTIONS.keys()].sort()
