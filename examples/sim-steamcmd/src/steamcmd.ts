/**
 * One SteamCMD run: the banner, then each `+command` in order, as Valve's
 * client runs them. Returns the exit code: the first failed command's
 * (8, or 10 for a timeout), a login's 5 or 63 (which end the run at once),
 * or 0. `main.ts` is the process around it; tests call it in process.
 */
import type * as SimServer from "@garrison/example-sim-server"
import * as NodePath from "node:path"
import { appUpdate } from "./appUpdate.js"
import { isOn, parseCommandLine } from "./args.js"
import { readCatalogue } from "./catalogue.js"
import type { CommandResult, RunContext } from "./context.js"
import { login } from "./login.js"
import { banner, EXIT, lines } from "./output.js"
import { Interrupted } from "./pace.js"
import { workshopDownloadItem } from "./workshop.js"

export interface RunOptions {
  /** The stand-in's folder: where steamcmd.sh and catalogue.json are. */
  readonly home: string
  /** Receives the output as it is produced (stdout in the process). */
  readonly write: (text: string) => void
  /** Aborting ends the run promptly (the process's SIGTERM/SIGINT); reason "SIGINT" gives 130, else 143. */
  readonly signal?: AbortSignal
  /**
   * Lays out the DayZ server's files in an empty folder. Default:
   * `@garrison/example-sim-server`'s installer (loaded on first need).
   */
  readonly layOutServer?: (dir: string) => void | Promise<void>
}

/**
 * The simulated server's installer. Its module is loaded on its own, next
 * to the package's index: the index also loads the simulator's action
 * catalogue, which would add half a second to every app_update.
 */
const simServerLayout = async (dir: string): Promise<void> => {
  const index = import.meta.resolve("@garrison/example-sim-server")
  const { install } = (await import(new URL("install.js", index).href).catch(() => import("@garrison/example-sim-server"))) as typeof SimServer
  install(dir, {})
}

export const runSteamCmd = async (argv: ReadonlyArray<string>, options: RunOptions): Promise<number> => {
  const home = NodePath.resolve(options.home)
  const out = { write: options.write, line: (text: string) => options.write(`${text}\n`) }
  const ctx: RunContext = {
    home,
    catalogue: readCatalogue(home),
    out,
    signal: options.signal,
    layOutServer: options.layOutServer ?? simServerLayout,
    installDir: undefined,
    login: undefined
  }
  const { pipedOutput, warnings } = ctx.catalogue.behaviour
  const bannerLines = banner(home)
  for (const line of bannerLines.slice(0, -1)) out.line(line)
  if (warnings === true) out.line(lines.warning)
  // Piped, `Loading Steam API...OK` runs into what follows (the login), as real SteamCMD's does.
  out.write(`${bannerLines.at(-1)!}${pipedOutput === true ? "" : "\n"}`)

  let exitCode: number = EXIT.ok
  let shutdownOnFailed = false
  let noPrompt = false
  let pendingGuardCode: string | undefined
  try {
    for (const { name, args } of parseCommandLine(argv)) {
      let result: CommandResult = { code: EXIT.ok }
      switch (name.toLowerCase()) {
        case "quit":
        case "exit":
          return exitCode
        case "@shutdownonfailedcommand":
          shutdownOnFailed = isOn(args)
          break
        case "@nopromptforpassword":
          noPrompt = isOn(args)
          break
        case "@ssteamcmdforceplatformtype":
          break
        case "set_steam_guard_code":
          pendingGuardCode = args[0]
          break
        case "force_install_dir":
          // Relative folders are taken from the stand-in's folder, as SteamCMD takes them from its own.
          if (args[0] !== undefined) ctx.installDir = NodePath.resolve(home, args[0])
          break
        case "login":
          result = login(ctx, args, { noPrompt, pendingGuardCode })
          break
        case "app_update":
          result = await appUpdate(ctx, args)
          break
        case "workshop_download_item":
          result = await workshopDownloadItem(ctx, args)
          break
        default:
          out.line(lines.unknownCommand(name))
      }
      if (result.code !== EXIT.ok && exitCode === EXIT.ok) exitCode = result.code
      if (result.end === true || (shutdownOnFailed && result.code !== EXIT.ok)) return result.code
    }
  } catch (error) {
    if (error instanceof Interrupted) return error.reason === "SIGINT" ? 130 : 143
    throw error
  }
  // No +quit: SteamCMD would wait at its console; the stand-in quits as if told to.
  return exitCode
}
