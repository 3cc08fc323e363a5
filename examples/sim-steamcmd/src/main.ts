/**
 * The stand-in's process, run by `steamcmd.sh` (which sets
 * STEAMCMD_SIM_HOME to its own folder): `steamcmd.sh +login ... +quit`.
 * SIGTERM and SIGINT end it at once (143, 130); the files an update has
 * moved into place are moved synchronously, so all a signal can leave
 * behind is a part-download in `downloading/` or `workshop/downloads/`.
 */
import { CatalogueError } from "./catalogue.js"
import { EXIT } from "./output.js"
import { runSteamCmd } from "./steamcmd.js"

process.once("SIGTERM", () => process.exit(143))
process.once("SIGINT", () => process.exit(130))

const home = process.env["STEAMCMD_SIM_HOME"] ?? process.cwd()
try {
  const code = await runSteamCmd(process.argv.slice(2), { home, write: (text) => process.stdout.write(text) })
  process.exit(code)
} catch (error) {
  process.stderr.write(`steamcmd (simulated): ${error instanceof CatalogueError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(EXIT.simMisconfigured)
}
