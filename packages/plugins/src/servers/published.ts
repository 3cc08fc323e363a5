/**
 * The server actors' bus events (the runtime's `servers/events.ts`) as the
 * outside sees them: webhooks, the cloud link. The servers plugin runs the
 * actors, so it declares them. `ConsoleLine` (every RCON line) is not
 * published: far too chatty, and a line may carry what an admin typed.
 */
import {
  ChatMessage,
  oneLine,
  PlayerConnected,
  PlayerDisconnected,
  published,
  ServerCrashed,
  ServerWiped,
  ServerDeleted,
  ServerLocked,
  ServerRestarted,
  ServerStarted,
  ServerStarting,
  ServerStopped,
  ServerUnlocked
} from "@garrison/runtime"

/** Free text (a crash reason, a chat line) inside a one-line summary. */
const line = (text: string) => oneLine(text, 300)

const server = { serverId: "a1b2c3", name: "Main" }

const STOPPED_HOW = { rcon: "shut down over RCON", sigterm: "stopped with SIGTERM", sigkill: "killed with SIGKILL", exited: "exited" } as const

const RESTARTED_BY = { manual: "by an admin", schedule: "on schedule", watchdog: "by the watchdog" } as const

const crashOutcome = (event: ServerCrashed) =>
  event.watchdog === "restarting"
    ? event.restartInMs === null
      ? "restarting"
      : `restarting in ${Math.round(event.restartInMs / 1000)} s`
    : event.watchdog === "off"
      ? "the watchdog is off"
      : event.watchdog === "operation"
        ? `the ${event.operation === "mod-rollout" ? "rollout" : (event.operation ?? "operation")} running on it handles it`
        : `gave up after ${event.consecutiveCrashes} crashes in a row`

export const SERVER_EVENTS = [
  published(ServerStarting, {
    name: "server.starting",
    description: "A game server is being started (its process is about to be launched).",
    example: new ServerStarting(server),
    summary: (e) => `Server ${e.name} is starting`
  }),
  published(ServerStarted, {
    name: "server.started",
    description:
      "A game server's process is up; `reattached` is true when the controller adopted an already running server after its own restart.",
    example: new ServerStarted({ ...server, pid: 4242, reattached: false }),
    severity: (e) => (e.reattached ? "info" : "success"),
    severities: ["info", "success"],
    summary: (e) => (e.reattached ? `Server ${e.name} adopted again after a controller restart (pid ${e.pid})` : `Server ${e.name} started (pid ${e.pid})`)
  }),
  published(ServerStopped, {
    name: "server.stopped",
    description: "A game server was stopped on request; `how` says how its process ended (rcon, sigterm, sigkill or exited).",
    example: new ServerStopped({ ...server, how: "rcon" }),
    summary: (e) => `Server ${e.name} stopped (${STOPPED_HOW[e.how]})`
  }),
  published(ServerCrashed, {
    name: "server.crashed",
    description: "A game server's process ended without being asked to; `watchdog` says whether it will be restarted (restarting, off, gave-up), or `operation` when the operation running on it (`operation`: a mod rollout) handles the crash instead.",
    example: new ServerCrashed({
      ...server,
      exitCode: 1,
      signal: null,
      reason: "exited with code 1",
      consecutiveCrashes: 1,
      watchdog: "restarting",
      restartInMs: 5000
    }),
    severity: "error",
    summary: (e) => `Server ${e.name} crashed (${line(e.reason)}); ${crashOutcome(e)}`
  }),
  published(ServerRestarted, {
    name: "server.restarted",
    description: "A restart ended (manual, scheduled or by the watchdog after a crash); `ok` is false when the server did not come back.",
    example: new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "manual" }),
    severity: (e) => (e.ok ? "success" : "error"),
    severities: ["success", "error"],
    summary: (e) =>
      e.ok
        ? `Server ${e.name} restarted ${RESTARTED_BY[e.reason]}${e.crash === undefined ? "" : ` after: ${line(e.crash)}`}`
        : `Server ${e.name} could not be restarted ${RESTARTED_BY[e.reason]} (${e.attempts} attempt${e.attempts === 1 ? "" : "s"}): ${line(e.error ?? "unknown error")}`
  }),
  published(ServerDeleted, {
    name: "server.deleted",
    description: "A server entry was deleted from the controller (its files stay on disk).",
    example: new ServerDeleted(server),
    summary: (e) => `Server entry ${e.name} was deleted`
  }),
  published(ServerWiped, {
    name: "server.wiped",
    description: "A game server's persistence was wiped (the dangerzone's wipe, after its pre-wipe backup): a new season begins.",
    example: new ServerWiped({ ...server, preset: "full" }),
    severity: "warning",
    summary: (e) => `Server ${e.name} wiped (${e.preset})`
  }),
  published(ServerLocked, {
    name: "server.locked",
    description: "A game server was locked over RCON: no new player may join.",
    example: new ServerLocked(server),
    summary: (e) => `Server ${e.name} locked: no new player may join`
  }),
  published(ServerUnlocked, {
    name: "server.unlocked",
    description: "A game server was unlocked over RCON: players may join again.",
    example: new ServerUnlocked(server),
    summary: (e) => `Server ${e.name} unlocked`
  }),
  published(PlayerConnected, {
    name: "player.joined",
    description: "A player connected to a game server (BattlEye's RCON message); the player's IP address is left out.",
    example: new PlayerConnected({ ...server, slot: 3, playerName: "Bravo17", ip: "203.0.113.7" }),
    summary: (e) => `${line(e.playerName)} joined ${e.name}`,
    // The player's IP address stays with the controller: a webhook often ends in a community's chat channel.
    data: ({ serverId, name, slot, playerName }) => ({ serverId, name, slot, playerName })
  }),
  published(PlayerDisconnected, {
    name: "player.left",
    description: "A player disconnected from a game server.",
    example: new PlayerDisconnected({ ...server, slot: 3, playerName: "Bravo17" }),
    summary: (e) => `${line(e.playerName)} left ${e.name}`
  }),
  published(ChatMessage, {
    name: "player.chat",
    description: "A player said something in the game's chat (Global, Side, Direct, ...), for relays to a chat platform.",
    example: new ChatMessage({ ...server, channel: "Global", playerName: "Bravo17", text: "anyone near Elektro?" }),
    summary: (e) => `[${e.name}] (${e.channel}) ${line(e.playerName)}: ${line(e.text)}`
  })
]
