/** Request and response shapes of the servers API. */
import * as Schema from "effect/Schema"
import { LaunchArgument, LaunchPath, ModName, pageParams, PageWithTotal, SECRET_MASK, StoredText, TrimmedStoredText } from "@garrison/runtime"

/** What every view shows instead of an RCON password or agent key: the runtime's one mask. */
export const PASSWORD_MASK = SECRET_MASK

export const ServerId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))
export const ServerPath = Schema.Struct({ id: ServerId })

const Name = TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(100))
const Port = Schema.Int.pipe(Schema.between(1, 65535))
const Wait = Schema.Int.pipe(Schema.between(0, 600_000))
const List = <A, I>(item: Schema.Schema<A, I>) => Schema.Array(item).pipe(Schema.maxItems(200))

/** RCON settings as a client sends them: anything left out is read from the BattlEye config. */
export const RconInput = Schema.Struct({
  protocol: Schema.optional(Schema.Literal("battleye", "source")),
  host: Schema.optional(StoredText.pipe(Schema.minLength(1), Schema.maxLength(255))),
  port: Schema.optional(Port),
  /** Omitted or the mask: keep the stored one (or read it from the BattlEye config). */
  password: Schema.optional(StoredText.pipe(Schema.maxLength(256)))
})
export type RconInput = typeof RconInput.Type

/** An agent's base URL: http or https, a host, no credentials in it (the key goes in `apiKey`). */
export const AgentUrl = StoredText.pipe(
  Schema.maxLength(2048),
  Schema.filter((text) => {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return "must be an absolute http(s) URL such as http://127.0.0.1:9100"
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://"
    if (url.username !== "" || url.password !== "") return "must not carry a user or password: give the key as apiKey"
    if (url.search !== "" || url.hash !== "") return "must not have a query or fragment"
    return true
  })
)

/** The agent as a client sends it: `apiKey` omitted or the mask keeps the stored one. */
export const AgentInput = Schema.Struct({
  url: Schema.optional(AgentUrl),
  apiKey: Schema.optional(StoredText.pipe(Schema.maxLength(512)))
})
export type AgentInput = typeof AgentInput.Type

export const StopInput = Schema.Struct({
  shutdownWaitMs: Schema.optional(Wait),
  terminateWaitMs: Schema.optional(Wait)
})

/** Every launch parameter is checked by the runtime's launch rules (`LaunchParameters`), as the launcher checks them again. */
const entryFields = {
  executable: Schema.optional(LaunchPath),
  configFile: Schema.optional(LaunchPath),
  gamePort: Schema.optional(Port),
  profilesDir: Schema.optional(LaunchPath),
  battleyeDir: Schema.optional(LaunchPath),
  mods: Schema.optional(List(ModName)),
  serverMods: Schema.optional(List(ModName)),
  /** `-name` or `-name=value` each; not `-config`, `-port`, `-profiles`, `-BEpath`, `-mod`, `-serverMod` (set from their fields). */
  extraArgs: Schema.optional(List(LaunchArgument)),
  watchdog: Schema.optional(Schema.Boolean),
  stop: Schema.optional(StopInput)
}

export const CreateServerBody = Schema.Struct({
  name: Name,
  installDir: LaunchPath,
  ...entryFields,
  rcon: Schema.optional(RconInput),
  /** The agent beside the game server, for in-game admin actions. */
  agent: Schema.optional(AgentInput)
})
export type CreateServerBody = typeof CreateServerBody.Type

export const UpdateServerBody = Schema.Struct({
  name: Schema.optional(Name),
  installDir: Schema.optional(LaunchPath),
  ...entryFields,
  /** null removes the RCON settings. */
  rcon: Schema.optional(Schema.NullOr(RconInput)),
  /** null removes the agent. */
  agent: Schema.optional(Schema.NullOr(AgentInput))
})
export type UpdateServerBody = typeof UpdateServerBody.Type

export const DetectBody = Schema.Struct({ installDir: LaunchPath })

export const RconView = Schema.Struct({
  protocol: Schema.Literal("battleye", "source"),
  host: Schema.String,
  port: Schema.Int,
  /** Always the mask (or "" when no password is set). */
  password: Schema.String
})

export const StopView = Schema.Struct({ shutdownWaitMs: Schema.Int, terminateWaitMs: Schema.Int })

export const AgentView = Schema.Struct({
  url: Schema.String,
  /** Always the mask (or "" when no key is set). */
  apiKey: Schema.String
})

export const EntryView = Schema.Struct({
  name: Schema.String,
  installDir: Schema.String,
  executable: Schema.String,
  configFile: Schema.String,
  gamePort: Schema.Int,
  profilesDir: Schema.String,
  battleyeDir: Schema.String,
  mods: Schema.Array(Schema.String),
  serverMods: Schema.Array(Schema.String),
  extraArgs: Schema.Array(Schema.String),
  rcon: Schema.NullOr(RconView),
  agent: Schema.NullOr(AgentView),
  watchdog: Schema.Boolean,
  stop: StopView
})

