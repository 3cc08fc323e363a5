/** Entries and actor state as the API shows them: the RCON password never leaves. */
import { type OnlinePlayer, type ServerEntry, type ServerState, uptimeSeconds } from "@garrison/runtime"
import { type OperationView, PASSWORD_MASK, type ServerStatusView, type ServerSummaryView, type ServerView } from "../contract/fields.js"
import type { UnreadableEntry } from "../ServerEntries.js"

export const maskPassword = (password: string): string => (password.length > 0 ? PASSWORD_MASK : "")

export const entryView = (entry: ServerEntry) => ({
  name: entry.name,
  installDir: entry.installDir,
  executable: entry.executable,
  configFile: entry.configFile,
  gamePort: entry.gamePort,
  profilesDir: entry.profilesDir,
  battleyeDir: entry.battleyeDir,
  mods: entry.mods,
  serverMods: entry.serverMods,
  extraArgs: entry.extraArgs,
  rcon: entry.rcon === undefined ? null : { ...entry.rcon, password: maskPassword(entry.rcon.password) },
  agent: entry.agent === undefined ? null : { url: entry.agent.url, apiKey: maskPassword(entry.agent.apiKey) },
  watchdog: entry.watchdog,
  stop: entry.stop
})

/** The live facts a list row shows: everything but the player roster. */
const liveFacts = (state: ServerState, now: number) => ({
  status: state.status,
  pid: state.pid ?? null,
  playerCount: state.players.length,
  uptime: uptimeSeconds(state, now),
  cpu: state.cpu ?? null,
  ram: state.memoryBytes ?? null,
  map: state.map ?? null,
  version: state.version ?? null,
  locked: state.locked,
  rconStatus: state.rcon?.status ?? null,
  lastError: state.lastError ?? null,
  consecutiveCrashes: state.consecutiveCrashes,
  operation: operationView(state)
})

const operationView = ({ operation }: ServerState): OperationView | null =>
  operation === undefined
    ? null
    : {
        kind: operation.kind,
        startedAt: new Date(operation.startedAt).toISOString(),
        progress: operation.progress ?? null,
        message: operation.message
      }

/** One online player as the API shows them: the RCON parser's record and the ids the logs prove, field by field. */
export const playerView = (p: OnlinePlayer) => ({
  slot: p.slot,
  name: p.name,
  guid: p.guid,
  verified: p.verified,
  ip: p.ip,
  port: p.port,
  ping: p.ping,
  inLobby: p.inLobby,
  steam64: p.steam64,
  dayzId: p.dayzId
})

export const liveStatus = (state: ServerState, now: number) => ({
  ...liveFacts(state, now),
  players: state.players.map(playerView)
})

export const serverView = (entry: ServerEntry, state: ServerState, now: number): ServerView => ({
  id: entry.id,
  ...entryView(entry),
  ...liveStatus(state, now)
})

export const statusView = (entry: ServerEntry, state: ServerState, now: number): ServerStatusView => ({
  id: entry.id,
  name: entry.name,
  ...liveStatus(state, now)
})

export const summaryView = (entry: ServerEntry, state: ServerState, now: number): ServerSummaryView => ({
  id: entry.id,
  name: entry.name,
  gamePort: entry.gamePort,
  ...liveFacts(state, now)
})

/** The list row of a stored entry that cannot be read: nothing runs for it; `lastError` says why. */
export const unreadableView = (entry: UnreadableEntry): ServerSummaryView => ({
  id: entry.id,
  name: entry.name,
  gamePort: entry.gamePort,
  status: "invalid",
  pid: null,
  playerCount: 0,
  uptime: 0,
  cpu: null,
  ram: null,
  map: null,
  version: null,
  locked: false,
  rconStatus: null,
  lastError: `cannot be read: ${entry.reason}`,
  consecutiveCrashes: 0,
  operation: null
})
