/**
 * What a rollout does with mods, step by step: stage (download, the server
 * untouched), apply (copy onto the server it stopped, keeping the replaced
 * versions) and revert (put them back, take new installs off). Separate
 * because a rollout drives each step inside its own operation on the server.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { actedByName, type ActedBy, auditActorFields, type AuditTrailShape, type EventBus, ServerFiles, type ServerNotFound, type ServerUnreadable } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import type { WorkshopItem } from "../../platform/index.js"
import type { ModType } from "../contract/Api.js"
import { ModConflict, type ModStoreError } from "../errors.js"
import { ModUpdated } from "../events.js"
import { type AppliedMod, isDue, type StagedInstall, type StagedMod } from "../model.js"
import type { Downloads } from "./download.js"
import { placeMod, removeMod, restorePrevious } from "./folders.js"
import type { InstallJobs } from "./installJobs.js"
import type { Placement } from "./placement.js"
import type { Serialized, ServerMods } from "./serverMods.js"
import type { ModStore } from "./store.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface StagingDeps {
  readonly servers: ServersShape
  readonly store: ModStore
  readonly audit: AuditTrailShape
  readonly bus: Context.Tag.Service<typeof EventBus>
  readonly serialized: Serialized
  readonly downloads: Downloads
  readonly serverMods: ServerMods
  readonly placement: Placement
  readonly checkInstallable: InstallJobs["checkInstallable"]
}

export const makeStaging = ({ servers, store, audit, bus, serialized, downloads, serverMods, placement, checkInstallable }: StagingDeps) => {
  const { detailsFor, stagedDownload } = downloads
  const { find, modsOf, syncLaunch } = serverMods
  const { placeNew } = placement

  const due = (serverId: string) => Effect.map(modsOf(serverId), (mods) => mods.filter(isDue))

  const stage = (serverId: string, workshopIds: ReadonlyArray<string>, progress: (message: string) => Effect.Effect<void>) =>
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
    )

  const apply = (serverId: string, staged: ReadonlyArray<StagedMod>, by: ActedBy) =>
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
          yield* audit.record({ ...auditActorFields(by), ip: null, action: "mods.update", target: serverId, result: "success", details: { workshopId: before.workshopId, name: before.name, rollout: true } })
          yield* bus.publish(new ModUpdated({ serverId, workshopId: before.workshopId, name: before.name, workshopUpdatedAt: item.workshopUpdatedAt, by: actedByName(by) }))
        }
        return applied
      })
    )

  const stageInstalls = (
    serverId: string,
    inputs: ReadonlyArray<{ readonly workshopId: string; readonly name?: string | undefined; readonly type: ModType }>,
    progress: (message: string) => Effect.Effect<void>
  ) =>
    Effect.forEach(inputs, (input) =>
      Effect.gen(function* () {
        const details = yield* checkInstallable(serverId, input.workshopId)
        yield* progress(`downloading ${Option.getOrUndefined(details)?.title ?? input.workshopId} (new)`)
        const downloaded = yield* stagedDownload(input.workshopId, details, input.workshopId, progress)
        return { input, downloaded, details } satisfies StagedInstall
      })
    )

  const applyInstall = (serverId: string, staged: StagedInstall, by: ActedBy) =>
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
    )

  const revert = (serverId: string, applied: ReadonlyArray<AppliedMod>) =>
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

  return { due, stage, apply, stageInstalls, applyInstall, revert }
}
