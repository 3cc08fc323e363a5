/**
 * A server's backups as the routes show them: the page of the list with the
 * tier that keeps each, a backup looked up by name, its preview, its
 * download (as kept or masked) and its deletion. Separate from making and
 * restoring: these read the archive folder and change nothing but a delete.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import type { AuditActor } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import type { BackupConfigsStore } from "../BackupConfigs.js"
import { BackupContents, BackupPage, BackupRemoved, BackupView } from "../contract/Api.js"
import { BackupConflict, BackupInputRefused, BackupNotFound } from "../errors.js"
import type { ArchiveFolder, StoredBackup } from "./archiveFolder.js"
import { parseArchiveName } from "./archiveNames.js"
import type { RecordAudit } from "./auditRows.js"
import { contentsView } from "./contentsView.js"
import { maskedZip } from "./maskedZip.js"
import { type BackupType, tiersOf } from "./retention.js"
import type { ServerWork } from "./serverWork.js"
import { openZip } from "./zipRead.js"

const view = (backup: StoredBackup, tier: BackupView["tier"] | undefined) =>
  new BackupView({ filename: backup.filename, type: backup.type, createdAt: new Date(backup.createdAt).toISOString(), sizeBytes: backup.sizeBytes, tier: tier ?? null })

export interface ListingDeps {
  readonly servers: ServersShape
  readonly configs: BackupConfigsStore
  readonly archive: ArchiveFolder
  readonly record: RecordAudit
  readonly work: ServerWork
}

export const makeListing = ({ servers, configs, archive, record, work }: ListingDeps) => {
  const { hold, inUse } = work

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

  const list = (serverId: string, { type, limit, cursor }: { readonly type?: BackupType; readonly limit: number; readonly cursor?: string }) =>
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
    })

  const remove = (serverId: string, filename: string, type: BackupType | undefined, by: AuditActor) =>
    Effect.gen(function* () {
      const { backup } = yield* lookupBackup(serverId, filename, type)
      if (inUse.has(`${serverId}/${filename}`)) return yield* Effect.fail(new BackupConflict({ message: `backup "${filename}" is being restored: delete it when the restore has ended` }))
      yield* archive.remove(serverId, filename)
      yield* record(by, "backup.deleted", serverId, { filename, type: backup.type })
      return new BackupRemoved({ filename, type: backup.type })
    })

  const download = (serverId: string, filename: string, type: BackupType | undefined, by: AuditActor) =>
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
    })

  const downloadMasked = (serverId: string, filename: string, type: BackupType | undefined) =>
    Effect.map(lookupBackup(serverId, filename, type), ({ path }) => maskedZip(path))

  const contents = (serverId: string, filename: string, type: BackupType | undefined, page: { readonly limit: number; readonly cursor?: string }) =>
    Effect.scoped(
      Effect.gen(function* () {
        const { path } = yield* lookupBackup(serverId, filename, type)
        const opened = yield* Effect.either(openZip(path))
        if (opened._tag === "Left") {
          return new BackupContents({ filename, manifest: null, problem: opened.left.message, items: [], nextCursor: null, total: 0 })
        }
        return yield* contentsView(filename, opened.right, page)
      })
    )

  return { lookupBackup, list, remove, download, downloadMasked, contents }
}

export type Listing = ReturnType<typeof makeListing>
