/**
 * Where a server's backups live: `<BACKUP_DIR>/<server id>/<name>.zip`
 * (default `<DATA_DIR>/server-backups`), outside the server's own folder so
 * nothing the game server (or a mod) writes can reach them. A zip is written
 * as `.<name>.partial`, synced, then renamed: a backup in the list is whole.
 * Work files of a backup in progress (snapshots) go in `.work-<token>`;
 * both are removed on the next start-up if a crash left them.
 */
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { type ArchiveName, archiveName, parseArchiveName } from "./archiveNames.js"
import type { BackupType } from "./retention.js"
import { errorMessage } from "@garrison/runtime"

export interface StoredBackup extends ArchiveName {
  readonly sizeBytes: number
}

/** A folder name for a server id: the id itself when it is a plain name, a hash of it otherwise. */
const folderName = (serverId: string): string =>
  /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(serverId) && serverId !== "." && serverId !== ".."
    ? serverId
    : `id-${createHash("sha256").update(serverId).digest("hex").slice(0, 32)}`

const syncFolder = (folder: string) => {
  try {
    const fd = Fs.openSync(folder, "r")
    try {
      Fs.fsyncSync(fd)
    } finally {
      Fs.closeSync(fd)
    }
  } catch {
    // Some file systems refuse to sync a folder; the rename is still atomic.
  }
}

export const makeArchiveFolder = (baseDir: string) => {
  const folderOf = (serverId: string) => NodePath.join(baseDir, folderName(serverId))
  return {
    baseDir,
    folderOf,
    /** The backups of a server, newest first. */
    list: (serverId: string) =>
      Effect.promise(async (): Promise<ReadonlyArray<StoredBackup>> => {
        const folder = folderOf(serverId)
        const names = await Fs.promises.readdir(folder).catch(() => [] as Array<string>)
        const found: Array<StoredBackup> = []
        for (const name of names) {
          const parsed = parseArchiveName(name)
          if (parsed === undefined) continue
          const stats = await Fs.promises.lstat(NodePath.join(folder, name)).catch(() => undefined)
          if (stats?.isFile() === true) found.push({ ...parsed, sizeBytes: stats.size })
        }
        return found.sort((a, b) => b.createdAt - a.createdAt || (a.filename < b.filename ? 1 : -1))
      }),
    /** One backup by name, when `filename` is a backup's name (never any other path) and it is there. */
    find: (serverId: string, filename: string) =>
      Effect.promise(async (): Promise<StoredBackup | undefined> => {
        const parsed = parseArchiveName(filename)
        if (parsed === undefined) return undefined
        const stats = await Fs.promises.lstat(NodePath.join(folderOf(serverId), filename)).catch(() => undefined)
        return stats?.isFile() === true ? { ...parsed, sizeBytes: stats.size } : undefined
      }),
    /** The file of a backup, when `filename` is a backup's name (never any other path). */
    pathOf: (serverId: string, filename: string): string | undefined =>
      parseArchiveName(filename) === undefined ? undefined : NodePath.join(folderOf(serverId), filename),
    /** A name for a new backup that no file has yet; the folder is made. */
    newName: (serverId: string, type: BackupType, ms: number) =>
      Effect.sync(() => {
        const folder = folderOf(serverId)
        Fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
        for (let attempt = 1; ; attempt++) {
          const name = archiveName(type, ms, attempt)
          if (!Fs.existsSync(NodePath.join(folder, name)) && !Fs.existsSync(NodePath.join(folder, `.${name}.partial`))) return name
        }
      }),
    partialPath: (serverId: string, filename: string) => NodePath.join(folderOf(serverId), `.${filename}.partial`),
    workFolder: (serverId: string, token: string) => NodePath.join(folderOf(serverId), `.work-${token}`),
    /** Renames a finished zip into the list. */
    publish: (serverId: string, filename: string) =>
      Effect.sync(() => {
        const folder = folderOf(serverId)
        Fs.renameSync(NodePath.join(folder, `.${filename}.partial`), NodePath.join(folder, filename))
        syncFolder(folder)
      }),
    remove: (serverId: string, filename: string) =>
      Effect.sync(() => {
        const path = NodePath.join(folderOf(serverId), filename)
        if (parseArchiveName(filename) === undefined || !Fs.existsSync(path)) return false
        Fs.rmSync(path, { force: true })
        return true
      }),
    /** Partial zips and work folders a crash left behind, in every server's folder; a folder that cannot be read is logged, not fatal to start-up. */
    sweep: Effect.suspend(() => {
      const problems: Array<string> = []
      let servers: ReadonlyArray<string> = []
      try {
        servers = Fs.existsSync(baseDir) ? Fs.readdirSync(baseDir) : []
      } catch (error) {
        problems.push(`${baseDir}: ${errorMessage(error)}`)
      }
      for (const server of servers) {
        const folder = NodePath.join(baseDir, server)
        try {
          if (!Fs.lstatSync(folder).isDirectory()) continue
          for (const name of Fs.readdirSync(folder)) {
            if (name.endsWith(".partial") || name.startsWith(".work-")) Fs.rmSync(NodePath.join(folder, name), { recursive: true, force: true })
          }
        } catch (error) {
          problems.push(`${folder}: ${errorMessage(error)}`)
        }
      }
      return problems.length === 0 ? Effect.void : Effect.logWarning(`backups: could not tidy ${problems.join("; ")}`)
    })
  }
}

export type ArchiveFolder = ReturnType<typeof makeArchiveFolder>
