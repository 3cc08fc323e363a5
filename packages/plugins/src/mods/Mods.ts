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
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import type * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  ActorError,
  AuditTrail,
  errorMessage,
  EventBus,
  ServerFiles,
  type ServerNotFound,
  type ServerUnreadable,
  SteamCmd
} from "@garrison/runtime"
import { PlatformSettings, Workshop, type WorkshopItem, WorkshopItemNotFound, type WorkshopUnavailable } from "../platform/index.js"
import { type ServerHandle, Servers } from "../servers/index.js"
import { type InstallInput, type Mod, ModList, type ModPatch, type ModType, UpdateCheck, type ModJob } from "./contract/Api.js"
import { InvalidModRequest, ModConflict, ModNotFound, type ModStoreError } from "./errors.js"
import { ModInstalled, ModJobFailed, ModRemoved, ModUpdated } from "./events.js"
import { placeMod, removeMod, restorePrevious } from "./internal/folders.js"
import { type JobHandle, makeJobs } from "./internal/jobs.js"
import { parseMetaCpp, modFolderName } from "./internal/metaCpp.js"
import { downloadingFolder, folderBytes, itemFolder } from "./internal/downloadCache.js"
import { listOf, withLaunch } from "./internal/launch.js"
import { makeModStore } from "./internal/store.js"
import { type AppliedMod, isDue, type StagedInstall, type StagedMod } from "./model.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface ModsShape {
  readonly list: (serverId: string) => Effect.Effect<ModList, Lookup | ModStoreError>
  /** Starts an install job; refused before it starts when the server runs or has the mod. */
  readonly install: (serverId: string, input: InstallInput, by: string) => Effect.Effect<ModJob, Lookup | ModStoreError | ModConflict | InvalidModRequest>
  readonly uninstall: (serverId: string, workshopId: string, by: string) => Effect.Effect<Mod, Lookup | ModStoreError | ModConflict | ModNotFound>
  readonly patch: (serverId: string, workshopId: string, patch: ModPatch) => Effect.Effect<Mod, Lookup | ModStoreError | ModNotFound>
  /** `mod` is the folder (`@CF`, any case) or the workshop id. */
  readonly setType: (serverId: string, mod: string, type: ModType) => Effect.Effect<Mod, Lookup | ModStoreError | ModNotFound>
  readonly reorder: (serverId: string, order: ReadonlyArray<string>) => Effect.Effect<ModList, Lookup | ModStoreError | InvalidModRequest>
  readonly checkUpdates: (serverId: string) => Effect.Effect<UpdateCheck, Lookup | ModStoreError | WorkshopUnavailable>
  readonly update: (serverId: string, workshopId: string, by: string) => Effect.Effect<ModJob, Lookup | ModStoreError | ModConflict | ModNotFound>
  /** One job per mod with a pending update that is not pinned. */
  readonly updateAll: (serverId: string, by: string) => Effect.Effect<ReadonlyArray<ModJob>, Lookup | ModStoreError | ModConflict>
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
  readonly apply: (serverId: string, staged: ReadonlyArray<StagedMod>, by: string) => Effect.Effect<ReadonlyArray<AppliedMod>, Lookup | ModStoreError | ModNotFound | ModConflict>
  /** Checks and downloads mods a rollout installs (409 installed already, 400 unknown to the workshop). */
  readonly stageInstalls: (
    serverId: string,
    inputs: ReadonlyArray<{ readonly workshopId: string; readonly name?: string | undefined; readonly type: ModType }>,
    progress: (message: string) => Effect.Effect<void>
  ) => Effect.Effect<ReadonlyArray<StagedInstall>, Lookup | ModStoreError | ModConflict | InvalidModRequest>
  /** Puts a staged install on the (stopped) server. */
  readonly applyInstall: (serverId: string, staged: StagedInstall, by: string) => Effect.Effect<AppliedMod, Lookup | ModStoreError | ModConflict>
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

      const modsOf = (serverId: string) => Effect.zipRight(servers.entry(serverId), store.list(serverId))
      const find = (serverId: string, mod: string) =>
        Effect.flatMap(modsOf(serverId), (mods) => {
          const found = mods.find((m) => m.workshopId === mod || m.name.toLowerCase() === mod.toLowerCase())
          return found === undefined ? Effect.fail(new ModNotFound({ serverId, mod })) : Effect.succeed(found)
        })

      /** The entry's launch lists from the installed mods (`internal/launch`); `gone` are folders of mods just removed. */
      const syncLaunch = (serverId: string, gone: ReadonlyArray<string> = []) =>
        Effect.gen(function* () {
          const installed = yield* store.list(serverId)
          // The launch lists name folders inside the install: no folder or port moves, so no conflict can arise.
          yield* servers.update(serverId, (current) => Effect.succeed(withLaunch(current, installed, gone)), { actor: null, reason: "mods" }).pipe(
            Effect.catchTags({
              InstallDirInUse: Effect.die,
              InstallDirReserved: Effect.die,
              PortsInUse: Effect.die,
              // Deleted meanwhile: it has no launch lists left to follow its mods.
              ServerNotFound: () => Effect.void,
              ServerUnreadable: () => Effect.void
            })
          )
        })

      /** 409 at once when the server's files may not change now: the check before a job begins (the work itself holds them). */
      const refuseWhileBusy = (serverId: string, what: string) =>
        Effect.gen(function* () {
          const busy = yield* servers.busy(serverId)
          if (busy !== undefined) return yield* new ModConflict({ message: `cannot ${what} while server ${serverId} is busy (${busy}): stop it first` })
        })

      /** Runs `work` on the server's files while the actor holds them for it (no start meanwhile); `within`: a rollout's own work. */
      const withIdleFiles = <A, E, R>(serverId: string, what: string, work: (handle: ServerHandle) => Effect.Effect<A, E, R>, within?: "mod-rollout") =>
        servers.whileIdle(serverId, "mod change", work, within === undefined ? undefined : { within }).pipe(
          Effect.catchIf(
            (error): error is ActorError => error instanceof ActorError,
            (refused) => Effect.fail(new ModConflict({ message: `cannot ${what} on server ${serverId}: ${refused.message}` }))
          )
        )

      /** Downloads the item into the cache unless it holds that version already; reports progress to the job. */
      const download = (workshopId: string, details: WorkshopItem | undefined, job: Pick<JobHandle, "progress">) =>
        Effect.gen(function* () {
          const cached = yield* store.cached(workshopId)
          const folder = itemFolder(platform.downloadDir, workshopId)
          const fresh =
            cached !== undefined &&
            Fs.existsSync(folder) &&
            (details?.timeUpdated === null || details === undefined || (cached.workshopUpdatedAt !== null && cached.workshopUpdatedAt >= details.timeUpdated))
          if (fresh) {
            yield* job.progress({ state: "installing", percent: 90, message: "in the download cache already" })
            return { folder, downloadedAt: cached.downloadedAt }
          }
          const total = details?.sizeBytes ?? null
          yield* job.progress({ state: "downloading", totalBytes: total, message: `downloading item ${workshopId}` })
          // SteamCMD prints nothing while it downloads an item: the size of its download folder is the progress.
          const watch = yield* Effect.fork(
            Effect.repeat(
              Effect.suspend(() => {
                const bytes = folderBytes(downloadingFolder(platform.downloadDir, workshopId))
                return job.progress({ bytes, percent: total !== null && total > 0 ? Math.min(89, Math.floor((bytes / total) * 89)) : 0 })
              }),
              Schedule.spaced("250 millis")
            )
          )
          const report = yield* platform
            .steamCmd(
              { steps: [{ _tag: "WorkshopDownload", appId: SteamCmd.DAYZ_GAME_APP, itemId: workshopId, validate: true }] },
              { onLine: (_line, text) => job.progress({ message: text.trim().slice(0, 500) }) }
            )
            .pipe(Effect.ensuring(Fiber.interrupt(watch)))
          const outcome = report.steps[0]
          if (outcome === undefined || !outcome.ok) {
            const why = outcome?.failure
            return yield* Effect.fail(
              why?.kind === "not-found"
                ? `workshop item ${workshopId} was not found (unknown, removed or hidden)`
                : why?.kind === "timeout"
                  ? `SteamCMD timed out downloading item ${workshopId}: try again`
                  : why?.kind === "disk-full"
                    ? `not enough disk space to download item ${workshopId}`
                    : `SteamCMD could not download item ${workshopId}: ${why?.reason ?? report.lastLine}`
            )
          }
          const downloadedAt = yield* iso
          yield* store.putCached({
            workshopId,
            title: details?.title ?? workshopId,
            sizeBytes: outcome.bytes ?? folderBytes(folder),
            downloadedAt,
            workshopUpdatedAt: details?.timeUpdated ?? null
          })
          return { folder: outcome.path !== undefined && Fs.existsSync(outcome.path) ? outcome.path : folder, downloadedAt }
        })

      /**
       * A download for a rollout: progress as lines of the rollout's status
       * (`label: ...`), and what stops it (SteamCMD missing, no account, a
       * failed item) a `ModConflict` that refuses the rollout, saying why.
       */
      const stagedDownload = (workshopId: string, details: Option.Option<WorkshopItem>, label: string, progress: (message: string) => Effect.Effect<void>) =>
        download(workshopId, Option.getOrUndefined(details), {
          progress: (fields) => (fields.message === undefined ? Effect.void : progress(`${label}: ${fields.message}`))
        }).pipe(
          Effect.mapError((error) =>
            typeof error === "string" ? new ModConflict({ message: error }) : error._tag === "ModStoreError" ? error : new ModConflict({ message: error.message })
          )
        )

      /** What a failure of a job's step says (SteamCMD's error, a refused path, a store error). */

      const runJob = (job: JobHandle, kind: "install" | "update", serverId: string, workshopId: string, body: Effect.Effect<Mod, unknown>) =>
        Effect.forkIn(
          body.pipe(
            Effect.matchCauseEffect({
              onSuccess: (mod) => job.done(mod, kind === "install" ? `installed as ${mod.name}` : `updated ${mod.name}`),
              onFailure: (cause) => {
                if (Cause.isInterruptedOnly(cause)) return job.interrupted
                const failure = cause._tag === "Fail" ? errorMessage(cause.error) : "internal error"
                return job.failed(failure).pipe(Effect.ensuring(bus.publish(new ModJobFailed({ serverId, workshopId, kind, error: failure }))))
              }
            }),
            // The end is shown and awaited already, only its row is missing: a fault with no request to answer, so logged.
            Effect.catchTag("ModStoreError", (error) => Effect.logError(`mod job ${job.id} ended, but its end was not recorded: ${error.message}`))
          ),
          scope
        )

      /** The item as Steam describes it now (a kept answer could hide a newer version); none when Steam cannot say. */
      const detailsFor = (workshopId: string) =>
        workshop.detailsMany([workshopId], { fresh: true }).pipe(
          Effect.flatMap((found) => {
            const item = found.get(workshopId)
            return item === undefined ? Effect.fail(new WorkshopItemNotFound({ workshopId })) : Effect.succeed(Option.some(item))
          }),
          Effect.catchTag("WorkshopUnavailable", (e) => Effect.as(Effect.logWarning(`mods: workshop details of ${workshopId}: ${e.message}`), Option.none<WorkshopItem>()))
        )

      /**
       * A downloaded item put on the (stopped) server as a new mod: its folder
       * from `meta.cpp` (or the request's `name`), recorded, in the launch
       * parameters. Fails with the reason when the folder is taken.
       */
      const placeNew = (
        serverId: string,
        input: { readonly workshopId: string; readonly name?: string | undefined; readonly type: ModType },
        downloaded: { readonly folder: string; readonly downloadedAt: string },
        details: Option.Option<WorkshopItem>,
        by: string,
        within?: "mod-rollout"
      ) =>
        Effect.gen(function* () {
          const meta = yield* Effect.sync(() => {
            try {
              return parseMetaCpp(Fs.readFileSync(NodePath.join(downloaded.folder, "meta.cpp"), "utf8"))
            } catch {
              return parseMetaCpp("")
            }
          })
          const folder = modFolderName(input.name ?? meta.name ?? Option.getOrUndefined(details)?.title, input.workshopId)
          return yield* serialized(
            Effect.gen(function* () {
              const current = yield* store.list(serverId)
              const holder = current.find((m) => m.name.toLowerCase() === folder.toLowerCase())
              if (holder !== undefined) return yield* Effect.fail(`the folder ${folder} is taken by mod ${holder.workshopId} (${holder.title}): install with another name`)
              const placed = yield* withIdleFiles(serverId, "install mods", (handleNow) => placeMod(handleNow.files, downloaded.folder, folder), within)
              const at = yield* iso
              yield* store.insert({
                serverId,
                workshopId: input.workshopId,
                folder,
                title: Option.getOrUndefined(details)?.title ?? meta.name ?? input.workshopId,
                type: input.type,
                sizeBytes: placed.sizeBytes,
                keys: placed.keys,
                at,
                downloadedAt: downloaded.downloadedAt,
                workshopUpdatedAt: Option.getOrUndefined(details)?.timeUpdated ?? null
              })
              yield* syncLaunch(serverId)
              const mod = (yield* store.list(serverId)).find((m) => m.workshopId === input.workshopId)!
              yield* audit.record({ actor: by, ip: null, action: "mods.install", target: serverId, result: "success", details: { workshopId: mod.workshopId, name: mod.name } })
              yield* bus.publish(new ModInstalled({ serverId, workshopId: mod.workshopId, name: mod.name, title: mod.title, by }))
              return mod
            })
          )
        })

      /** 409 when the mod is installed (or being installed); 400 when the workshop does not know it. */
      const checkInstallable = (serverId: string, workshopId: string) =>
        Effect.gen(function* () {
          const mods = yield* store.list(serverId)
          if (mods.some((m) => m.workshopId === workshopId) || (yield* jobs.active(serverId, workshopId))) {
            return yield* new ModConflict({ message: `mod ${workshopId} is installed on server ${serverId} already (or being installed)` })
          }
          return yield* detailsFor(workshopId).pipe(
            Effect.catchTag("WorkshopItemNotFound", () =>
              Effect.fail(new InvalidModRequest({ field: "workshopId", message: `workshopId: no workshop item ${workshopId} (unknown to Steam, or removed)` }))
            )
          )
        })

      const install: ModsShape["install"] = (serverId, input, by) =>
        Effect.gen(function* () {
          yield* refuseWhileBusy(serverId, "install mods (or install them with a rollout: POST .../rollout with install)")
          const details = yield* checkInstallable(serverId, input.workshopId)
          const { job, handle } = yield* jobs.begin("install", serverId, input.workshopId)
          const body = Effect.gen(function* () {
            const downloaded = yield* download(input.workshopId, Option.getOrUndefined(details), handle)
            yield* handle.progress({ state: "installing", percent: 92, message: "copying to the server" })
            return yield* placeNew(serverId, input, downloaded, details, by)
          })
          yield* runJob(handle, "install", serverId, input.workshopId, body)
          return job
        })

      const update: ModsShape["update"] = (serverId, workshopId, by) =>
        Effect.gen(function* () {
          const mod = yield* find(serverId, workshopId)
          if (mod.pinned) return yield* new ModConflict({ message: `mod ${mod.name} is pinned to its installed version: unpin it first` })
          yield* refuseWhileBusy(serverId, "update mods")
          if (yield* jobs.active(serverId, mod.workshopId)) return yield* new ModConflict({ message: `mod ${mod.name} is being installed or updated already` })
          const details = yield* detailsFor(mod.workshopId).pipe(Effect.catchTag("WorkshopItemNotFound", () => Effect.succeed(Option.none<WorkshopItem>())))
          const { job, handle } = yield* jobs.begin("update", serverId, mod.workshopId)
          const body = Effect.gen(function* () {
            const downloaded = yield* download(mod.workshopId, Option.getOrUndefined(details), handle)
            yield* handle.progress({ state: "installing", percent: 92, message: "copying to the server" })
            return yield* serialized(
              withIdleFiles(serverId, "update mods", (handleNow) => Effect.gen(function* () {
                const before = yield* find(serverId, mod.workshopId)
                const placed = yield* placeMod(handleNow.files, downloaded.folder, before.name)
                // Keys the old version had and the new one has not go, unless another mod uses them.
                const others = (yield* store.list(serverId)).filter((m) => m.workshopId !== mod.workshopId).flatMap((m) => m.keys)
                const stale = before.keys.filter((k) => !placed.keys.includes(k) && !others.includes(k))
                yield* Effect.forEach(stale, (key) => Effect.ignore(handleNow.files.remove(`keys/${key}`)), { discard: true })
                const workshopUpdatedAt = Option.getOrUndefined(details)?.timeUpdated ?? before.workshopUpdatedAt
                yield* store.replaced(serverId, mod.workshopId, {
                  sizeBytes: placed.sizeBytes,
                  keys: placed.keys,
                  title: Option.getOrUndefined(details)?.title ?? before.title,
                  downloadedAt: downloaded.downloadedAt,
                  workshopUpdatedAt
                })
                const after = yield* find(serverId, mod.workshopId)
                yield* audit.record({ actor: by, ip: null, action: "mods.update", target: serverId, result: "success", details: { workshopId: after.workshopId, name: after.name } })
                yield* bus.publish(new ModUpdated({ serverId, workshopId: after.workshopId, name: after.name, workshopUpdatedAt, by }))
                return after
              }))
            )
          })
          yield* runJob(handle, "update", serverId, mod.workshopId, body)
          return job
        })

      return Mods.of({
        list: (serverId) => Effect.map(modsOf(serverId), listOf),
        install,
        uninstall: (serverId, workshopId, by) =>
          serialized(
            Effect.gen(function* () {
              const mod = yield* find(serverId, workshopId)
              return yield* withIdleFiles(serverId, "uninstall mods", (handle) => Effect.gen(function* () {
                const others = (yield* store.list(serverId)).filter((m) => m.workshopId !== mod.workshopId).flatMap((m) => m.keys)
                yield* removeMod(handle.files, mod.name, mod.keys.filter((k) => !others.includes(k))).pipe(
                  Effect.catchAll((e) => Effect.fail(new ModConflict({ message: `cannot remove ${mod.name}: ${e.message}` })))
                )
                yield* store.remove(serverId, mod.workshopId)
                yield* syncLaunch(serverId, [mod.name])
                yield* audit.record({ actor: by, ip: null, action: "mods.uninstall", target: serverId, result: "success", details: { workshopId: mod.workshopId, name: mod.name } })
                yield* bus.publish(new ModRemoved({ serverId, workshopId: mod.workshopId, name: mod.name, by }))
                return mod
              }))
            })
          ),
        patch: (serverId, workshopId, patch) =>
          serialized(
            Effect.gen(function* () {
              const mod = yield* find(serverId, workshopId)
              yield* store.patch(serverId, mod.workshopId, { ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }), ...(patch.pinned === undefined ? {} : { pinned: patch.pinned }) })
              if (patch.loadOrder !== undefined) {
                const order = (yield* store.list(serverId)).map((m) => m.workshopId).filter((id) => id !== mod.workshopId)
                order.splice(Math.min(patch.loadOrder - 1, order.length), 0, mod.workshopId)
                yield* store.setOrder(serverId, order)
              }
              yield* syncLaunch(serverId)
              return yield* find(serverId, mod.workshopId)
            })
          ),
        setType: (serverId, name, type) =>
          serialized(
            Effect.gen(function* () {
              const mod = yield* find(serverId, name)
              yield* store.patch(serverId, mod.workshopId, { type })
              yield* syncLaunch(serverId)
              return yield* find(serverId, mod.workshopId)
            })
          ),
        reorder: (serverId, order) =>
          serialized(
            Effect.gen(function* () {
              const mods = yield* modsOf(serverId)
              const installed = new Set(mods.map((m) => m.workshopId))
              const given = new Set(order)
              const unknown = order.filter((id) => !installed.has(id))
              const missing = mods.filter((m) => !given.has(m.workshopId)).map((m) => m.workshopId)
              if (given.size !== order.length || unknown.length > 0 || missing.length > 0) {
                return yield* new InvalidModRequest({
                  field: "order",
                  message:
                    `order must name every installed mod exactly once` +
                    (unknown.length > 0 ? `; not installed: ${unknown.join(", ")}` : "") +
                    (missing.length > 0 ? `; missing: ${missing.join(", ")}` : "") +
                    (given.size !== order.length ? "; some are named twice" : "")
                })
              }
              yield* store.setOrder(serverId, order)
              yield* syncLaunch(serverId)
              return listOf(yield* store.list(serverId))
            })
          ),
        checkUpdates: (serverId) =>
          Effect.gen(function* () {
            const mods = yield* modsOf(serverId)
            const found = yield* workshop.detailsMany(mods.map((m) => m.workshopId), { fresh: true })
            const at = yield* iso
            const missing: Array<string> = []
            for (const mod of mods) {
              const item = found.get(mod.workshopId)
              if (item === undefined) {
                missing.push(mod.workshopId)
                continue
              }
              // A mod needs an update when its files were downloaded before the item was last updated.
              const newer = item.timeUpdated !== null && item.timeUpdated > (mod.workshopUpdatedAt ?? mod.downloadedAt) ? item.timeUpdated : null
              yield* store.setPending(serverId, mod.workshopId, newer, at)
            }
            const after = yield* store.list(serverId)
            return new UpdateCheck({ checked: mods.length, pending: after.filter((m) => m.pendingUpdate !== null), missing })
          }),
        update,
        updateAll: (serverId, by) =>
          Effect.gen(function* () {
            yield* refuseWhileBusy(serverId, "update mods")
            const due = (yield* modsOf(serverId)).filter(isDue)
            return yield* Effect.forEach(due, (m) => update(serverId, m.workshopId, by).pipe(Effect.catchTag("ModNotFound", () => Effect.die("vanished"))))
          }),
        clearPending: (serverId, workshopId) =>
          Effect.flatMap(find(serverId, workshopId), (mod) => Effect.flatMap(iso, (at) => store.setPending(serverId, mod.workshopId, null, at))),
        jobs: jobs.list,
        followJobs: jobs.follow,
        awaitJob: jobs.awaitEnd,
        cacheStats: Effect.gen(function* () {
          const cached = yield* store.cachedAll
          const used = new Set((yield* store.all).map((row) => row.mod.workshopId))
          const unused = cached.filter((c) => !used.has(c.workshop_id))
          const sum = (rows: ReadonlyArray<{ readonly size_bytes: number }>) => rows.reduce((s, r) => s + Number(r.size_bytes), 0)
          return { folder: platform.downloadDir, items: cached.length, totalBytes: sum(cached), unusedItems: unused.length, unusedBytes: sum(unused) }
        }),
        cacheClean: serialized(
          Effect.gen(function* () {
            const cached = yield* store.cachedAll
            const used = new Set((yield* store.all).map((row) => row.mod.workshopId))
            const running = (yield* jobs.list).filter((j) => j.endedAt === null).map((j) => j.workshopId)
            const removed: Array<string> = []
            let freedBytes = 0
            for (const item of cached) {
              if (used.has(item.workshop_id) || running.includes(item.workshop_id)) continue
              yield* Effect.sync(() => Fs.rmSync(itemFolder(platform.downloadDir, item.workshop_id), { recursive: true, force: true }))
              yield* store.dropCached(item.workshop_id)
              removed.push(item.workshop_id)
              freedBytes += Number(item.size_bytes)
            }
            return { removed, freedBytes }
          })
        ),
        forgetServer: (serverId) => store.removeServer(serverId),
        due: (serverId) => Effect.map(modsOf(serverId), (mods) => mods.filter(isDue)),
        stage: (serverId, workshopIds, progress) =>
          Effect.forEach(workshopIds, (workshopId) =>
            Effect.gen(function* () {
              const mod = yield* find(serverId, workshopId)
              const details = yield* detailsFor(mod.workshopId).pipe(Effect.catchTag("WorkshopItemNotFound", () => Effect.succeed(Option.none<WorkshopItem>())))
              yield* progress(`downloading ${mod.name} (${mod.title})`)
              const downloaded = yield* stagedDownload(mod.workshopId, details, mod.name, progress)
              return {
                workshopId: mod.workshopId,
                folder: downloaded.folder,
                downloadedAt: downloaded.downloadedAt,
                workshopUpdatedAt: Option.getOrUndefined(details)?.timeUpdated ?? mod.pendingUpdate?.workshopUpdatedAt ?? mod.workshopUpdatedAt,
                title: Option.getOrUndefined(details)?.title ?? mod.title
              } satisfies StagedMod
            })
          ),
        apply: (serverId, staged, by) =>
          serialized(
            Effect.gen(function* () {
              const handle = yield* servers.get(serverId)
              const applied: Array<AppliedMod> = []
              for (const item of staged) {
                const before = yield* find(serverId, item.workshopId)
                const placed = yield* placeMod(handle.files, item.folder, before.name, { keepPrevious: true }).pipe(
                  Effect.mapError((e) => new ModConflict({ message: `cannot put the new ${before.name} on the server: ${e.message}` }))
                )
                const others = (yield* store.list(serverId)).filter((m) => m.workshopId !== before.workshopId).flatMap((m) => m.keys)
                yield* Effect.forEach(before.keys.filter((k) => !placed.keys.includes(k) && !others.includes(k)), (key) => Effect.ignore(handle.files.remove(`keys/${key}`)), { discard: true })
                yield* store.replaced(serverId, before.workshopId, { sizeBytes: placed.sizeBytes, keys: placed.keys, title: item.title, downloadedAt: item.downloadedAt, workshopUpdatedAt: item.workshopUpdatedAt })
                applied.push({ _tag: "Updated", staged: item, before, keys: placed.keys })
                yield* audit.record({ actor: by, ip: null, action: "mods.update", target: serverId, result: "success", details: { workshopId: before.workshopId, name: before.name, rollout: true } })
                yield* bus.publish(new ModUpdated({ serverId, workshopId: before.workshopId, name: before.name, workshopUpdatedAt: item.workshopUpdatedAt, by }))
              }
              return applied
            })
          ),
        stageInstalls: (serverId, inputs, progress) =>
          Effect.forEach(inputs, (input) =>
            Effect.gen(function* () {
              const details = yield* checkInstallable(serverId, input.workshopId)
              yield* progress(`downloading ${Option.getOrUndefined(details)?.title ?? input.workshopId} (new)`)
              const downloaded = yield* stagedDownload(input.workshopId, details, input.workshopId, progress)
              return { input, downloaded, details } satisfies StagedInstall
            })
          ),
        applyInstall: (serverId, staged, by) =>
          // Called by a rollout, inside its own operation on the server.
          placeNew(serverId, staged.input, staged.downloaded, staged.details, by, "mod-rollout").pipe(
            Effect.map((mod): AppliedMod => ({ _tag: "Installed", mod })),
            Effect.mapError((error) => {
              if (typeof error === "string") return new ModConflict({ message: error })
              const tag = (error as { readonly _tag?: string })._tag
              return tag === "ModStoreError" || tag === "ServerNotFound" || tag === "ServerUnreadable"
                ? (error as ModStoreError | Lookup)
                : new ModConflict({ message: error.message })
            })
          ),
        revert: (serverId, applied) =>
          serialized(
            Effect.gen(function* () {
              // orDie, an invariant: a rollout reverts a server it holds (its operation keeps a delete out), whose entry it has read already.
              const entry = yield* servers.entry(serverId).pipe(Effect.orDie)
              const files = ServerFiles.local(entry.installDir)
              for (const item of [...applied].reverse()) {
                if (item._tag === "Installed") {
                  // A mod the rollout installed comes off again.
                  const others = (yield* store.list(serverId)).filter((m) => m.workshopId !== item.mod.workshopId).flatMap((m) => m.keys)
                  yield* removeMod(files, item.mod.name, item.mod.keys.filter((k) => !others.includes(k))).pipe(
                    Effect.mapError((e) => new ModConflict({ message: `cannot remove ${item.mod.name}: ${e.message}` }))
                  )
                  yield* store.remove(serverId, item.mod.workshopId)
                  yield* syncLaunch(serverId, [item.mod.name])
                  continue
                }
                const others = (yield* store.list(serverId)).filter((m) => m.workshopId !== item.before.workshopId).flatMap((m) => m.keys)
                yield* Effect.forEach(item.keys.filter((k) => !item.before.keys.includes(k) && !others.includes(k)), (key) => Effect.ignore(files.remove(`keys/${key}`)), { discard: true })
                yield* restorePrevious(files, item.before.name).pipe(
                  Effect.mapError((e) => new ModConflict({ message: `cannot put ${item.before.name} back: ${e.message}` }))
                )
                yield* store.restored(serverId, item.before, item.staged.workshopUpdatedAt)
              }
            })
          )
      })
    })
  )
}
