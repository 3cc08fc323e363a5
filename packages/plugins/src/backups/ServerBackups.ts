/**
 * `ServerBackups`: a server's backups as zips with a manifest (see
 * README.md). Making one (manual, scheduled, or before a restore, a wipe or
 * an update), listing with the retention tier that keeps each, previewing,
 * downloading, restoring, deleting; the schedule runs on `Clock`.
 *
 * One backup or restore per server at a time (a semaphore per server); what
 * runs is a `BackupStatus` on a progress board, streamed to followers. A
 * restore is also the server actor's long operation (kind `restore`), so
 * nothing can start the server while its files are being replaced.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as EffectRuntime from "effect/Runtime"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import {
  AuditTrail,
  errorMessage,
  EventBus,
  forkUntilBegan,
  hostFolders,
  makeKeyedLocks,
  makeProgressBoard,
  processUp,
  profilesPath,
  recordForRequest,
  type ServerNotFound,
  type ServerUnreadable,
  startOperation
} from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { type BackupConfigsStore, makeBackupConfigs, merged } from "./BackupConfigs.js"
import type { BackupConfig, BackupConfigInput } from "./contract/Api.js"
import { BackupConfigView, BackupContents, BackupPage, BackupRemoved, BackupStatus, BackupView } from "./contract/Api.js"
import { BackupCreated, BackupFailed, BackupRestored } from "./events.js"
import { makeArchiveFolder, type StoredBackup } from "./internal/archiveFolder.js"
import { parseArchiveName } from "./internal/archiveNames.js"
import { checkArchive, pathProblem } from "./internal/checkArchive.js"
import type { WantedPath } from "./internal/gather.js"
import { maskedZip } from "./internal/maskedZip.js"
import { roomProblem } from "./internal/restoreRoom.js"
import { makeBackup } from "./internal/makeBackup.js"
import { contentsView } from "./internal/contentsView.js"
import { restoreFiles } from "./internal/restoreFiles.js"
import { type BackupType, judgeRetention, tiersOf } from "./internal/retention.js"
import { defaultPaths, filesOf, shownPath, storageOf, wantedOf } from "./internal/serverPaths.js"
import { openZip, type ZipRefused } from "./internal/zipRead.js"
import { BackupConflict, BackupInputRefused, BackupNotFound, type BackupsError, BackupStoreError } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface BackupMade {
  readonly filename: string
  readonly sizeBytes: number
  readonly pruned: ReadonlyArray<string>
}

export interface ServerBackupsShape {
  readonly list: (serverId: string, options: { readonly type?: BackupType; readonly limit: number; readonly cursor?: string }) => Effect.Effect<BackupPage, Lookup | BackupsError | BackupStoreError>
  /** A manual backup, begun in the background: answers once it began. */
  readonly create: (serverId: string, by: string) => Effect.Effect<BackupStatus, Lookup | BackupsError | BackupStoreError>
  /**
   * A backup of `type` made now and waited for (another plugin's wipe or
   * update, inside its own operation): the configured paths plus `extra`.
   * Waits for a backup or restore of the server that runs.
   */
  readonly backupNow: (serverId: string, type: BackupType, by: string, extra?: ReadonlyArray<WantedPath>) => Effect.Effect<BackupMade, Lookup | BackupsError | BackupStoreError>
  readonly status: (serverId: string) => Effect.Effect<BackupStatus, Lookup>
  /** The server looked up now (a missing one fails here, before any answer); then its status and every change, until the work has ended. */
  readonly follow: (serverId: string) => Effect.Effect<Stream.Stream<BackupStatus>, Lookup>
  readonly remove: (serverId: string, filename: string, type: BackupType | undefined, by: string) => Effect.Effect<BackupRemoved, Lookup | BackupsError>
  /** The zip opened for reading (the file may be pruned meanwhile: the open file stays readable). */
  /** The zip as kept, secrets and all (an admin's `?secrets=include`); audited as `backup.downloaded` by `by`. */
  readonly download: (
    serverId: string,
    filename: string,
    type: BackupType | undefined,
    by: string
  ) => Effect.Effect<{ readonly bytes: Stream.Stream<Uint8Array, Error>; readonly size: number; readonly filename: string }, Lookup | BackupsError>
  /** A copy of the zip with the game's secrets masked, made as it streams (`maskedZip`). */
  readonly downloadMasked: (serverId: string, filename: string, type: BackupType | undefined) => Effect.Effect<Stream.Stream<Uint8Array, ZipRefused>, Lookup | BackupsError>
  readonly contents: (serverId: string, filename: string, type: BackupType | undefined, page: { readonly limit: number; readonly cursor?: string }) => Effect.Effect<BackupContents, Lookup | BackupsError>
  readonly restore: (serverId: string, filename: string, type: BackupType | undefined, by: string) => Effect.Effect<BackupStatus, Lookup | BackupsError>
  readonly config: (serverId: string) => Effect.Effect<BackupConfigView, Lookup | BackupStoreError>
  readonly setConfig: (serverId: string, input: typeof BackupConfigInput.Type, by: string) => Effect.Effect<BackupConfigView, Lookup | BackupsError | BackupStoreError>
  /** Forgets a deleted server's config (its backups stay on disk). */
  readonly forgetServer: (serverId: string) => Effect.Effect<void, BackupStoreError>
  /** One pass of the schedule: every due scheduled backup, one after another (a backup that fails is logged; the schedule itself unread fails the pass). */
  readonly runDue: Effect.Effect<void, BackupStoreError>
}

