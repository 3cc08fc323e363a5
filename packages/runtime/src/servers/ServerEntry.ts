/**
 * A server entry: everything Garrison needs to launch, reach and watch one
 * game server. Stored by the servers plugin; the actors only read it.
 */
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"

export const RconSettings = Schema.Struct({
  protocol: Schema.Literal("battleye", "source"),
  host: Schema.String,
  port: Schema.Int.pipe(Schema.between(1, 65535)),
  password: Schema.String
})
export type RconSettings = typeof RconSettings.Type

/**
 * The agent beside the game server (the in-house provider of admin actions):
 * its base URL and the key it takes (`SIDECAR_API_KEY` on the agent).
 */
export const AgentSettings = Schema.Struct({
  url: Schema.String,
  apiKey: Schema.String
})
export type AgentSettings = typeof AgentSettings.Type

/** Waits of the stop escalation: RCON `#shutdown`, then SIGTERM, then SIGKILL. */
export const StopPolicy = Schema.Struct({
  shutdownWaitMs: Schema.Int.pipe(Schema.between(0, 600_000)),
  terminateWaitMs: Schema.Int.pipe(Schema.between(0, 600_000))
})
export type StopPolicy = typeof StopPolicy.Type

export class ServerEntry extends Schema.Class<ServerEntry>("ServerEntry")({
  id: Schema.String,
  name: Schema.String,
  installDir: Schema.String,
  /** The game server binary inside `installDir`. */
  executable: Schema.String,
  configFile: Schema.String,
  gamePort: Schema.Int.pipe(Schema.between(1, 65535)),
  profilesDir: Schema.String,
  battleyeDir: Schema.String,
  /** Client mods (`-mod=`), in load order. */
  mods: Schema.Array(Schema.String),
  /** Server-side mods (`-serverMod=`), in load order. */
  serverMods: Schema.Array(Schema.String),
  /** Further launch flags, e.g. `-cpuCount=4`, `-limitFPS=60`. */
  extraArgs: Schema.Array(Schema.String),
  rcon: Schema.optional(RconSettings),
  /** The agent that runs in-game admin actions for this server; none: RCON only. */
  agent: Schema.optional(AgentSettings),
  /** Restart the server when it crashes. */
  watchdog: Schema.Boolean,
  stop: StopPolicy
}) {}

export const defaultStopPolicy: StopPolicy = { shutdownWaitMs: 30_000, terminateWaitMs: 15_000 }

/** What a stock DayZ install uses for every field an entry leaves out (the Linux binary name). */
export const serverEntryDefaults = {
  executable: "DayZServer",
  configFile: "serverDZ.cfg",
  gamePort: 2302,
  profilesDir: "profiles",
  battleyeDir: "battleye",
  mods: [],
  serverMods: [],
  extraArgs: [],
  watchdog: true,
  stop: defaultStopPolicy
} as const satisfies Partial<ServerEntry>

/** An entry from its id, name and install folder, with `serverEntryDefaults` for the rest. */
export const makeServerEntry = (
  fields: Pick<ServerEntry, "id" | "name" | "installDir"> & Partial<Omit<ServerEntry, "id" | "name" | "installDir">>
): ServerEntry => new ServerEntry({ ...serverEntryDefaults, ...fields })

/** The command line, as DayZ expects it (mods separated by `;`). */
export const launchArguments = (entry: ServerEntry): ReadonlyArray<string> => [
  `-config=${entry.configFile}`,
  `-port=${entry.gamePort}`,
  `-profiles=${entry.profilesDir}`,
  `-BEpath=${entry.battleyeDir}`,
  ...(entry.mods.length > 0 ? [`-mod=${entry.mods.join(";")}`] : []),
  ...(entry.serverMods.length > 0 ? [`-serverMod=${entry.serverMods.join(";")}`] : []),
  "-dologs",
  "-adminlog",
  ...entry.extraArgs
]

export const executablePath = (entry: ServerEntry): string => NodePath.resolve(entry.installDir, entry.executable)

/** The profiles folder (logs, mod folders), resolved against the install folder. */
export const profilesPath = (entry: ServerEntry): string => NodePath.resolve(entry.installDir, entry.profilesDir)
