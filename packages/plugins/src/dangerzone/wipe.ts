/**
 * A wipe: the server stopped, its name typed back, a `pre-wipe` backup made
 * (of the configured paths and the persistence folder whatever they are),
 * then the preset's paths deleted, all as the server's long operation
 * (kind `wipe`), so nothing starts it meanwhile. A failed backup stops the
 * wipe before anything is deleted.
 */
import * as Effect from "effect/Effect"
import {
  type AuditActor,
  type ConfinedFileError,
  runOperationFor,
  type ServerFiles,
  type ServerNotFound,
  type ServerUnreadable
} from "@garrison/runtime"
import type { BackupStoreError, ServerBackupsShape } from "../backups/index.js"
import type { ServersShape } from "../servers/index.js"
import { type WipeInput, WipeResult } from "./contract/Api.js"
import { sizeOf } from "./internal/sizeOf.js"
import { WIPE_PRESETS } from "./wipePresets.js"
import { DangerzoneConflict, type DangerzoneError, DangerzoneInputRefused } from "./errors.js"

/** Statuses in which a server's files are in use. */

export interface WipeDeps {
  readonly servers: ServersShape
  readonly backups: ServerBackupsShape
  readonly storageOf: (
    serverId: string
  ) => Effect.Effect<{ readonly files: ServerFiles.ServerFiles; readonly storage: string }, ServerNotFound | ServerUnreadable | ConfinedFileError | DangerzoneError>
}

const notFound = (e: ConfinedFileError) => e.problem === "not-found"

/** Checks the name and the state; refusals before anything happens. */
export const checkTarget = (servers: ServersShape, serverId: string, confirmName: string, what: string) =>
  Effect.gen(function* () {
    const handle = yield* servers.get(serverId)
    const entry = yield* handle.entry
    if (confirmName !== entry.name) return yield* new DangerzoneInputRefused({ field: "confirmName", message: `confirmName must be the server's name exactly ("${entry.name}")` })
    const busy = yield* servers.busy(serverId)
    if (busy !== undefined) return yield* new DangerzoneConflict({ message: `${entry.name} is busy (${busy}): stop it before ${what}` })
    return { handle, entry }
  })

export const wipe = (
  deps: WipeDeps,
  serverId: string,
  input: WipeInput,
  by: AuditActor
): Effect.Effect<WipeResult, ServerNotFound | ServerUnreadable | ConfinedFileError | DangerzoneError | DangerzoneError | BackupStoreError> =>
  Effect.gen(function* () {
    const { handle } = yield* checkTarget(deps.servers, serverId, input.confirmName, "wiping it")
    const { files, storage } = yield* deps.storageOf(serverId)
    const preset = WIPE_PRESETS.find((p) => p.id === input.preset)!
    return yield* runOperationFor(handle.actor, "wipe", ({ progress }) =>
      Effect.gen(function* () {
        yield* progress(0.1, "pre-wipe backup")
        const backup = yield* deps.backups
          .backupNow(serverId, "pre-wipe", by, [{ root: "install", path: storage }])
          .pipe(Effect.mapError((error) => (error._tag === "BackupStoreError" ? error : new DangerzoneConflict({ message: `nothing was wiped: ${error.message}` }))))
        yield* progress(0.8, `wiping ${preset.id}`)
        const removed: Array<{ path: string; sizeBytes: number }> = []
        yield* Effect.gen(function* () {
          // `full` empties the storage folder; the folder itself stays (the game expects it).
          const targets =
            preset.id === "full"
              ? (yield* files.list(storage).pipe(Effect.catchIf(notFound, () => Effect.succeed([])))).map((e) => `${storage}/${e.name}`)
              : preset.paths.map((relative) => `${storage}/${relative}`)
          for (const path of targets) {
            const info = yield* files.stat(path).pipe(Effect.catchIf(notFound, () => Effect.succeed(undefined)))
            if (info === undefined) continue
            const sizeBytes = yield* sizeOf(files, path)
            yield* files.remove(path, { recursive: info.kind === "folder" })
            removed.push({ path, sizeBytes })
          }
        }).pipe(
          Effect.mapError((error) => new DangerzoneConflict({ message: `the wipe stopped halfway (${error.message}); the pre-wipe backup ${backup.filename} holds what was there` }))
        )
        return new WipeResult({ preset: preset.id, storage, backup: backup.filename, removed, freedBytes: removed.reduce((sum, r) => sum + r.sizeBytes, 0) })
      })
    ).pipe(Effect.catchTag("ActorError", (error) => Effect.fail(new DangerzoneConflict({ message: error.message }))))
  })
