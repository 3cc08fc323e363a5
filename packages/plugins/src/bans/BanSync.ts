/**
 * `BanSync`: the active bans in every server's `<installDir>/ban.txt`, the
 * owner's lines kept (see internal/banFile.ts). The file is one registration
 * with the runtime's `ServerFileSync`, which writes it (through each
 * server's `ServerFiles`: confined, atomic, only when the bytes change)
 * before each start, at controller start, after changes (debounced) and
 * when the next ban expires. The block is rendered once per sync and merged
 * into each server's file.
 */
import { GeneratedFile, ServerFileSync } from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodePath from "node:path"
import { Bans } from "./Bans.js"
import { banFileIdFormConfig } from "./config.js"
import { BanFileError, type BanStoreError } from "./errors.js"
import { type BanFileIdForm, type EncodedBlock, encodeBlock, mergeBlockBytes, renderBlock } from "./internal/banFile.js"

export const BAN_FILE = "ban.txt"

export interface SyncReport {
  /** Install folders written (entries sharing an install share one file). */
  readonly servers: number
  /** Install folders whose file could not be written, with why. */
  readonly failed: ReadonlyArray<{ readonly installDir: string; readonly message: string }>
  readonly bans: number
}

export interface BanSyncShape {
  /** One server's file, now (what the start hook does). */
  readonly syncServer: (installDir: string) => Effect.Effect<void, BanFileError | BanStoreError>
  /** Every server's file, now; a server that fails is reported, not fatal. */
  readonly syncAll: Effect.Effect<SyncReport, BanStoreError>
  /** Writes `block` into the files of these folders (the benchmark times this). */
  readonly writeAll: (installDirs: ReadonlyArray<string>, block: EncodedBlock) => Effect.Effect<SyncReport>
  /** The block for the bans in force now. */
  readonly currentBlock: Effect.Effect<{ readonly block: EncodedBlock; readonly count: number }, BanStoreError>
  readonly idForm: BanFileIdForm
}

export interface BanSyncOptions {
  /** How long to gather changes before one sync. Default 200 ms. */
  readonly debounce?: Duration.DurationInput
}

/** The block merged into whatever each file holds (a file that cannot be read is not replaced: the owner's lines are in it). */
const mergedInto = (block: EncodedBlock, count: number) =>
  GeneratedFile.merged((existing) => mergeBlockBytes(Buffer.from(existing.buffer, existing.byteOffset, existing.byteLength), block), count)

const toReport = (report: GeneratedFile.SyncReport): SyncReport => ({
  servers: report.folders,
  failed: report.failed,
  bans: report.entries ?? 0
})

export class BanSync extends Context.Tag("@garrison/plugins/BanSync")<BanSync, BanSyncShape>() {
  static readonly make = (options: BanSyncOptions = {}) =>
    Effect.gen(function* () {
      const bans = yield* Bans
      const fileSync = yield* ServerFileSync
      const idForm = yield* banFileIdFormConfig

      const blockAt = (now: number) =>
        Effect.map(bans.activeIds(now), (ids) => ({ block: encodeBlock(renderBlock(ids, idForm)), count: ids.length }))

      const file = yield* fileSync.register({
        path: BAN_FILE,
        owner: "bans",
        render: (now) => Effect.map(blockAt(now), ({ block, count }) => mergedInto(block, count)),
        changed: bans.changed,
        nextChange: bans.nextExpiry,
        debounce: options.debounce ?? Duration.millis(200)
      })

      return BanSync.of({
        syncServer: (installDir) =>
          file.writeFolder(installDir).pipe(
            Effect.catchTag("ServerFileSyncError", (e) =>
              Effect.fail(new BanFileError({ path: NodePath.join(installDir, BAN_FILE), message: e.message }))
            )
          ),
        syncAll: Effect.map(file.syncAll, toReport),
        writeAll: (installDirs, block) => Effect.map(file.writeAll(installDirs, mergedInto(block, 0)), toReport),
        currentBlock: Effect.flatMap(Clock.currentTimeMillis, blockAt),
        idForm
      })
    })

  /** Needs `Bans`, the kernel's `Clock` and the servers plugin's `ServerFileSync`; its registration lasts as long as the layer. */
  static readonly layer = (options?: BanSyncOptions) => Layer.scoped(BanSync, BanSync.make(options))
}
