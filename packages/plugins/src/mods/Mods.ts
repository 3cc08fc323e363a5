/**
 * `Mods`: each server's workshop mods. Installing downloads the item once
 * into the shared cache (`DATA_DIR/steam`, through `PlatformSettings`, one
 * SteamCMD at a time), then copies it onto the server (`internal/folders`)
 * and records it; the server entry's `mods`/`serverMods` (the `-mod=` and
 * `-serverMod=` launch parameters) follow every change, so the next start
 * loads them. Installs and updates run as jobs beside the request (their
 * progress in `jobs`); every other change answers at once.
 *
 * Files of a running server are never changed: installs, updates and
 * uninstalls are refused (409) while it runs.
 *
 * The parts live in `internal/`, each built once here with what it needs:
 * `serverMods` (lookups, launch lists, the guards on a server's files),
 * `download` (Steam's details, the cache download), `placement` (a mod put
 * on, replaced, taken off), `installJobs`, `settings`, `staging` (a
 * rollout's steps) and `cacheUsage`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import { type ActedBy, type AuditActor, AuditTrail, EventBus, type ServerNotFound, type ServerUnreadable } from "@garrison/runtime"
import { PlatformSettings, Workshop, type WorkshopUnavailable } from "../platform/index.js"
import { Servers } from "../servers/index.js"
import type { InstallInput, Mod, ModList, ModPatch, ModType, UpdateCheck, ModJob } from "./contract/Api.js"
import type { InvalidModRequest, ModConflict, ModNotFound, ModStoreError } from "./errors.js"
import { makeCacheUsage } from "./internal/cacheUsage.js"
import { makeDownloads } from "./internal/download.js"
import { makeInstallJobs } from "./internal/installJobs.js"
import { makeJobs } from "./internal/jobs.js"
import { listOf } from "./internal/launch.js"
import { makePlacement } from "./internal/placement.js"
import { makeServerMods } from "./internal/serverMods.js"
import { makeSettings } from "./internal/settings.js"
import { makeStaging } from "./internal/staging.js"
import { makeModStore } from "./internal/store.js"
import type { AppliedMod, StagedInstall, StagedMod } from "./model.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface ModsShape {
  readonly list: (serverId: string) => Effect.Effect<ModList, Lookup | ModStoreError>
  /** Starts an install job; refused before it starts when the server runs or has the mod. */
  readonly install: (serverId: string, input: InstallInput, by: AuditActor) => Effect.Effect<ModJob, Lookup | ModStoreError | ModConflict | InvalidModRequest>
  readonly uninstall: (serverId: string, workshopId: string, by: AuditActor) => Effect.Effect<Mod, Lookup | ModStoreError | ModConflict | ModNotFound>
  readonly patch: (serverId: string, workshopId: string, patch: ModPatch) => Effect.Effect<Mod, Lookup | ModStoreError | ModNotFound>
  /** `mod` is the folder (`@CF`, any case) or the workshop id. */
  readonly setType: (serverId: string, mod: string, type: ModType) => Effect.Effect<Mod, Lookup | ModStoreError | ModNotFound>
  readonly reorder: (serverId: string, order: ReadonlyArray<string>) => Effect.Effect<ModList, Lookup | ModStoreError | InvalidModRequest>
  readonly checkUpdates: (serverId: string) => Effect.Effect<UpdateCheck, Lookup | ModStoreError | WorkshopUnavailable>
  readonly update: (serverId: string, workshopId: string, by: AuditActor) => Effect.Effect<ModJob, Lookup | ModStoreError | ModConflict | ModNotFound>
  /** One job per mod with a pending update that is not pinned. */
  readonly updateAll: (serverId: string, by: AuditActor) => Effect.Effect<ReadonlyArray<ModJob>, Lookup | ModStoreError | ModConflict>
  readonly clearPending: (serverId: string, workshopId: string) => Effect.Effect<void, Lookup | ModStoreError | ModNotFound>
  readonly jobs: Effect.Effect<ReadonlyArray<ModJob>>
  /** The jobs now, then at every change until none runs. */
  readonly followJobs: Stream.Stream<ReadonlyArray<ModJob>>
  /** The job once it has ended. */
  readonly awaitJob: (jobId: string) => Effect.Effect<ModJob>
  readonly cacheStats: Effect.Effect<{ folder: string; items: number; totalBytes: number; unusedItems: number; unusedBytes: number }, ModStoreError>
  readonly cacheClean: Effect.Effect<{ removed: ReadonlyArray<string>; freedBytes: number }, ModStoreError | ModConflict>
  /** What a rollout or update-all updates now: pending, not pinned, and not the version a rollout rolled back. */
  readonly due: (serverId: string) => Effect.Effect<ReadonlyArray<Mod>, Lookup | ModStoreError>
  /** Downloads the newest version of each into the cache; the server is not touched. */
  readonly stage: (
    serverId: string,
    workshopIds: ReadonlyArray<string>,
    progress: (message: string) => Effect.Effect<void>
  ) => Effect.Effect<ReadonlyArray<StagedMod>, Lookup | ModStoreError | ModNotFound | ModConflict>
  /** Copies staged versions onto the server (the caller has stopped it), keeping each version replaced for `revert`. */
  readonly apply: (serverId: string, staged: ReadonlyArray<StagedMod>, by: ActedBy) => Effect.Effect<ReadonlyArray<AppliedMod>, Lookup | ModStoreError | ModNotFound | ModConflict>
  /** Checks and downloads mods a rollout installs (409 installed already, 400 unknown to the workshop). */
  readonly stageInstalls: (
    serverId: string,
    inputs: ReadonlyArray<{ readonly workshopId: string; readonly name?: string | undefined; readonly type: ModType }>,
    progress: (message: string) => Effect.Effect<void>
  ) => Effect.Effect<ReadonlyArray<StagedInstall>, Lookup | ModStoreError | ModConflict | InvalidModRequest>
  /** Puts a staged install on the (stopped) server. */
  readonly applyInstall: (serverId: string, staged: StagedInstall, by: ActedBy) => Effect.Effect<AppliedMod, Lookup | ModStoreError | ModConflict>
  /** Puts the replaced versions back and takes installed mods off again (a rollback); holds the versions rolled back. */
  readonly revert: (serverId: string, applied: ReadonlyArray<AppliedMod>) => Effect.Effect<void, ModStoreError | ModConflict>
  /** Forgets a deleted server's mods (its files went with it, or stay for its owner). */
  readonly forgetServer: (serverId: string) => Effect.Effect<void, ModStoreError>
}

