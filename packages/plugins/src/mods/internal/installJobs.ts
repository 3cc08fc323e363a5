/**
 * Installs and updates as jobs beside the request: the checks that refuse
 * one before it starts, then the download and the copy in a fiber of the
 * service's scope, its end on the job (`jobs.ts`). Separate from the copy
 * itself (`placement.ts`), which rollouts run without a job.
 */
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { type AuditActor, errorMessage, type EventBus } from "@garrison/runtime"
import type { WorkshopItem } from "../../platform/index.js"
import type { InstallInput, Mod } from "../contract/Api.js"
import { InvalidModRequest, ModConflict } from "../errors.js"
import { ModJobFailed } from "../events.js"
import { isDue } from "../model.js"
import type { Downloads } from "./download.js"
import type { JobHandle, Jobs } from "./jobs.js"
import type { Placement } from "./placement.js"
import type { ServerMods } from "./serverMods.js"
import type { ModStore } from "./store.js"

export interface InstallJobsDeps {
  readonly store: ModStore
  readonly jobs: Jobs
  readonly bus: Context.Tag.Service<typeof EventBus>
  readonly scope: Scope.Scope
  readonly downloads: Downloads
  readonly serverMods: ServerMods
  readonly placement: Placement
}

export const makeInstallJobs = ({ store, jobs, bus, scope, downloads, serverMods, placement }: InstallJobsDeps) => {
  const { detailsFor, download } = downloads
  const { find, modsOf, refuseWhileBusy } = serverMods
  const { placeNew, placeUpdate } = placement

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

  const install = (serverId: string, input: InstallInput, by: AuditActor) =>
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

  const update = (serverId: string, workshopId: string, by: AuditActor) =>
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
        return yield* placeUpdate(serverId, mod, downloaded, details, by)
      })
      yield* runJob(handle, "update", serverId, mod.workshopId, body)
      return job
    })

  const updateAll = (serverId: string, by: AuditActor) =>
    Effect.gen(function* () {
      yield* refuseWhileBusy(serverId, "update mods")
      const due = (yield* modsOf(serverId)).filter(isDue)
      return yield* Effect.forEach(due, (m) => update(serverId, m.workshopId, by).pipe(Effect.catchTag("ModNotFound", () => Effect.die("vanished"))))
    })

  return { checkInstallable, install, update, updateAll }
}

export type InstallJobs = ReturnType<typeof makeInstallJobs>
