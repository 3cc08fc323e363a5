/**
 * The fake Steam Web API as a process:
 *
 * ```
 * node examples/sim-steamcmd/dist/api-main.js --port <n> [--host 127.0.0.1] [--dir <steamcmd install dir>]
 * ```
 *
 * prints `steam web api: http://host:port` and serves until SIGTERM/SIGINT.
 * `--dir` (default: the working directory) is where catalogue.json is.
 */
import * as NodePath from "node:path"
import { startWebApi } from "./api.js"

const usage = "usage: api-main.js --port <n> [--host <address>] [--dir <steamcmd install dir>]"

const parse = (args: ReadonlyArray<string>) => {
  const options: { port?: number; host?: string; dir?: string } = {}
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined]
    const value = inline ?? args[++i]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    if (flag === "--port") {
      const port = Number(value)
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be a port number (0 for any free one)")
      options.port = port
    } else if (flag === "--host") options.host = value
    else if (flag === "--dir") options.dir = value
    else throw new Error(`unknown option ${flag}`)
  }
  return options
}

try {
  const options = parse(process.argv.slice(2))
  const api = await startWebApi({ dir: NodePath.resolve(options.dir ?? "."), port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
  process.stdout.write(`steam web api: ${api.url}\n`)
  const stop = () => void api.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
} catch (error) {
  process.stderr.write(`steam web api: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`)
  process.exit(2)
}
