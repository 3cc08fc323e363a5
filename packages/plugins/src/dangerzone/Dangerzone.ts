/**
 * `Dangerzone`: what clears a server's data for good: its log files by
 * category (scan, clear), a wipe of its persistence (`wipe.ts`), and a
 * replicate of another server's files into it (`replicate.ts`). Everything reads and removes through the
 * server's confined files, and every call leaves an audit row (reads too:
 * an admin looking around the dangerzone is worth knowing).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  EventBus,
  ServerWiped,
  type AuditActor,
  auditActorFields,
  AuditTrail,
  type ConfinedFileError,
  inLogFolder,
  missionOf,
  parseServerConfig,
  processUp,
  profilesFolder,
  recordForRequest,
  type ServerFiles,
  type ServerNotFound,
  type ServerUnreadable
} from "@garrison/runtime"
import { BackupStoreError, ServerBackups } from "../backups/index.js"
import { Servers } from "../servers/index.js"
import {
  LogCategory,
  LogFileView,
  LogsCleared,
  LogsScan,
  type ReplicateInput,
  type ReplicatePreview,
  type ReplicatePreviewInput,
  type ReplicateResult,
  type WipeInput,
  WipePath,
  WipePreset,
  WipePresets,
  type WipeResult
} from "./contract/Api.js"
import { sizeOf } from "./internal/sizeOf.js"
import { replicate, replicatePreview } from "./replicate.js"
import { wipe } from "./wipe.js"
import { LOG_CATEGORIES, type LogCategoryId } from "./logCategories.js"
import { WIPE_PRESETS } from "./wipePresets.js"
import { DangerzoneConflict, type DangerzoneError } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface DangerzoneShape {
  /** `BackupStoreError`: the pre-wipe backup could not read the backup settings (nothing was wiped). */
  readonly wipe: (serverId: string, input: WipeInput, by: AuditActor) => Effect.Effect<WipeResult, Lookup | ConfinedFileError | DangerzoneError | BackupStoreError>
  readonly replicatePreview: (serverId: string, input: ReplicatePreviewInput, by: AuditActor) => Effect.Effect<ReplicatePreview, Lookup | ConfinedFileError | DangerzoneError>
  readonly replicate: (serverId: string, input: ReplicateInput, by: AuditActor) => Effect.Effect<ReplicateResult, Lookup | ConfinedFileError | DangerzoneError | BackupStoreError>
  readonly wipePresets: (serverId: string, by: AuditActor) => Effect.Effect<WipePresets, Lookup | ConfinedFileError | DangerzoneConflict>
  readonly logsScan: (serverId: string, by: AuditActor) => Effect.Effect<LogsScan, Lookup | ConfinedFileError>
  readonly clearLogs: (serverId: string, categories: ReadonlyArray<LogCategoryId>, by: AuditActor) => Effect.Effect<LogsCleared, Lookup | ConfinedFileError>
}

/** A file written this close before the process started may still be its own (coarse clocks). */
const RUN_SLACK_MS = 5_000

interface Found {
  readonly category: LogCategoryId
  readonly files: ServerFiles.ServerFiles
  readonly path: string
  readonly view: LogFileView
  readonly modified: number
}

const notFoundAsEmpty = <A>(effect: Effect.Effect<ReadonlyArray<A>, ConfinedFileError>) =>
  effect.pipe(Effect.catchIf((e) => e.problem === "not-found" || e.problem === "not-a-folder", () => Effect.succeed([] as ReadonlyArray<A>)))

