/**
 * Where an install folder may be. Two entries on one folder (or one inside
 * the other) would fight over its files (`ban.txt`, `priority.txt`, the
 * profiles folder and its logs, the storage), and a server's file routes
 * would reach the other's secrets; an install folder that is, holds or lies
 * inside Garrison's own folders or a system folder would let those routes
 * reach the controller's keys and database or the host's configuration.
 *
 * Folders are compared as the operating system resolves them: symbolic
 * links followed (`realpath`), `.`/`..` and trailing slashes gone, and
 * letter case ignored where the platform's file systems ignore it by
 * default (Windows, macOS). A folder that does not exist (an entry whose
 * install was removed) is compared by its absolute path.
 */
import type { HostFolders, ServerEntry } from "@garrison/runtime"
import * as Fs from "node:fs"
import * as NodePath from "node:path"

const caseInsensitive = process.platform === "win32" || process.platform === "darwin"

/** The folder as the file system knows it, to compare two install folders. */
export const installKey = (installDir: string): string => {
  const absolute = NodePath.resolve(installDir)
  let real: string
  try {
    real = Fs.realpathSync.native(absolute)
  } catch {
    real = absolute
  }
  return caseInsensitive ? real.toLowerCase() : real
}

/** How folder `a` stands to folder `b` (both keys): the same, inside it, holding it, or apart (undefined). */
export type FolderRelation = "same" | "inside" | "contains"

const under = (child: string, parent: string) => child.startsWith(parent.endsWith(NodePath.sep) ? parent : `${parent}${NodePath.sep}`)

export const relationOf = (a: string, b: string): FolderRelation | undefined =>
  a === b ? "same" : under(a, b) ? "inside" : under(b, a) ? "contains" : undefined

/**
 * The first of `entries` (other than `id` itself) whose install folder is
 * `installDir`, holds it or lies inside it. `keyOf` may remember keys, for
 * a caller that compares many folders against the same entries.
 */
export const entryNearFolder = (
  entries: Iterable<ServerEntry>,
  installDir: string,
  id?: string,
  keyOf: (installDir: string) => string = installKey
): { readonly entry: ServerEntry; readonly relation: FolderRelation } | undefined => {
  const key = keyOf(installDir)
  for (const other of entries) {
    if (other.id === id) continue
    const relation = relationOf(key, keyOf(other.installDir))
    if (relation !== undefined) return { entry: other, relation }
  }
  return undefined
}

/** What a refusal (or detect's warning) says about the entry already there. */
export const folderInUseMessage = (installDir: string, first: Pick<ServerEntry, "id" | "name">, relation: FolderRelation = "same") =>
  `${installDir} ${
    relation === "same" ? "is already the install folder of" : relation === "inside" ? "lies inside the install folder of" : "holds the install folder of"
  } server "${first.name}" (${first.id}); two entries on one folder would fight over its files`

/** System folders an install folder may be neither, nor lie inside (nor hold: only `/` holds them). */
const SYSTEM_TREES = ["/etc", "/usr", "/proc", "/sys", "/dev", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/run", "/root"]
/** Shared trees an install folder may lie inside but never be: it would take the whole tree. */
const SHARED_ROOTS = ["/", "/home", "/var", "/srv", "/opt", "/tmp", "/mnt", "/media"]

/**
 * Why `installDir` may not be an install folder whatever other entries
 * there are, or undefined: a system folder or a shared tree, or one of
 * Garrison's own folders (the data directory, where only the deploy folder
 * may hold installs; the backup folder; the SteamCMD cache).
 */
export const reservedFolderProblem = (installDir: string, folders: HostFolders): string | undefined => {
  const key = installKey(installDir)
  if (process.platform !== "win32") {
    for (const root of SHARED_ROOTS) if (key === installKey(root)) return `${installDir} is ${root}, a whole tree of the host: give the server a folder of its own`
    for (const tree of SYSTEM_TREES) {
      const relation = relationOf(key, installKey(tree))
      if (relation === "same" || relation === "inside") return `${installDir} ${relation === "same" ? "is" : "lies inside"} the system folder ${tree}`
    }
  }
  const deploy = installKey(folders.deployDir)
  const toDeploy = relationOf(key, deploy)
  const deployProblem = `the deploy folder (DEPLOY_DIR) ${folders.deployDir}: each deployed server has a folder of its own inside it`
  if (toDeploy === "same") return `${installDir} is ${deployProblem}`
  const own: ReadonlyArray<readonly [string, string]> = [
    [folders.dataDir, "the data directory (DATA_DIR)"],
    [folders.backupDir, "the backup folder (BACKUP_DIR)"],
    [folders.steamDir, "the SteamCMD download cache"]
  ]
  for (const [folder, what] of own) {
    const relation = relationOf(key, installKey(folder))
    if (relation === undefined) continue
    // The deploy folder is the one place inside the data directory where installs may be (each in a folder of its own).
    if (relation === "inside" && folder === folders.dataDir && relationOf(key, deploy) === "inside") continue
    return `${installDir} ${relation === "same" ? "is" : relation === "inside" ? "lies inside" : "holds"} ${what} ${folder}`
  }
  return toDeploy === "contains" ? `${installDir} holds ${deployProblem}` : undefined
}
