/**
 * One entry per install folder: two entries on one folder would fight over
 * its files (`ban.txt`, `priority.txt`, the profiles folder and its logs,
 * the storage). Folders are compared as the operating system resolves
 * them: symbolic links followed (`realpath`), `.`/`..` and trailing slashes
 * gone, and letter case ignored where the platform's file systems ignore it
 * by default (Windows, macOS). A folder that does not exist (an entry whose
 * install was removed) is compared by its absolute path.
 */
import type { ServerEntry } from "@garrison/runtime"
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

/** The first of `entries` (other than `id` itself) whose install folder is `installDir`. */
export const entryUsingFolder = (
  entries: Iterable<ServerEntry>,
  installDir: string,
  id?: string
): ServerEntry | undefined => {
  const key = installKey(installDir)
  for (const other of entries) {
    if (other.id !== id && installKey(other.installDir) === key) return other
  }
  return undefined
}

/** What a refusal (or detect's warning) says about the entry already there. */
export const folderInUseMessage = (installDir: string, first: Pick<ServerEntry, "id" | "name">) =>
  `${installDir} is already the install folder of server "${first.name}" (${first.id}); ` +
  "two entries on one folder would fight over its files"
