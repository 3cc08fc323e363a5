/**
 * What an actor knows about its server at a moment: the state machine's
 * status plus the live facts the status endpoints show.
 */
import type { RconConnectionState } from "../rcon/RconClient.js"
import type { OnlinePlayer } from "../game/Players.js"
import type { OperationKind, ServerOperation } from "./actor/operation.js"

export type ServerStatus = "stopped" | "starting" | "running" | "stopping" | "crashed" | "updating"

export interface ServerState {
  readonly serverId: string
  readonly status: ServerStatus
  readonly pid: number | undefined
  /** `Clock` milliseconds when the current process started. */
  readonly startedAt: number | undefined
  /** From the last `players` reply, with the ids the logs prove. */
  readonly players: ReadonlyArray<OnlinePlayer>
  /** Percent of one core, from the last sample. */
  readonly cpu: number | undefined
  /** Resident memory in bytes, from the last sample. */
  readonly memoryBytes: number | undefined
  readonly map: string | undefined
  readonly version: string | undefined
  readonly locked: boolean
  /** The RCON session; `closed` once the server stopped or crashed; undefined for an entry without RCON that never had a session. */
  readonly rcon: RconConnectionState | undefined
  /** Why the last start, stop, RCON session or sample failed. */
  readonly lastError: string | undefined
  /** Crashes since the server last ran long enough to count as healthy. */
  readonly consecutiveCrashes: number
  /** The long operation running now (a restart with retries, an update), if any. */
  readonly operation: ServerOperation | undefined
  /** What holds the server's files while it is stopped (a mod install), if anything: starts wait for it to end. */
  readonly filesHeld: string | undefined
}

export const initialState = (serverId: string): ServerState => ({
  serverId,
  status: "stopped",
  pid: undefined,
  startedAt: undefined,
  players: [],
  cpu: undefined,
  memoryBytes: undefined,
  map: undefined,
  version: undefined,
  locked: false,
  rcon: undefined,
  lastError: undefined,
  consecutiveCrashes: 0,
  operation: undefined,
  filesHeld: undefined
})

/** The uptime to show, in whole seconds. */
export const uptimeSeconds = (state: ServerState, now: number): number =>
  state.status === "running" && state.startedAt !== undefined ? Math.max(0, Math.floor((now - state.startedAt) / 1000)) : 0

/** Whether the server's process exists, or is being made or ended: its files are open. */
export const processUp = (state: ServerState): boolean => state.status === "starting" || state.status === "running" || state.status === "stopping"

/**
 * The one busy rule for changing a server's files (mods, restores, wipes,
 * replicates, game updates): why they may not be changed now ("it is
 * running", "its restart is under way"), or undefined when they may. Busy
 * while its process is up, while an update writes them, and while a long
 * operation or a files hold (`ServerActor.holdFiles`) holds the server;
 * `within`: the caller is that operation's own work (a rollout installing
 * its mods), which its own hold does not stop. This reads a moment's
 * state, for a message; the actor makes the same decision again, under its
 * lock, when the work takes its hold.
 */
export const filesBusy = (state: ServerState, within?: OperationKind): string | undefined =>
  processUp(state) || state.status === "updating"
    ? `it is ${state.status}`
    : state.operation !== undefined && state.operation.kind !== within
      ? `its ${state.operation.kind} is under way`
      : state.filesHeld !== undefined
        ? `its ${state.filesHeld} is under way`
        : undefined
