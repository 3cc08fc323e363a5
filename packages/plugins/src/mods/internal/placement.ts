/**
 * Putting a mod on a server, replacing it, taking it off: the copy
 * (`folders.ts`) while the server's files are held, the row, the launch
 * lists, the audit row and the event. Separate from the jobs and rollouts
 * that call it: they decide when; this is what a change to the files is.
 * `by` is who asked (id and name: a job records after its request), or the
 * scheduler for a scheduled rollout's installs.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { actedByName, type ActedBy, type AuditActor, auditActorFields, type AuditTrailShape, type EventBus } from "@garrison/runtime"
import type { WorkshopItem } from "../../platform/index.js"
import type { Mod, ModType } from "../contract/Api.js"
import { ModConflict } from "../errors.js"
import { ModInstalled, ModRemoved, ModUpdated } from "../events.js"
import { placeMod, removeMod } from "./folders.js"
import { modFolderName, parseMetaCpp } from "./metaCpp.js"
import type { Serialized, ServerMods } from "./serverMods.js"
import type { ModStore } from "./store.js"

export interface PlacementDeps {
  readonly store: ModStore
  readonly audit: AuditTrailShape
  readonly bus: Context.Tag.Service<typeof EventBus>
  readonly serialized: Serialized
  readonly iso: Effect.Effect<string>
  readonly serverMods: ServerMods
}

export const makePlacement = ({ store, audit, bus, serialized, iso, serverMods }: PlacementDeps) => {
  const { find, syncLaunch, withIdleFiles } = serverMods

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
    by: ActedBy,
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
          yield* audit.record({ ...auditActorFields(by), ip: null, action: "mods.install", target: serverId, result: "success", details: { workshopId: mod.workshopId, name: mod.name } })
          yield* bus.publish(new ModInstalled({ serverId, workshopId: mod.workshopId, name: mod.name, title: mod.title, by: actedByName(by) }))
          return mod
        })
      )
    })

  /** An update's last step: the downloaded version swapped in for `mod` on the (stopped) server, recorded. */
  const placeUpdate = (
    serverId: string,
    mod: Mod,
    downloaded: { readonly folder: string; readonly downloadedAt: string },
    details: Option.Option<WorkshopItem>,
    by: AuditActor
  ) =>
    serialized(
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
        yield* audit.record({ ...auditActorFields(by), ip: null, action: "mods.update", target: serverId, result: "success", details: { workshopId: after.workshopId, name: after.name } })
        yield* bus.publish(new ModUpdated({ serverId, workshopId: after.workshopId, name: after.name, workshopUpdatedAt, by: by.name }))
        return after
      }))
    )

  const uninstall = (serverId: string, workshopId: string, by: AuditActor) =>
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
          yield* audit.record({ ...auditActorFields(by), ip: null, action: "mods.uninstall", target: serverId, result: "success", details: { workshopId: mod.workshopId, name: mod.name } })
          yield* bus.publish(new ModRemoved({ serverId, workshopId: mod.workshopId, name: mod.name, by: by.name }))
          return mod
        }))
      })
    )

  return { placeNew, placeUpdate, uninstall }
}

export type Placement = ReturnType<typeof makePlacement>