export const PlayerView = Schema.Struct({
  /** BattlEye's player number: what `kick` takes. */
  slot: Schema.Int,
  name: Schema.String,
  guid: Schema.String,
  verified: Schema.Boolean,
  ip: Schema.String,
  port: Schema.Int,
  ping: Schema.Int,
  inLobby: Schema.Boolean,
  /**
   * The player's Steam64 when the server's RPT log names it and it hashes to
   * the player's BattlEye GUID; null while unknown.
   */
  steam64: Schema.NullOr(Schema.String),
  /** The 44-character DayZ ID of the admin log (from the Steam64, or the ADM log by name); null while unknown. */
  dayzId: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Player" })

export const ServerStatusValue = Schema.Literal("stopped", "starting", "running", "stopping", "crashed", "updating")

/** The long operation a server is in (a restart with its retries, an update), or null. */
export const OperationView = Schema.Struct({
  kind: Schema.Literal("restart", "update", "mod-rollout", "restore", "wipe", "replicate"),
  /** When it began (ISO 8601). */
  startedAt: Schema.String,
  /** 0 to 1; null while it cannot tell. */
  progress: Schema.NullOr(Schema.Number),
  /** What it is doing now, as a person reads it ("attempt 2 of 3: starting"). */
  message: Schema.String
}).annotations({ identifier: "ServerOperation" })
export type OperationView = typeof OperationView.Type

export const LiveStatus = Schema.Struct({
  status: ServerStatusValue,
  pid: Schema.NullOr(Schema.Int),
  playerCount: Schema.Int,
  players: Schema.Array(PlayerView),
  /** Seconds since the process started. */
  uptime: Schema.Int,
  /** Percent of one core. */
  cpu: Schema.NullOr(Schema.Number),
  /** Resident memory, bytes. */
  ram: Schema.NullOr(Schema.Number),
  map: Schema.NullOr(Schema.String),
  version: Schema.NullOr(Schema.String),
  locked: Schema.Boolean,
  /** The RCON session: connected, reconnecting, closed; null when none is open. */
  rconStatus: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  consecutiveCrashes: Schema.Int,
  /** The long operation running now; a stop cancels it. */
  operation: Schema.NullOr(OperationView)
})

export const ServerStatusView = Schema.Struct({ id: Schema.String, name: Schema.String, ...LiveStatus.fields }).annotations({
  identifier: "ServerStatus"
})
export type ServerStatusView = typeof ServerStatusView.Type

/** An entry with its live status (`status` is the process state; the live facts sit beside it). */
export const ServerView = Schema.Struct({
  id: Schema.String,
  ...EntryView.fields,
  ...LiveStatus.fields
}).annotations({ identifier: "Server" })
export type ServerView = typeof ServerView.Type

/**
 * One row of `GET /api/servers`: what a server list shows (name, port, state,
 * players, CPU/RAM, map). The entry's settings and the player roster are in
 * `GET /api/servers/:id` and `/status`; leaving them out keeps a 1,000-server
 * list small enough to poll.
 */
/**
 * A list row's status: the process state, or `invalid` for a stored entry
 * that cannot be read (its reason in `lastError`; fix it by restoring a
 * backup, or delete it).
 */
export const ServerListStatus = Schema.Literal(...ServerStatusValue.literals, "invalid")

export const ServerSummaryView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  gamePort: Schema.Int,
  status: ServerListStatus,
  ...LiveStatus.pick(
    "pid",
    "playerCount",
    "uptime",
    "cpu",
    "ram",
    "map",
    "version",
    "locked",
    "rconStatus",
    "lastError",
    "consecutiveCrashes",
    "operation"
  ).fields
}).annotations({ identifier: "ServerSummary" })
export type ServerSummaryView = typeof ServerSummaryView.Type

/**
 * `limit` of `GET /api/servers`: a panel gets every server in one page (the
 * default is also the maximum, the most entries a servers backup holds);
 * `cursor` pages through larger fleets.
 */
export const SERVER_PAGE = { defaultLimit: 10_000, maxLimit: 10_000 } as const
export const ServerListParams = Schema.Struct(pageParams(SERVER_PAGE))

/** In creation order; `total` counts every entry. */
export const ServerList = PageWithTotal(ServerSummaryView).annotations({ identifier: "ServerPage" })

export const DetectedServer = Schema.Struct({
  /** A proposed `POST /api/servers` body (password masked; leave it out to read it again on create). */
  entry: Schema.Struct({ ...EntryView.fields }),
  found: Schema.Struct({
    executable: Schema.Boolean,
    configFile: Schema.Boolean,
    battleyeConfig: Schema.NullOr(Schema.String)
  }),
  /** The entry that already has this folder (creating another would be refused with 409), or null. */
  inUseBy: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  /** What would stop or trouble an entry made from this proposal, in words. */
  warnings: Schema.Array(Schema.String)
})

export const BatchBody = Schema.Struct({
  action: Schema.Literal("start", "stop", "restart"),
  ids: Schema.Array(ServerId).pipe(Schema.minItems(1), Schema.maxItems(1000))
})

export const BatchResult = Schema.Struct({
  id: Schema.String,
  ok: Schema.Boolean,
  /** The HTTP status the single-server route would have answered. */
  status: Schema.Int,
  error: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String)
}).annotations({ identifier: "BatchResult" })

export const BatchReply = Schema.Struct({ results: Schema.Array(BatchResult) })