export class Dangerzone extends Context.Tag("@garrison/plugins/Dangerzone")<Dangerzone, DangerzoneShape>() {
  static readonly layer: Layer.Layer<Dangerzone, never, Servers | ServerBackups | AuditTrail | EventBus> = Layer.effect(
    Dangerzone,
    Effect.gen(function* () {
      const servers = yield* Servers
      const audit = yield* AuditTrail
      const bus = yield* EventBus
      const backups = yield* ServerBackups
      // `by` is the caller's id and name, handed on into the server actor's operation too (the backup first, the entry's change).
      const record = (by: AuditActor, action: string, serverId: string, details: Record<string, unknown>, result: "success" | "failure" = "success") =>
        recordForRequest(audit, { ...auditActorFields(by), action, target: serverId, result, details })

      /** Every log file of the server, with its category. */
      const scan = (serverId: string) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          const logs = profilesFolder(entry)
          const found: Array<Found> = []
          const add = (category: LogCategoryId, files: ServerFiles.ServerFiles, folder: string, entries: ReadonlyArray<ServerFiles.FileInfo>) => {
            const rule = LOG_CATEGORIES.find((c) => c.id === category)!
            for (const e of entries) {
              if (e.kind !== "file" || !rule.matches(e.name)) continue
              const path = folder === "" ? e.name : `${folder}/${e.name}`
              if (found.some((f) => f.files.root === files.root && f.path === path)) continue
              found.push({ category, files, path, modified: e.modified.getTime(), view: new LogFileView({ name: e.name, path, size: e.size, modified: e.modified.toISOString() }) })
            }
          }
          const top = yield* notFoundAsEmpty(logs.files.list(logs.folder))
          for (const rule of LOG_CATEGORIES) if (!rule.inBattlEye) add(rule.id, logs.files, logs.folder, top)
          // BattlEye writes into a BattlEye folder of the profiles folder, or into the entry's BattlEye folder.
          for (const name of top.filter((e) => e.kind === "folder" && e.name.toLowerCase() === "battleye").map((e) => e.name)) {
            const folder = inLogFolder(logs, name)
            add("battleye", logs.files, folder, yield* notFoundAsEmpty(logs.files.list(folder)))
          }
          add("battleye", handle.files, entry.battleyeDir, yield* notFoundAsEmpty(handle.files.list(entry.battleyeDir)).pipe(Effect.catchAll(() => Effect.succeed([]))))
          const state = yield* handle.state
          return { found, runningSince: processUp(state) ? (state.startedAt ?? 0) : undefined }
        })

      /** The mission's persistence folder: `mpmissions/<template>/storage_<instanceId>` from the server's configuration. */
      const storageOf = (serverId: string) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          const bytes = yield* handle.files.read(entry.configFile, { maxBytes: 1024 * 1024 })
          const mission = missionOf(parseServerConfig(new TextDecoder().decode(bytes)))
          if (mission === undefined) {
            return yield* new DangerzoneConflict({ message: `${entry.configFile} names no mission or instance (class Missions { class DayZ { template = "..."; }; }, instanceId)` })
          }
          return { files: handle.files, storage: mission.storage }
        })

      const replicateDeps = { servers, backups }
      const audited = <A, E, R>(by: AuditActor, action: string, serverId: string, details: Record<string, unknown>, effect: Effect.Effect<A, E, R>, summary: (a: A) => Record<string, unknown>) =>
        effect.pipe(
          Effect.tap((a) => record(by, action, serverId, { ...details, ...summary(a) })),
          Effect.tapError((error) =>
            // A store failure's words are for the log (the routes answer it 500), not for the audit rows clients read.
            record(by, action, serverId, { ...details, error: error instanceof BackupStoreError ? "an internal error" : typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error) }, "failure")
          )
        )

      return Dangerzone.of({
        wipe: (serverId, input, by) =>
          audited(
            by,
            "dangerzone.wipe",
            serverId,
            { preset: input.preset },
            // Told once the wipe is done: a new season of the game begins (the leaderboard starts afresh).
            Effect.tap(wipe({ servers, backups, storageOf }, serverId, input, by), (result) =>
              Effect.flatMap(servers.entry(serverId).pipe(Effect.map((e) => e.name), Effect.orElseSucceed(() => serverId)), (name) =>
                bus.publish(new ServerWiped({ serverId, name, preset: result.preset }))
              )
            ),
            (r) => ({
            backup: r.backup,
            removed: r.removed.map((p) => p.path),
            freedBytes: r.freedBytes
          })),
        replicatePreview: (serverId, input, by) =>
          audited(by, "dangerzone.replicate-preview", serverId, { sourceServerId: input.sourceServerId, components: input.components }, replicatePreview(replicateDeps, serverId, input), (p) => ({
            blockers: p.blockers.length
          })),
        replicate: (serverId, input, by) =>
          audited(by, "dangerzone.replicate", serverId, { sourceServerId: input.sourceServerId, components: input.components }, replicate(replicateDeps, serverId, input, by), (r) => ({
            backup: r.backup,
            files: r.components.reduce((s, c) => s + c.files, 0)
          })),
        wipePresets: (serverId, by) =>
          Effect.gen(function* () {
            const { files, storage } = yield* storageOf(serverId)
            const presets: Array<WipePreset> = []
            for (const preset of WIPE_PRESETS) {
              const paths: Array<WipePath> = []
              for (const relative of preset.paths) {
                const path = relative === "" ? storage : `${storage}/${relative}`
                const exists = yield* files.stat(path).pipe(Effect.as(true), Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed(false)))
                paths.push(new WipePath({ path, exists, sizeBytes: exists ? yield* sizeOf(files, path) : 0 }))
              }
              const sizeBytes = paths.reduce((sum, p) => sum + p.sizeBytes, 0)
              presets.push(new WipePreset({ id: preset.id, name: preset.name, description: preset.description, paths, sizeBytes, available: sizeBytes > 0 }))
            }
            yield* record(by, "dangerzone.wipe-presets", serverId, { storage })
            return new WipePresets({ storage, presets })
          }),
        logsScan: (serverId, by) =>
          Effect.gen(function* () {
            const { found } = yield* scan(serverId)
            const categories = LOG_CATEGORIES.map((rule) => {
              const files = found.filter((f) => f.category === rule.id).sort((a, b) => b.modified - a.modified).map((f) => f.view)
              return new LogCategory({ id: rule.id, name: rule.name, fileCount: files.length, sizeBytes: files.reduce((s, f) => s + f.size, 0), files })
            })
            yield* record(by, "dangerzone.logs-scan", serverId, { files: found.length })
            return new LogsScan({ categories, totalFiles: found.length, totalBytes: found.reduce((s, f) => s + f.view.size, 0) })
          }),
        clearLogs: (serverId, categories, by) =>
          Effect.gen(function* () {
            const { found, runningSince } = yield* scan(serverId)
            let removedFiles = 0
            let freedBytes = 0
            const kept: Array<string> = []
            for (const file of found.filter((f) => categories.includes(f.category))) {
              if (runningSince !== undefined && file.modified >= runningSince - RUN_SLACK_MS) {
                kept.push(file.path)
                continue
              }
              yield* file.files.remove(file.path).pipe(Effect.catchIf((e) => e.problem === "not-found", () => Effect.void))
              removedFiles++
              freedBytes += file.view.size
            }
            yield* record(by, "dangerzone.clear-logs", serverId, { categories, removedFiles, freedBytes, kept: kept.length })
            return new LogsCleared({ removedFiles, freedBytes, kept })
          })
      })
    })
  )
}
