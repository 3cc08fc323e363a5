/**
 * Who owns what Garrison writes into a game server's folders.
 *
 * Game servers do not run as root (see `servers/GameServerUser.ts`): they
 * run as the owner of their install folder. A controller that runs as root
 * must therefore leave every file and folder it makes in an install owned
 * by that user, or the game cannot write its own `ban.txt`, storage or
 * logs. The rule is the one a setgid folder gives groups: a new file or
 * folder takes the owner of the folder it is made in. A controller that
 * is not root cannot give files away, and need not: everything is its own.
 *
 * Every change of owner is made without following a symlink (`lchown`,
 * `fchown`), so a link planted in an install never hands a host file over.
 */
import * as Fs from "node:fs"
import * as FsPromises from "node:fs/promises"
import * as NodePath from "node:path"

export interface Owner {
  readonly uid: number
  readonly gid: number
}

/** Whether this process may give files to other users (it runs as root). */
export const controllerIsRoot = (): boolean => process.getuid?.() === 0

/** The owner of `path` (a symlink itself, not what it points at); undefined when it is missing. */
export const ownerOf = (path: string): Owner | undefined => {
  try {
    const stats = Fs.lstatSync(path)
    return { uid: stats.uid, gid: stats.gid }
  } catch {
    return undefined
  }
}

/** Gives the open file `handle` to the owner of `folder` (no-op unless root, or when it already is). */
export const inheritOwnerOfFolder = async (handle: FsPromises.FileHandle, folder: string): Promise<void> => {
  if (!controllerIsRoot()) return
  const owner = await FsPromises.stat(folder)
  // The handle is a file this process just made: it is ours until given away.
  if (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.()) await handle.chown(owner.uid, owner.gid)
}

/** Gives `path` (not followed when a symlink) to the owner of the folder it lies in (no-op unless root). */
export const inheritOwner = async (path: string): Promise<void> => {
  if (!controllerIsRoot()) return
  const owner = await FsPromises.stat(NodePath.dirname(path))
  await FsPromises.lchown(path, owner.uid, owner.gid)
}

/**
 * Gives `root` and everything under it to `owner`, never following a
 * symlink (links are re-owned themselves, what they point at is not
 * touched). For trees another program made as root (SteamCMD's downloads,
 * a mod copied in). No-op unless root.
 */
export const giveTree = async (root: string, owner: Owner): Promise<void> => {
  if (!controllerIsRoot()) return
  const visit = async (path: string): Promise<void> => {
    const stats = await FsPromises.lstat(path).catch(() => undefined)
    if (stats === undefined) return
    if (stats.uid !== owner.uid || stats.gid !== owner.gid) await FsPromises.lchown(path, owner.uid, owner.gid)
    if (!stats.isDirectory()) return
    for (const name of await FsPromises.readdir(path)) await visit(NodePath.join(path, name))
  }
  await visit(root)
}

/** Gives everything under `root` to `root`'s own owner (an install after SteamCMD, as root, wrote into it). */
export const giveTreeToItsOwner = async (root: string): Promise<void> => {
  if (!controllerIsRoot()) return
  const owner = ownerOf(root)
  if (owner !== undefined) await giveTree(root, owner)
}
