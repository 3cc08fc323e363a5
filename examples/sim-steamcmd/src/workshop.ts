/**
 * `+workshop_download_item <appid> <itemid> [validate]`, as SteamCMD does it:
 * the files arrive in `<root>/steamapps/workshop/downloads/221100/<id>/`
 * (a part-downloaded item is left there, as Steam leaves it), then the
 * whole folder replaces `<root>/steamapps/workshop/content/221100/<id>/`
 * and `appworkshop_221100.acf` records the version. `<root>` is
 * `+force_install_dir`, or the stand-in's folder without one.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { parseWorkshopArgs } from "./args.js"
import { DAYZ_APP_ID, nowSeconds } from "./catalogue.js"
import { type CommandResult, OK, type RunContext } from "./context.js"
import { type ItemFile, itemFiles, itemManifestId, totalBytes } from "./itemFiles.js"
import { installedItems, recordInstalledItem } from "./manifests.js"
import { EXIT, type ItemFailure, lines } from "./output.js"
import { sleep, transfer } from "./pace.js"

const WORKSHOP_APP = String(DAYZ_APP_ID)

export const workshopFolders = (root: string, id: string) => ({
  downloads: NodePath.join(root, "steamapps", "workshop", "downloads", WORKSHOP_APP, id),
  content: NodePath.join(root, "steamapps", "workshop", "content", WORKSHOP_APP, id)
})

/** Whether `dir` holds exactly these files' sizes (a cheap "already there" check, as Steam's without validate). */
const holds = (dir: string, files: ReadonlyArray<ItemFile>): boolean =>
  files.every((f) => {
    try {
      return Fs.statSync(NodePath.join(dir, f.path)).size === f.content.length
    } catch {
      return false
    }
  })

/** Appends the byte range [from, to) of the files laid end to end: files grow chunk by chunk, as a download writes them. */
const chunkWriter = (dir: string, files: ReadonlyArray<ItemFile>) => (from: number, to: number) => {
  let start = 0
  for (const file of files) {
    const end = start + file.content.length
    if (end > from && start < to) {
      const path = NodePath.join(dir, file.path)
      Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
      Fs.appendFileSync(path, file.content.subarray(Math.max(0, from - start), Math.min(file.content.length, to - start)))
    }
    start = end
  }
}

const fail = (ctx: RunContext, id: string, reason: ItemFailure): CommandResult => {
  ctx.out.line(lines.itemFailed(id, reason))
  return { code: EXIT.failure }
}

export const workshopDownloadItem = async (ctx: RunContext, args: ReadonlyArray<string>): Promise<CommandResult> => {
  const { appId, itemId: id, validate } = parseWorkshopArgs(args)
  if (appId === undefined || id === undefined) {
    ctx.out.line("ERROR! Usage: workshop_download_item <appid> <itemid> [validate]")
    return { code: EXIT.failure }
  }
  if (ctx.login === undefined) {
    ctx.out.line(lines.notLoggedOn)
    return { code: EXIT.failure }
  }
  ctx.out.line(lines.itemDownloading(id))
  if (appId !== WORKSHOP_APP) return fail(ctx, id, "Failure")
  // DayZ's workshop content needs an account that owns DayZ.
  if (ctx.login._tag === "Anonymous" || !ctx.login.account.ownsGame) return fail(ctx, id, "Failure")
  const item = ctx.catalogue.items[id]
  if (item === undefined || item.removed === true) return fail(ctx, id, "File Not Found")
  const { behaviour } = ctx.catalogue
  if (behaviour.diskFreeBytes !== null && behaviour.diskFreeBytes < item.sizeBytes) return fail(ctx, id, "Disk Write Failure")
  if (behaviour.ioFailureItems?.includes(id) === true) return fail(ctx, id, "I/O Operation Failed")

  const root = ctx.installDir ?? ctx.home
  const folders = workshopFolders(root, id)
  const files = itemFiles(id, item)
  const size = totalBytes(files)
  const manifest = itemManifestId(id, item.version)

  // Already this version, files all there: Steam says Success without downloading.
  if (!validate && installedItems(root, WORKSHOP_APP).get(id)?.manifest === manifest && holds(folders.content, files)) {
    ctx.out.line(lines.itemDownloaded(id, folders.content, size))
    return OK
  }

  Fs.rmSync(folders.downloads, { recursive: true, force: true })
  Fs.mkdirSync(folders.downloads, { recursive: true })
  const pace = { total: size, bytesPerSecond: behaviour.bytesPerSecond, intervalMs: behaviour.progressIntervalMs, signal: ctx.signal }
  const write = chunkWriter(folders.downloads, files)

  if (behaviour.timeoutItems.includes(id)) {
    // Half arrives, then nothing: the partial download stays in downloads/.
    await transfer({ ...pace, stopAt: Math.floor(size / 2), write })
    await sleep(behaviour.stallMs ?? 1000, ctx.signal)
    ctx.out.line(lines.itemTimeout(id))
    return { code: EXIT.timeout }
  }

  await transfer({ ...pace, write })
  // Swap in the new folder: the old version moves aside first, so content/<id> is always one whole version.
  Fs.mkdirSync(NodePath.dirname(folders.content), { recursive: true })
  const old = `${folders.downloads}.old-${process.pid}`
  Fs.rmSync(old, { recursive: true, force: true })
  if (Fs.existsSync(folders.content)) Fs.renameSync(folders.content, old)
  Fs.renameSync(folders.downloads, folders.content)
  Fs.rmSync(old, { recursive: true, force: true })
  recordInstalledItem(root, WORKSHOP_APP, id, { size, timeUpdated: item.timeUpdated, manifest }, nowSeconds())
  ctx.out.line(lines.itemDownloaded(id, folders.content, size))
  return OK
}
