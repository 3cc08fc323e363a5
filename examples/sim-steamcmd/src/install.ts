/**
 * Installs the SteamCMD stand-in:
 *
 * ```
 * node examples/sim-steamcmd/dist/install.js <dir> [--force]
 * ```
 *
 * writes `<dir>/steamcmd.sh` (runs this package's `dist/main.js` with the
 * Node that ran the installer) and `<dir>/catalogue.json` (the default
 * catalogue; an existing one is kept unless `--force`). The last line of
 * its output is the path of `steamcmd.sh`, for
 * `STEAMCMD_PATH=$(npm run -s steamcmd:install -- /x | tail -1)`.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { CATALOGUE_FILE, defaultCatalogue, writeCatalogue } from "./catalogue.js"

export interface InstallOptions {
  /** Replace an existing catalogue.json with the default one. */
  readonly force?: boolean
}

export interface InstallResult {
  readonly steamcmdPath: string
  readonly cataloguePath: string
}

const mainScript = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "main.js")

/** Single-quoted for sh: safe for spaces, quotes and `$` in paths. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

export const steamcmdScript = (node: string, main: string): string =>
  [
    "#!/bin/sh",
    "# SteamCMD stand-in (Garrison examples/sim-steamcmd): reads catalogue.json from this folder.",
    `STEAMCMD_SIM_HOME=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd); export STEAMCMD_SIM_HOME`,
    `exec ${shellQuote(node)} ${shellQuote(main)} "$@"`,
    ""
  ].join("\n")

export const install = (target: string, options: InstallOptions = {}): InstallResult => {
  const dir = NodePath.resolve(target)
  Fs.mkdirSync(dir, { recursive: true })
  const steamcmdPath = NodePath.join(dir, "steamcmd.sh")
  Fs.writeFileSync(steamcmdPath, steamcmdScript(process.execPath, mainScript), { mode: 0o755 })
  Fs.chmodSync(steamcmdPath, 0o755)
  const cataloguePath = NodePath.join(dir, CATALOGUE_FILE)
  if (options.force === true || !Fs.existsSync(cataloguePath)) writeCatalogue(dir, defaultCatalogue())
  return { steamcmdPath, cataloguePath }
}

if (process.argv[1] !== undefined && NodePath.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const dirs = args.filter((a) => !a.startsWith("--"))
  const unknown = args.filter((a) => a.startsWith("--") && a !== "--force")
  if (dirs.length !== 1 || unknown.length > 0) {
    process.stderr.write("usage: install.js <dir> [--force]\n")
    process.exit(2)
  }
  try {
    const result = install(dirs[0]!, { force: args.includes("--force") })
    process.stdout.write(
      `SteamCMD stand-in installed; catalogue: ${result.cataloguePath}\n` +
        `  Point Garrison at it: STEAMCMD_PATH=${result.steamcmdPath}\n` +
        `${result.steamcmdPath}\n`
    )
  } catch (error) {
    process.stderr.write(`install: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  }
}