export class Mods extends Context.Tag("@garrison/plugins/Mods")<Mods, ModsShape>() {
  static readonly layer = Layer.scoped(
    Mods,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = makeModStore(sql)
      const servers = yield* Servers
      const platform = yield* PlatformSettings
      const workshop = yield* Workshop
      const bus = yield* EventBus
      const audit = yield* AuditTrail
      const jobs = yield* makeJobs(sql)
      const scope = yield* Effect.scope
      // Changes to one server's mods and entry are made one at a time.
      const changes = yield* Effect.makeSemaphore(1)
      const serialized = changes.withPermits(1)
      const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      const serverMods = makeServerMods({ servers, store })
      const downloads = makeDownloads({ store, platform, workshop, iso })
      const placement = makePlacement({ store, audit, bus, serialized, iso, serverMods })
      const installs = makeInstallJobs({ store, jobs, bus, scope, downloads, serverMods, placement })
      const settings = makeSettings({ store, workshop, serialized, iso, serverMods })
      const staging = makeStaging({ servers, store, audit, bus, serialized, downloads, serverMods, placement, checkInstallable: installs.checkInstallable })
      const cache = makeCacheUsage({ store, jobs, platform, serialized })

      return Mods.of({
        list: (serverId) => Effect.map(serverMods.modsOf(serverId), listOf),
        install: installs.install,
        uninstall: placement.uninstall,
        patch: settings.patch,
        setType: settings.setType,
        reorder: settings.reorder,
        checkUpdates: settings.checkUpdates,
        update: installs.update,
        updateAll: installs.updateAll,
        clearPending: settings.clearPending,
        jobs: jobs.list,
        followJobs: jobs.follow,
        awaitJob: jobs.awaitEnd,
        cacheStats: cache.cacheStats,
        cacheClean: cache.cacheClean,
        forgetServer: (serverId) => store.removeServer(serverId),
        due: staging.due,
        stage: staging.stage,
        apply: staging.apply,
        stageInstalls: staging.stageInstalls,
        applyInstall: staging.applyInstall,
        revert: staging.revert
      })
    })
  )
}
