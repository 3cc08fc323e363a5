/**
 * The changes that answer at once and touch no files: enabling, pinning,
 * load order, a mod's type (each followed by the launch lists), and the
 * pending updates `check-updates` records. Separate from the jobs and the
 * rollout steps, which change what is on the server.
 */
import * as Effect from "effect/Effect"
import type { WorkshopShape } from "../../platform/index.js"
import { type ModPatch, type ModType, UpdateCheck } from "../contract/Api.js"
import { InvalidModRequest } from "../errors.js"
import { listOf } from "./launch.js"
import type { Serialized, ServerMods } from "./serverMods.js"
import type { ModStore } from "./store.js"

export interface SettingsDeps {
  readonly store: ModStore
  readonly workshop: WorkshopShape
  readonly serialized: Serialized
  readonly iso: Effect.Effect<string>
  readonly serverMods: ServerMods
}

export const makeSettings = ({ store, workshop, serialized, iso, serverMods }: SettingsDeps) => {
  const { find, modsOf, syncLaunch } = serverMods

  const patch = (serverId: string, workshopId: string, patch: ModPatch) =>
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
    )

  const setType = (serverId: string, name: string, type: ModType) =>
    serialized(
      Effect.gen(function* () {
        const mod = yield* find(serverId, name)
        yield* store.patch(serverId, mod.workshopId, { type })
        yield* syncLaunch(serverId)
        return yield* find(serverId, mod.workshopId)
      })
    )

  const reorder = (serverId: string, order: ReadonlyArray<string>) =>
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
    )

  const checkUpdates = (serverId: string) =>
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
    })

  const clearPending = (serverId: string, workshopId: string) =>
    Effect.flatMap(find(serverId, workshopId), (mod) => Effect.flatMap(iso, (at) => store.setPending(serverId, mod.workshopId, null, at)))

  return { patch, setType, reorder, checkUpdates, clearPending }
}
