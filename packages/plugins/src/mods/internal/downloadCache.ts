/** The shared download folder's layout, as SteamCMD writes it. */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { SteamCmd } from "@garrison/runtime"

/** Where SteamCMD puts a workshop item once downloaded. */
export const itemFolder = (downloadDir: string, workshopId: string) =>
  NodePath.join(downloadDir, "steamapps", "workshop", "content", SteamCmd.DAYZ_GAME_APP, workshopId)

/** Where SteamCMD writes an item while it downloads it. */
export const downloadingFolder = (downloadDir: string, workshopId: string) =>
  NodePath.join(downloadDir, "steamapps", "workshop", "downloads", SteamCmd.DAYZ_GAME_APP, workshopId)

/** Bytes of the files under `dir` (0 when it is not there, yet or any more). */
export const folderBytes = (dir: string): number => {
  let total = 0
  try {
    for (const entry of Fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) total += Fs.statSync(NodePath.join(entry.parentPath, entry.name)).size
    }
  } catch {
    // Not there (yet, or any more).
  }
  return total
}
