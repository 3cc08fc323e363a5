/**
 * `+app_update <appid> [-beta <name>] [validate]`: installs or updates the
 * DayZ server app. As Steam does, the new build is put together under
 * `<library>/steamapps/downloading/<appid>/` and only then moved into the
 * install folder, so a failed or interrupted update leaves the install as
 * it was (the part-download stays in `downloading/`).
 *
 * The files are the simulated server's (`@garrison/example-sim-server`'s
 * installer) plus `dta/sim_data.pbo`, padding the install to the app's
 * `sizeBytes`. Moving them in keeps the operator's configuration (an
 * existing file is kept) but always replaces what the app owns: the
 * `DayZServer` executable and the game data, so an update really updates.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { parseAppUpdateArgs } from "./args.js"
import type { CatalogueApp } from "./catalogue.js"
import { nowSeconds } from "./catalogue.js"
import { type CommandResult, OK, type RunContext } from "./context.js"
import { installedBuildId, writeAppManifest } from "./manifests.js"
import { EXIT, lines } from "./output.js"
import { sleep, transfer } from "./pace.js"

/** The game data file that makes the install as big as the app's `sizeBytes`. */
export const DATA_FILE = "dta/sim_data.pbo"

/** Every file under `dir`, relative, `/`-separated; and the folders (empty ones matter: storage, profiles). */
const walk = (dir: string): { files: Array<string>; folders: Array<string> } => {
  const files: Array<string> = []
  const folders: Array<string> = []
  const visit = (relative: string) => {
    for (const entry of Fs.readdirSync(NodePath.join(dir, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) {
        folders.push(path)
        visit(path)
      } else files.push(path)
    }
  }
  visit("")
  return { files, folders }
}

/** Where an app goes: `+force_install_dir`, else `<home>/steamapps/common/<app name>`; its manifest sits in `<library>/steamapps`. */
export const appLocation = (ctx: RunContext, app: CatalogueApp) =>
  ctx.installDir === undefined
    ? { library: ctx.home, installDir: NodePath.join(ctx.home, "steamapps", "common", app.name) }
    : { library: ctx.installDir, installDir: ctx.installDir }

const appFailed = (ctx: RunContext, appId: string, state: "0x6" | "0x202" | "0x602"): CommandResult => {
  ctx.out.line(lines.appState(appId, state))
  return { code: state === "0x6" ? EXIT.timeout : EXIT.failure }
}

export const appUpdate = async (ctx: RunContext, args: ReadonlyArray<string>): Promise<CommandResult> => {
  const { appId, validate } = parseAppUpdateArgs(args)
  if (appId === undefined) {
    ctx.out.line("ERROR! Usage: app_update <appid> [-beta <betaname>] [-betapassword <password>] [validate]")
    return { code: EXIT.failure }
  }
  if (ctx.login === undefined) {
    ctx.out.line(lines.notLoggedOn)
    return { code: EXIT.failure }
  }
  const app = ctx.catalogue.apps[appId]
  if (app === undefined) {
    ctx.out.line(lines.appInvalidPlatform(appId))
    return { code: EXIT.failure }
  }
  // The DayZ server is not an anonymous download: it needs an account that owns DayZ.
  if (ctx.login._tag === "Anonymous" || !ctx.login.account.ownsGame) {
    ctx.out.line(lines.appNoSubscription(appId))
    return { code: EXIT.failure }
  }

  const { behaviour } = ctx.catalogue
  if (behaviour.appFailure === "no-match") {
    ctx.out.line(lines.appNoMatch(appId))
    return { code: EXIT.failure }
  }

  const { library, installDir } = appLocation(ctx, app)
  const staging = NodePath.join(library, "steamapps", "downloading", appId)
  Fs.rmSync(staging, { recursive: true, force: true })
  Fs.mkdirSync(staging, { recursive: true })
  await ctx.layOutServer(staging)
  const layout = walk(staging)
  const layoutBytes = layout.files.reduce((sum, f) => sum + Fs.statSync(NodePath.join(staging, f)).size, 0)
  const dataBytes = Math.max(0, app.sizeBytes - layoutBytes)
  const expected = [...layout.files, DATA_FILE]
  const missing = expected.filter((f) => !Fs.existsSync(NodePath.join(installDir, f)))
  const current = installedBuildId(library, appId) === app.buildId

  if (current && missing.length === 0 && !validate) {
    Fs.rmSync(staging, { recursive: true, force: true })
    ctx.out.line(lines.appUpToDate(appId))
    return OK
  }

  const total = app.sizeBytes
  const comma = behaviour.decimalComma === true
  if (behaviour.allUpdateStates === true) {
    ctx.out.line(lines.appReconfiguring(comma))
    if (validate) ctx.out.line(lines.updateState("0x5", "verifying install", 0, total, comma))
  }
  const dataPath = NodePath.join(staging, DATA_FILE)
  const pattern = `garrison-sim app ${appId} build ${app.buildId}\n`
  Fs.mkdirSync(NodePath.dirname(dataPath), { recursive: true })
  // validate on the current build only verifies; a new build, or files missing without validate, download.
  const verifyOnly = current && validate
  if (verifyOnly) {
    // No download: only what is missing comes back (and the executable).
    Fs.writeFileSync(dataPath, Buffer.alloc(dataBytes, pattern))
  } else {
    // The build "downloads": the game data grows in downloading/ while the progress lines run.
    Fs.writeFileSync(dataPath, "")
    const diskLimit = behaviour.diskFreeBytes !== null && behaviour.diskFreeBytes < total ? behaviour.diskFreeBytes : undefined
    const failure = behaviour.appFailure ?? (diskLimit !== undefined ? "disk-full" : null)
    if (behaviour.allUpdateStates === true) ctx.out.line(lines.updateState("0x11", "preallocating", 0, total, comma))
    let progressLines = 0
    // A failing update gets part way first: up to the free space, or half.
    const stopAt = failure === null ? total : failure === "disk-full" && diskLimit !== undefined ? diskLimit : Math.floor(total / 2)
    await transfer({
      total,
      stopAt,
      bytesPerSecond: behaviour.bytesPerSecond,
      intervalMs: behaviour.progressIntervalMs,
      signal: ctx.signal,
      // The data file takes the bytes past the layout's own.
      write: (from, to) => {
        const a = Math.max(0, from - layoutBytes)
        const b = Math.min(dataBytes, Math.max(0, to - layoutBytes))
        if (b > a) Fs.appendFileSync(dataPath, Buffer.alloc(b - a, pattern))
      },
      progress: (done) => {
        ctx.out.line(lines.appDownloading(done, total, comma))
        // `warnings`: a Warning line in the middle of the progress, as real SteamCMD's stderr lands there.
        if (behaviour.warnings === true && ++progressLines === 1) ctx.out.line(lines.warning)
      }
    })
    if (failure === "timeout") {
      await sleep(behaviour.stallMs ?? 1000, ctx.signal)
      return appFailed(ctx, appId, "0x6")
    }
    if (failure === "disk-full") return appFailed(ctx, appId, "0x202")
    if (failure === "failed") return appFailed(ctx, appId, "0x602")
  }
  ctx.out.line(lines.appVerifying(total, comma))

  // Move the new build in: synchronous, so a signal cannot land half way. A new build replaces
  // the executable and the game data; the rest (configs, keys, missions) only comes back when missing.
  const replaces = (file: string) => file === "DayZServer" || (file === DATA_FILE && !verifyOnly)
  Fs.mkdirSync(installDir, { recursive: true })
  for (const folder of layout.folders) Fs.mkdirSync(NodePath.join(installDir, folder), { recursive: true })
  for (const file of expected) {
    const target = NodePath.join(installDir, file)
    if (replaces(file) || !Fs.existsSync(target)) {
      Fs.mkdirSync(NodePath.dirname(target), { recursive: true })
      Fs.renameSync(NodePath.join(staging, file), target)
    }
  }
  Fs.rmSync(staging, { recursive: true, force: true })
  const sizeOnDisk = expected.reduce((sum, f) => sum + Fs.statSync(NodePath.join(installDir, f)).size, 0)
  writeAppManifest(library, {
    appId,
    name: app.name,
    buildId: app.buildId,
    installDir: NodePath.basename(installDir),
    lastUpdated: nowSeconds(),
    sizeOnDisk
  })
  ctx.out.line(lines.appInstalled(appId))
  return OK
}