const idle = (serverId: string) =>
  new BackupStatus({ serverId, operation: null, state: "idle", filename: null, type: null, phase: "", percent: 0, bytesDone: 0, bytesTotal: 0, error: null, startedAt: null, endedAt: null })

/** How often the schedule looks for due backups. */
export const SCHEDULE_TICK = Duration.minutes(1)


const view = (backup: StoredBackup, tier: BackupView["tier"] | undefined) =>
  new BackupView({ filename: backup.filename, type: backup.type, createdAt: new Date(backup.createdAt).toISOString(), sizeBytes: backup.sizeBytes, tier: tier ?? null })

export class ServerBackups extends Context.Tag("@garrison/plugins/ServerBackups")<ServerBackups, ServerBackupsShape>() {}

export const ServerBackupsLive = Layer.scoped(
  ServerBackups,
  Effect.gen(function* () {
    const servers = yield* Servers
    const bus = yield* EventBus
    const audit = yield* AuditTrail
    const configs: BackupConfigsStore = yield* makeBackupConfigs
    const { backupDir } = yield* hostFolders
    const archive = makeArchiveFolder(backupDir)
    yield* archive.sweep
    const scope = yield* Effect.scope
    const board = yield* makeProgressBoard<BackupStatus>((s) => s.state === "running")
    // One backup or restore per server at a time; a server's lock is forgotten when no one holds or awaits it.
    const locks = yield* makeKeyedLocks()
    /** Backups a restore or download reads now: retention leaves them alone. */
    const inUse = new Map<string, number>()
    const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

    const busy = (serverId: string) => new BackupConflict({ message: `a backup or restore of server ${serverId} is running: wait for it (GET /api/servers/${serverId}/backup-status)` })
    /** Marks the backup `key` in use for the rest of the scope. */
    const hold = (key: string) =>
      Effect.acquireRelease(
        Effect.sync(() => inUse.set(key, (inUse.get(key) ?? 0) + 1)),
        () => Effect.sync(() => (inUse.get(key) === 1 ? inUse.delete(key) : inUse.set(key, inUse.get(key)! - 1)))
      )
    const holding = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.scoped(Effect.zipRight(hold(key), effect))

    const record = (by: string, action: string, serverId: string, details: Record<string, unknown>, result: "success" | "failure" = "success") =>
      recordForRequest(audit, { actor: by, action, target: serverId, result, details })

    const set = (serverId: string, f: (s: BackupStatus) => Partial<BackupStatus>) => board.update(serverId, (s) => new BackupStatus({ ...s, ...f(s) }))

    // The zip's stream callbacks run outside any fiber: they update the board with this layer's runtime.
    const runSync = EffectRuntime.runSync(yield* Effect.runtime<never>())
    /** Progress from the zip's stream callbacks: at most every percent or 8 MiB. */
    const progressOf = (serverId: string) => {
      let last = { phase: "", bytes: -1, percent: -1 }
      return (phase: string, bytesDone: number, bytesTotal: number) => {
        const percent = bytesTotal > 0 ? Math.min(99, Math.floor((bytesDone / bytesTotal) * 100)) : 0
        if (phase === last.phase && percent === last.percent && bytesDone - last.bytes < 8 * 1024 * 1024) return
        last = { phase, bytes: bytesDone, percent }
        runSync(set(serverId, () => ({ phase, bytesDone, bytesTotal, percent })))
      }
    }

    /** Retention after a new backup: what the policy prunes, never a backup in use. */
    const prune = (serverId: string, config: BackupConfig) =>
      Effect.gen(function* () {
        const all = yield* archive.list(serverId)
        const verdict = judgeRetention(all, { keepPerType: config.keep, tiers: config.tiers })
        const pruned: Array<string> = []
        for (const filename of verdict.prune) {
          if (inUse.has(`${serverId}/${filename}`)) continue
          if (yield* archive.remove(serverId, filename)) pruned.push(filename)
        }
        return pruned
      })

    /** Makes one backup; the caller holds the server's lock and has put a running status. */
    const backupLocked = (serverId: string, type: BackupType, by: string, filename: string, extra: ReadonlyArray<WantedPath>) =>
      Effect.gen(function* () {
        const handle = yield* servers.get(serverId)
        const entry = yield* handle.entry
        const state = yield* handle.state
        const config = yield* configs.get(serverId)
        const storage = yield* storageOf(entry)
        const createdAt = yield* Clock.currentTimeMillis
        const made = yield* makeBackup({
          server: { id: serverId, name: entry.name },
          type,
          filename,
          wanted: [...wantedOf(entry, config, storage), ...extra],
          excludeLogs: config.excludeLogs,
          running: processUp(state),
          storage,
          filesOf: filesOf(entry),
          archive,
          token: randomUUID(),
          createdAt: new Date(createdAt),
          progress: progressOf(serverId)
        }).pipe(
          Effect.tapError((error) =>
            Effect.zipRight(
              bus.publish(new BackupFailed({ serverId, name: entry.name, type, error: errorMessage(error), by })),
              record(by, "backup.failed", serverId, { type, filename, error: errorMessage(error) }, "failure")
            )
          ),
          Effect.mapError((error) => new BackupConflict({ message: `the ${type} backup failed: ${errorMessage(error)}` }))
        )
        yield* set(serverId, () => ({ phase: "pruning" }))
        const pruned = yield* prune(serverId, config)
        const sizeBytes = (yield* archive.find(serverId, filename))?.sizeBytes ?? 0
        yield* bus.publish(new BackupCreated({ serverId, name: entry.name, filename, type, sizeBytes, files: made.files, pruned, by }))
        yield* record(by, "backup.created", serverId, { type, filename, sizeBytes, files: made.files, pruned, warnings: made.warnings.length })
        return { filename, sizeBytes, pruned } satisfies BackupMade
      })

    const begin = (serverId: string, operation: "backup" | "restore", type: BackupType, filename: string) =>
      Effect.flatMap(iso, (startedAt) =>
        board.put(
          serverId,
          new BackupStatus({ serverId, operation, state: "running", filename, type, phase: "starting", percent: 0, bytesDone: 0, bytesTotal: 0, error: null, startedAt, endedAt: null })
        )
      )
    const end = <A, E, R>(serverId: string, effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        Effect.tap(() => Effect.flatMap(iso, (endedAt) => set(serverId, () => ({ state: "done", phase: "done", percent: 100, endedAt })))),
        Effect.tapErrorCause((cause) =>
          Effect.flatMap(iso, (endedAt) =>
            set(serverId, () => {
              const failure = Cause.failureOption(cause)
              // The status is the client's to read: a store failure is "an internal error" there (and logged below).
              const shown = Option.isSome(failure) && !(failure.value instanceof BackupStoreError) ? errorMessage(failure.value) : undefined
              return { state: "failed", endedAt, error: shown ?? (Cause.isInterruptedOnly(cause) ? "interrupted" : "an internal error") }
            })
          )
        ),
        // A manual backup runs beside its request, with no one else to log it.
        Effect.tapError((error) => (error instanceof BackupStoreError ? Effect.logError(`backup of ${serverId}: ${error.message}`) : Effect.void))
      )

    /**
     * A backup of `type` under the server's lock; `wait`: queue behind one
     * that runs, else refuse. `onBegan` runs once its status is on the board.
     */
    const runBackup = (serverId: string, type: BackupType, by: string, extra: ReadonlyArray<WantedPath>, wait: boolean, onBegan: Effect.Effect<void> = Effect.void) =>
      Effect.gen(function* () {
        const body = Effect.gen(function* () {
          const filename = yield* Effect.flatMap(Clock.currentTimeMillis, (ms) => archive.newName(serverId, type, ms))
          yield* begin(serverId, "backup", type, filename)
          yield* onBegan
          return yield* end(serverId, backupLocked(serverId, type, by, filename, extra))
        })
        if (wait) return yield* locks.withLock(serverId, body)
        const ran = yield* locks.withLockIfFree(serverId, body)
        return Option.isSome(ran) ? ran.value : yield* Effect.fail(busy(serverId))
      })

    const lookupBackup = (serverId: string, filename: string, type: BackupType | undefined) =>
      Effect.gen(function* () {
        yield* servers.entry(serverId)
        const path = archive.pathOf(serverId, filename)
        const backup = yield* archive.find(serverId, filename)
        if (path === undefined || backup === undefined) return yield* Effect.fail(new BackupNotFound({ message: `server ${serverId} has no backup "${filename}"` }))
        if (type !== undefined && backup.type !== type) {
          return yield* Effect.fail(new BackupInputRefused({ field: "type", message: `backup "${filename}" is of type ${backup.type}, not ${type}` }))
        }
        return { path, backup }
      })

    const openChecked = (path: string) =>
      Effect.gen(function* () {
        const zip = yield* openZip(path)
        const manifest = yield* checkArchive(zip)
        return { zip, manifest }
      })

    const restoreBody = (serverId: string, filename: string, path: string, by: string) =>
      Effect.scoped(
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          // Opened before the pre-restore backup: its retention may prune this very file, whose open descriptor stays readable.
          const { zip, manifest } = yield* openChecked(path)
          yield* set(serverId, () => ({ phase: "pre-restore backup" }))
          const preRestoreName = yield* Effect.flatMap(Clock.currentTimeMillis, (ms) => archive.newName(serverId, "pre-restore", ms))
          const replaced = manifest.paths.map((p) => ({ root: p.root, path: p.path }))
          const pre = yield* backupLocked(serverId, "pre-restore", by, preRestoreName, replaced)
          yield* set(serverId, () => ({ phase: "unpacking", filename, type: manifest.type, bytesDone: 0, bytesTotal: manifest.totalBytes, percent: 0 }))
          const progress = progressOf(serverId)
          const outcome = yield* restoreFiles({
            zip,
            manifest,
            filesOf: filesOf(entry),
            token: randomUUID(),
            onBytes: (bytes) => Effect.sync(() => progress("unpacking", bytes, manifest.totalBytes))
          })
          yield* bus.publish(new BackupRestored({ serverId, name: entry.name, filename, preRestore: pre.filename, files: outcome.restoredFiles, by }))
          yield* record(by, "backup.restored", serverId, { filename, preRestore: pre.filename, files: outcome.restoredFiles, removed: outcome.removedFiles })
        })
      )

    const scheduleDue = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      for (const { serverId, config } of yield* configs.scheduled) {
        const exists = yield* Effect.either(servers.entry(serverId))
        if (exists._tag === "Left") continue
        const newest = (yield* archive.list(serverId)).find((b) => b.type === "scheduled")
        const due = newest === undefined ? true : newest.createdAt + config.intervalMinutes * 60_000 <= now + 1_000
        if (!due) continue
        yield* runBackup(serverId, "scheduled", "scheduler", [], false).pipe(
          Effect.catchAll((error) => Effect.logWarning(`scheduled backup of ${serverId} did not run: ${errorMessage(error)}`))
        )
      }
    })

    const configView = (serverId: string) =>
      Effect.gen(function* () {
        const entry = yield* servers.entry(serverId)
        const config = yield* configs.get(serverId)
        const storage = yield* storageOf(entry)
        const newest = (yield* archive.list(serverId)).find((b) => b.type === "scheduled")
        const now = yield* Clock.currentTimeMillis
        const next = config.intervalMinutes === 0 ? null : Math.max(now, (newest?.createdAt ?? now) + config.intervalMinutes * 60_000)
        return new BackupConfigView({
          ...config,
          defaultPaths: defaultPaths(entry, storage).map(shownPath),
          nextScheduledAt: next === null ? null : new Date(Math.ceil(next / 60_000) * 60_000).toISOString()
        })
      })

    return ServerBackups.of({
      list: (serverId, { type, limit, cursor }) =>
        Effect.gen(function* () {
          yield* servers.entry(serverId)
          const config = yield* configs.get(serverId)
          const all = yield* archive.list(serverId)
          const tiers = tiersOf(all, { keepPerType: config.keep, tiers: config.tiers })
          const chosen = type === undefined ? all : all.filter((b) => b.type === type)
          // Keyset: the cursor is the last backup of the previous page; the next starts strictly after it (newest first), even if it was pruned since.
          const after = cursor === undefined ? undefined : parseArchiveName(cursor)
          if (cursor !== undefined && after === undefined) return yield* Effect.fail(new BackupInputRefused({ field: "cursor", message: "cursor: not a backup of this list (pass nextCursor back unchanged)" }))
          const start =
            after === undefined ? 0 : ((i) => (i === -1 ? chosen.length : i))(chosen.findIndex((b) => b.createdAt < after.createdAt || (b.createdAt === after.createdAt && b.filename < after.filename)))
          const items = chosen.slice(start, start + limit)
          const more = start + limit < chosen.length
          return new BackupPage({ items: items.map((b) => view(b, tiers.get(b.filename))), nextCursor: more ? items[items.length - 1]!.filename : null, total: chosen.length })
        }),
      create: (serverId, by) =>
        Effect.gen(function* () {
          yield* servers.entry(serverId)
          // The backup runs beside the request, which answers once it began (or was refused: one runs already).
          yield* forkUntilBegan(scope, (began) => runBackup(serverId, "manual", by, [], false, began))
          return (yield* board.get(serverId)) ?? idle(serverId)
        }),
      backupNow: (serverId, type, by, extra = []) => runBackup(serverId, type, by, extra, true),
      status: (serverId) => Effect.zipRight(servers.entry(serverId), Effect.map(board.get(serverId), (s) => s ?? idle(serverId))),
      follow: (serverId) => Effect.zipRight(servers.entry(serverId), Effect.map(board.get(serverId), (now) => board.follow(serverId, now ?? idle(serverId)))),
      remove: (serverId, filename, type, by) =>
        Effect.gen(function* () {
          const { backup } = yield* lookupBackup(serverId, filename, type)
          if (inUse.has(`${serverId}/${filename}`)) return yield* Effect.fail(new BackupConflict({ message: `backup "${filename}" is being restored: delete it when the restore has ended` }))
          yield* archive.remove(serverId, filename)
          yield* record(by, "backup.deleted", serverId, { filename, type: backup.type })
          return new BackupRemoved({ filename, type: backup.type })
        }),
      download: (serverId, filename, type, by) =>
        Effect.gen(function* () {
          const { path, backup } = yield* lookupBackup(serverId, filename, type)
          const stats = yield* Effect.tryPromise({ try: () => Fs.promises.stat(path), catch: () => new BackupNotFound({ message: `server ${serverId} has no backup "${filename}"` }) })
          yield* record(by, "backup.downloaded", serverId, { filename, type: backup.type, secrets: "included" })
          // The stream owns the file: opened when the body is sent, closed when it ends, fails or the client goes,
          // and held from retention meanwhile.
          const bytes = Stream.unwrapScoped(
            Effect.gen(function* () {
              yield* hold(`${serverId}/${filename}`)
              const handle = yield* Effect.acquireRelease(
                Effect.tryPromise({ try: () => Fs.promises.open(path, "r"), catch: (error) => new Error(`backup ${filename}: ${String(error)}`) }),
                (handle) => Effect.promise(() => handle.close().catch(() => undefined))
              )
              return Stream.fromAsyncIterable(
                handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false, start: 0, end: Math.max(0, stats.size - 1) }) as AsyncIterable<Uint8Array>,
                (error) => (error instanceof Error ? error : new Error(String(error)))
              )
            })
          )
          return { bytes, size: stats.size, filename }
        }),
      downloadMasked: (serverId, filename, type) =>
        Effect.map(lookupBackup(serverId, filename, type), ({ path }) => maskedZip(path)),
      contents: (serverId, filename, type, page) =>
        Effect.scoped(
          Effect.gen(function* () {
            const { path } = yield* lookupBackup(serverId, filename, type)
            const opened = yield* Effect.either(openZip(path))
            if (opened._tag === "Left") {
              return new BackupContents({ filename, manifest: null, problem: opened.left.message, items: [], nextCursor: null, total: 0 })
            }
            return yield* contentsView(filename, opened.right, page)
          })
        ),
      restore: (serverId, filename, type, by) =>
        Effect.gen(function* () {
          const { path, backup } = yield* lookupBackup(serverId, filename, type)
          const handle = yield* servers.get(serverId)
          const why = yield* servers.busy(serverId)
          if (why !== undefined) return yield* Effect.fail(new BackupConflict({ message: `${(yield* handle.entry).name} is busy (${why}): stop it before restoring a backup` }))
          // The whole zip is checked before anything begins: a hostile or damaged one is refused here.
          const { manifest } = yield* Effect.scoped(openChecked(path)).pipe(Effect.mapError((error) => new BackupConflict({ message: `the backup cannot be restored: ${error.message}` })))
          const entry = yield* handle.entry
          const room = yield* roomProblem(path, manifest, (root) => (root === "install" ? entry.installDir : profilesPath(entry)))
          if (room !== undefined) return yield* Effect.fail(new BackupConflict({ message: `the backup cannot be restored: ${room}` }))
          const current = yield* board.get(serverId)
          if (current?.state === "running") return yield* Effect.fail(busy(serverId))
          const key = `${serverId}/${filename}`
          yield* startOperation(handle.actor, "restore", scope, ({ began, progress }) =>
            holding(
              key,
              locks.withLock(
                serverId,
                Effect.gen(function* () {
                  yield* begin(serverId, "restore", backup.type, filename)
                  yield* began
                  yield* end(
                    serverId,
                    restoreBody(serverId, filename, path, by).pipe(
                      Effect.tapError((error) => record(by, "backup.restore-failed", serverId, { filename, error: errorMessage(error) }, "failure"))
                    )
                  ).pipe(Effect.ignore)
                  yield* progress(1, "restore ended")
                })
              )
            )
          ).pipe(Effect.mapError((error) => new BackupConflict({ message: error.message })))
          return (yield* board.get(serverId)) ?? idle(serverId)
        }),
      config: configView,
      setConfig: (serverId, input, by) =>
        Effect.gen(function* () {
          yield* servers.entry(serverId)
          const next = merged(yield* configs.get(serverId), {
            ...input,
            ...(input.paths === undefined || input.paths === null ? {} : { paths: input.paths.map((p) => p.replace(/\\/g, "/").replace(/\/+$/, "")) })
          })
          if (next.paths !== null) {
            for (const [index, path] of next.paths.entries()) {
              const problem = pathProblem(path, false)
              if (problem !== undefined) return yield* Effect.fail(new BackupInputRefused({ field: `paths[${index}]`, message: `paths[${index}] "${path}" ${problem}` }))
            }
          }
          yield* configs.put(serverId, next)
          yield* record(by, "backup.config", serverId, { ...next })
          return yield* configView(serverId)
        }),
      forgetServer: (serverId) => configs.forget(serverId),
      runDue: scheduleDue
    })
  })
)
