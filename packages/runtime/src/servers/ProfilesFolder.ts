/**
 * A server's profiles folder (its logs, its output file) as a `LogFolder`.
 *
 * Normally it lies inside the install folder (`-profiles=profiles`): it is
 * then read through the `ServerFiles` of the install folder, at its relative
 * path, and every rule of that root holds. In particular a profiles folder
 * that is a symlink leading out of the install folder is refused
 * (`outside-root`): someone able to write into the install folder could
 * otherwise point it anywhere. Whether it lies inside is decided from the
 * entry's own settings, never from what is on disk.
 *
 * An entry whose `profilesDir` is configured outside the install folder (an
 * absolute path elsewhere, or `../logs`) was put there on purpose by an
 * admin (`server.deploy`): it gets a `ServerFiles` of its own, rooted at
 * that folder, with the same rules inside it.
 */
import * as NodePath from "node:path"
import type { LogFolder } from "../game/LogFolder.js"
import * as ServerFiles from "../files/ServerFiles.js"
import { profilesPath, type ServerEntry } from "./ServerEntry.js"

/** The profiles folder's path relative to the install folder, or undefined when it is configured outside it. */
export const profilesInsideInstall = (entry: ServerEntry): string | undefined => {
  const relative = NodePath.relative(NodePath.resolve(entry.installDir), profilesPath(entry))
  if (NodePath.isAbsolute(relative) || relative === ".." || relative.startsWith(`..${NodePath.sep}`)) return undefined
  return relative.split(NodePath.sep).join("/")
}

/** Where the entry's logs are read: see above. `filesFor` gives the files of a folder (the local disk by default). */
export const profilesFolder = (
  entry: ServerEntry,
  filesFor: (root: string) => ServerFiles.ServerFiles = (root) => ServerFiles.local(root)
): LogFolder => {
  const inside = profilesInsideInstall(entry)
  return inside === undefined
    ? { files: filesFor(profilesPath(entry)), folder: "" }
    : { files: filesFor(entry.installDir), folder: inside }
}
