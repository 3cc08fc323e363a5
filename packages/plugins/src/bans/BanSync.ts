/**
 * `BanSync`: writes the active bans into every server's `<installDir>/ban.txt`
 * (atomically, owner lines kept, see internal/banFile.ts). The block is
 * rendered once per sync and written to all servers concurrently. The
 * worker re-syncs after changes (debounced) and when the next ban expires.
 */
import { AtomicFiles } from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { oneEntryPerInstall, ServerEntries } from "../servers/index.js"
import { Bans } from "./Bans.js"
import { banFileIdFormConfig } from "./config.js"
import { BanFileError, type BanStoreError, storeError } from "./errors.js"
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
  /** One server's file, now (the start hook). */
  readonly syncServer: (installDir: string) => Effect.Effect<void, BanFileError | BanStoreError>
  /** Every server's file, now; a server that fails is reported, not fatal. */
  readonly syncAll: Effect.Effect<SyncReport, BanStoreError>
  /** Writes `block` into the files of these folders (the benchmark times this). */
  readonly writeAll: (installDirs: ReadonlyArray<string>, block: EncodedBlock) => Effect.Effect<SyncReport>
  /** The block for the bans in force now. */
  readonly currentBlock: Effect.Effect<{ readonly block: EncodedBlock; readonly count: number }, BanStoreError>
  /** Runs forever: syncs after changes (debounced) and at each expiry. */
  readonly worker: Effect.Effect<never>
  readonly idForm: BanFileIdForm
}

export interface BanSyncOptions {
  /** How long to gather changes before one sync. Default 200 ms. */
  readonly debounce?: Duration.DurationInput
}

const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/** The file's bytes; a missing file is empty. */
const readText = (path: string) =>
  Effect.tryPromise({ try: () => Fs.readFile(path), catch: (cause) => cause }).pipe(
    Effect.catchAll((cause) =>
      (cause as { code?: unknown } | undefined)?.code === "ENOENT"
        ? Effect.succeed(Buffer.alloc(0))
        : Effect.fail(new BanFileError({ path, message: describe(cause) }))
    )
  )

export class BanSync extends Context.Tag("@garrison/plugins/BanSync")<BanSync, BanSyncShape>() {
  static readonly make = (options: BanSyncOptions = {}) =>
    Effect.gen(function* () {
      const bans = yield* Bans
      const entries = yield* ServerEntries
      const files = yield* AtomicFiles
      const idForm = yield* banFileIdFormConfig
      const debounce = Duration.decode(options.debounce ?? Duration.millis(200))

      const writeOne = (installDir: string, block: EncodedBlock) =>
        Effect.gen(function* () {
          const path = NodePath.join(installDir, BAN_FILE)
          const existing = yield* readText(path)
          const next = mergeBlockBytes(existing, block)
          if (next.equals(existing)) return
          yield* files
            .write(path, next)
            .pipe(Effect.mapError((e) => new BanFileError({ path, message: e.message })))
        })

      const currentBlock = Effect.gen(function* () {
        const ids = yield* bans.activeIds(yield* Clock.currentTimeMillis)
        return { block: encodeBlock(renderBlock(ids, idForm)), count: ids.length }
      })

      const writeAll: BanSyncShape["writeAll"] = (installDirs, block) =>
        Effect.forEach(
          installDirs,
          (installDir) =>
            writeOne(installDir, block).pipe(
              Effect.as(Option.none()),
              Effect.catchAll((e) => Effect.succeed(Option.some({ installDir, message: e.message })))
            ),
          { concurrency: "unbounded" }
        ).pipe(
          Effect.map((results) => ({ servers: installDirs.length, failed: results.flatMap(Option.toArray), bans: 0 }))
        )

      const syncAll = Effect.gen(function* () {
        const list = yield* entries.list.pipe(Effect.mapError(storeError("list servers")))
        const { block, count } = yield* currentBlock
        const report = yield* writeAll(
          oneEntryPerInstall(list).map((entry) => entry.installDir),
          block
        )
        for (const failure of report.failed) {
          yield* Effect.logWarning(`bans: could not write ${BAN_FILE} in ${failure.installDir}: ${failure.message}`)
        }
        return { ...report, bans: count }
      })

      const syncServer: BanSyncShape["syncServer"] = (installDir) =>
        Effect.flatMap(currentBlock, ({ block }) => writeOne(installDir, block))

      const waitForWork = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const next = yield* bans.nextExpiry(now).pipe(Effect.orElseSucceed(() => Option.none<number>()))
        const expiry = Option.match(next, {
          onNone: () => Effect.never,
          onSome: (at) => Effect.sleep(Duration.millis(Math.max(1, at - now)))
        })
        const woke = yield* Effect.raceFirst(Effect.as(expiry, "expiry" as const), Effect.as(bans.changed, "change" as const))
        if (woke === "change" && Duration.toMillis(debounce) > 0) {
          yield* Effect.sleep(debounce)
          yield* bans.drainChanges
        }
      })

      const syncLogged = syncAll.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("bans: sync failed", cause)),
        Effect.asVoid
      )

      const worker = Effect.zipRight(syncLogged, Effect.forever(Effect.zipRight(waitForWork, syncLogged)))

      return BanSync.of({ syncServer, syncAll, writeAll, currentBlock, worker, idForm })
    })

  static readonly layer = (options?: BanSyncOptions) => Layer.effect(BanSync, BanSync.make(options))
}
