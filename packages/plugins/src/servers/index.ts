/**
 * Servers: stored server entries, one supervised actor per entry (real
 * processes, reattached after a controller restart), the spec's Servers
 * routes and the `servers` config backup. Other plugins find a server
 * through `Servers` (a handle: entry, actor, state, `GameControl`), never
 * through the runtime's `Supervisor` directly.
 */
import type * as ConfigError from "effect/ConfigError"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuditTrail, type EventBus, type Hooks, Plugin, ProcessLauncher, ProcessRecords, type ServerEntry, Supervisor } from "@garrison/runtime"
import { actorOptionsConfig } from "./config.js"
import { ServersApi } from "./contract/Api.js"
import { serverFileSyncHook, serverFileSyncLayer } from "./fileSync.js"
import { installKey } from "./internal/installFolder.js"
import { migrations } from "./migrations.js"
import { ServersBackupRoutes } from "./routes/backup.js"
import { ServersRoutes } from "./routes/servers.js"
import { SERVER_EVENTS } from "./published.js"
import { ServerEntries } from "./ServerEntries.js"
import { Servers } from "./Servers.js"
import { SqlProcessRecords } from "./SqlProcessRecords.js"
import { SERVER_PERMISSIONS } from "./contract/permissions.js"

export interface ServersPluginOptions {
  /** How processes are started; tests pass a fake. Default: real, detached processes. */
  readonly launcher?: Layer.Layer<ProcessLauncher, ConfigError.ConfigError>
}

const supervisorLayer = (launcher: Layer.Layer<ProcessLauncher, ConfigError.ConfigError>) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const options = yield* actorOptionsConfig
      const entries = yield* ServerEntries
      // Actors of stopped servers are created on demand.
      return Supervisor.layer(options, (serverId) => Effect.option(entries.get(serverId)))
    })
  ).pipe(Layer.provideMerge(Layer.merge(launcher, SqlProcessRecords))) satisfies Layer.Layer<
    Supervisor | ProcessRecords,
    unknown,
    SqlClient.SqlClient | EventBus | Hooks | ServerEntries
  >

/** An actor for every stored entry: this is where running servers are reattached. */
const ensureActors = Effect.gen(function* () {
  const entries = yield* ServerEntries
  const supervisor = yield* Supervisor
  const records = yield* ProcessRecords
  const stored = yield* entries.list
  // Only servers that were running need an actor now (to reattach or to notice they died);
  // the rest get one when first asked for.
  const wereRunning = yield* records.serverIds
  yield* Effect.forEach(
    stored.filter((entry) => wereRunning.has(entry.id)),
    (entry) => supervisor.ensure(entry).pipe(Effect.catchAll((e) => Effect.logWarning(`server ${entry.name}: ${e.message}`))),
    { discard: true }
  )
  if (stored.length > 0) yield* Effect.logInfo(`servers: ${stored.length} entries supervised`)
  yield* warnSharedFolders(stored)
  yield* Effect.addFinalizer(() => sayWhatKeepsRunning)
})

/**
 * One line at shutdown: game servers outlive the controller by design (a
 * controller restart must not kick every player), and the next start
 * adopts them again by process id and start token.
 */
const sayWhatKeepsRunning = Effect.gen(function* () {
  const running = yield* Effect.flatMap(ProcessRecords, (records) => records.serverIds)
  if (running.size === 0) return yield* Effect.logInfo("stopping: no game server is running")
  const names = (yield* Effect.flatMap(ServerEntries, (entries) => entries.list))
    .filter((entry) => running.has(entry.id))
    .map((entry) => `"${entry.name}"`)
  const shown = names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ")
  yield* Effect.logInfo(`stopping: ${running.size} game server(s) keep running (${shown}); the next start adopts them again`)
}).pipe(Effect.catchAllCause(() => Effect.logInfo("stopping: game servers keep running; the next start adopts them again")))

/** Entries stored before the one-entry-per-folder rule may share one: say so once at start, naming both. */
const warnSharedFolders = (stored: ReadonlyArray<ServerEntry>) =>
  Effect.suspend(() => {
    const firstByFolder = new Map<string, ServerEntry>()
    const warnings: Array<string> = []
    for (const entry of stored) {
      const key = installKey(entry.installDir)
      const first = firstByFolder.get(key)
      if (first === undefined) firstByFolder.set(key, entry)
      else {
        warnings.push(
          `servers: "${entry.name}" (${entry.id}) and "${first.name}" (${first.id}) share the install folder ${entry.installDir}; ` +
            "they will fight over its files: move one (PATCH installDir) or delete it"
        )
      }
    }
    return Effect.forEach(warnings, (warning) => Effect.logWarning(warning), { discard: true })
  })

export const makeServersPlugin = (options: ServersPluginOptions = {}) =>
  Plugin.make({
    id: "servers",
    permissions: SERVER_PERMISSIONS,
    // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
    requires: [AuditTrail],
    description: "Server entries, process lifecycle, live status",
    migrations,
    layer: Servers.layer.pipe(
      Layer.provideMerge(Layer.merge(supervisorLayer(options.launcher ?? ProcessLauncher.node), serverFileSyncLayer)),
      Layer.provideMerge(ServerEntries.layer)
    ),
    http: Plugin.http(ServersApi, Layer.merge(ServersRoutes, ServersBackupRoutes)),
    // Generated files (ban.txt, priority.txt, ...) are written before every start and restart; a failure refuses the start.
    hooks: [serverFileSyncHook],
    // The actors' events (the runtime's), under their public names: see published.ts.
    publishes: SERVER_EVENTS,
    onStart: ensureActors
  })

export const ServersPlugin = makeServersPlugin()

export { actorOptionsConfig } from "./config.js"
export { SERVER_PERMISSIONS } from "./contract/permissions.js"
export { Servers } from "./Servers.js"
export { ControlProviders } from "./ControlProviders.js"
export type { Availability, ControlProvider, ControlProvidersShape, ProvidedControl } from "./ControlProviders.js"
export type { CompositeControl, ControlRoute } from "./internal/compositeControl.js"
export type { ServerHandle, ServerLookupError, ServersShape } from "./Servers.js"
export { serverFileSyncHook, serverFileSyncLayer } from "./fileSync.js"
export { oneEntryPerInstall, ServerEntries } from "./ServerEntries.js"
export type { ServerEntriesShape } from "./ServerEntries.js"
export { SqlProcessRecords } from "./SqlProcessRecords.js"
export { InstallDirInUse, InvalidServerEntry, ServerStoreError } from "./errors.js"
export { ServersApi, ServersBackup, ServersBackupGroup, ServersGroup, ServersRestored } from "./contract/Api.js"
export {
  OperationView,
  PASSWORD_MASK,
  PlayerView,
  ServerPath,
  ServerStatusView,
  ServerSummaryView,
  ServerView
} from "./contract/fields.js"
export { playerView } from "./internal/view.js"
export { kickEveryone } from "./internal/kickEveryone.js"
export type { KickedEveryone } from "./internal/kickEveryone.js"
export { readBattlEyeRcon } from "./internal/install.js"
export type { BattlEyeRcon } from "./internal/install.js"
export { SERVER_EVENTS } from "./published.js"
