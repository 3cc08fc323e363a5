/**
 * Getting a workshop item's files: what Steam says of it now (`detailsFor`)
 * and the download into the shared cache (one SteamCMD at a time, through
 * `PlatformSettings`) with its progress watch. Separate from the service so
 * an install job and a rollout share one download and report it their way.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Fs from "node:fs"
import { SteamCmd } from "@garrison/runtime"
import { type PlatformSettingsShape, type WorkshopItem, WorkshopItemNotFound, type WorkshopShape } from "../../platform/index.js"
import { ModConflict } from "../errors.js"
import { downloadingFolder, folderBytes, itemFolder } from "./downloadCache.js"
import type { JobHandle } from "./jobs.js"
import type { ModStore } from "./store.js"

export interface DownloadDeps {
  readonly store: ModStore
  readonly platform: PlatformSettingsShape
  readonly workshop: WorkshopShape
  readonly iso: Effect.Effect<string>
}

export const makeDownloads = ({ store, platform, workshop, iso }: DownloadDeps) => {
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

  /** The item as Steam describes it now (a kept answer could hide a newer version); none when Steam cannot say. */
  const detailsFor = (workshopId: string) =>
    workshop.detailsMany([workshopId], { fresh: true }).pipe(
      Effect.flatMap((found) => {
        const item = found.get(workshopId)
        return item === undefined ? Effect.fail(new WorkshopItemNotFound({ workshopId })) : Effect.succeed(Option.some(item))
      }),
      Effect.catchTag("WorkshopUnavailable", (e) => Effect.as(Effect.logWarning(`mods: workshop details of ${workshopId}: ${e.message}`), Option.none<WorkshopItem>()))
    )

  return { download, stagedDownload, detailsFor }
}

export type Downloads = ReturnType<typeof makeDownloads>
