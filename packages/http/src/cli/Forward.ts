/**
 * Commands that run another entry point as it is, with the arguments given: `garrison start` (what `npm start`
 * runs: `dist/start.js`, the bundled controller, or the unbundled one with `PLUGINS`), `garrison sim install`
 * and `garrison steamcmd install` (the examples' installers, as `npm run sim:install --` and
 * `npm run steamcmd:install --`), and `garrison move-to-postgres`. They are dispatched before the command
 * line is parsed (`main.ts`), so the installers' own options (`--port=2302`) pass through untouched; their
 * `--help` comes from the commands declared here.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"
import { CliFailure } from "./CliFailure.js"
import { distDir, packageRoot, startScript } from "./PackageRoot.js"

/** The clone's root (the examples are there; an installed package has none, and says so). */
const repoRoot = NodePath.resolve(packageRoot, "..", "..")

export const START_SCRIPT = startScript

interface Forward {
  readonly words: ReadonlyArray<string>
  readonly script: string
  readonly what: string
  readonly description: string
}

export const FORWARDS: ReadonlyArray<Forward> = [
  {
    words: ["sim", "install"],
    script: NodePath.join(repoRoot, "examples", "sim-server", "dist", "install.js"),
    what: "the simulated DayZ server's installer",
    description: "Install a simulated DayZ server: <dir> [--port=2302] [--rcon-port=...] (as npm run sim:install --)"
  },
  {
    words: ["steamcmd", "install"],
    script: NodePath.join(repoRoot, "examples", "sim-steamcmd", "dist", "install.js"),
    what: "the SteamCMD stand-in's installer",
    description: "Install the SteamCMD stand-in: <dir> [--force]; the last line is the steamcmd.sh to use (as npm run steamcmd:install --)"
  },
  {
    words: ["move-to-postgres"],
    script: NodePath.join(distDir, "moveToPostgres.js"),
    what: "the move to PostgreSQL",
    description: "Copy a stopped controller's SQLite database into the empty PostgreSQL database DATABASE_URL names (npm run move-to-postgres)"
  }
]

/** The forward `argv` asks for and the arguments after its words, unless it asks for help. */
export const matchForward = (argv: ReadonlyArray<string>): { readonly forward: Forward; readonly rest: ReadonlyArray<string> } | undefined => {
  if (argv.includes("--help") || argv.includes("-h")) return undefined
  const forward = FORWARDS.find((candidate) => candidate.words.every((word, i) => argv[i] === word))
  return forward === undefined ? undefined : { forward, rest: argv.slice(forward.words.length) }
}

/** Runs the forward's script with this Node, output and input passed through; resolves with its exit code. */
export const runForward = (forward: Forward, rest: ReadonlyArray<string>): Promise<number> => {
  if (!existsSync(forward.script)) {
    process.stderr.write(`garrison: ${forward.what} is not here (${forward.script} is missing): run it from a clone of the repository after \`npm run build\`\n`)
    return Promise.resolve(1)
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [forward.script, ...rest], { stdio: "inherit" })
    const relay = (signal: NodeJS.Signals) => child.kill(signal)
    process.on("SIGINT", relay).on("SIGTERM", relay)
    child.on("error", (error) => {
      process.stderr.write(`garrison: cannot run ${forward.script}: ${error.message}\n`)
      resolve(1)
    })
    child.on("close", (code, signal) => {
      process.off("SIGINT", relay).off("SIGTERM", relay)
      resolve(code ?? (signal === null ? 1 : 128 + 15))
    })
  })
}

/** The declared commands, for `--help` (and a run without options, which dispatch catches first anyway). */
const declared = (forward: Forward, name: string) =>
  Command.make(name, { args: Args.text({ name: "arguments" }).pipe(Args.repeated, Args.withDescription("Passed to the script as they are")) }, ({ args }) =>
    Effect.flatMap(
      Effect.promise(() => runForward(forward, args)),
      (code) => (code === 0 ? Effect.void : Effect.fail(new CliFailure({ message: `${forward.what} exited with code ${code}` })))
    )
  ).pipe(Command.withDescription(forward.description))

export const simCommand = Command.make("sim").pipe(
  Command.withDescription("The simulated DayZ server (examples/sim-server)"),
  Command.withSubcommands([declared(FORWARDS[0]!, "install")])
)
export const steamcmdCommand = Command.make("steamcmd").pipe(
  Command.withDescription("The SteamCMD stand-in (examples/sim-steamcmd)"),
  Command.withSubcommands([declared(FORWARDS[1]!, "install")])
)
export const moveToPostgresCommand = declared(FORWARDS[2]!, "move-to-postgres")

export const startCommand = Command.make("start", {}, () => Effect.promise(() => import(START_SCRIPT))).pipe(
  Command.withDescription("Start the controller (as npm start): the settings come from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...)")
)
