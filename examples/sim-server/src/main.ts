/**
 * The `DayZServer` executable of a simulated install:
 * `DayZServer -config=serverDZ.cfg -port=2302 -profiles=profiles -BEpath=battleye -dologs -adminlog [-simXxx=...]`.
 * Relative paths resolve against the working directory, as DayZ does: start it from the install folder.
 */
import { UsageError, parseArguments } from "./options.js"
import { Simulator } from "./server.js"

// The parent may close our stdout (a controller restarting while we keep running): never die of EPIPE.
process.stdout.on("error", () => undefined)
process.stderr.on("error", () => undefined)

const main = async () => {
  let parsed
  try {
    parsed = parseArguments(process.argv.slice(2), process.env, process.cwd())
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`DayZServer (simulated): ${error.message}\n`)
      process.exit(2)
    }
    throw error
  }
  await new Simulator(parsed, process.cwd()).start()
}

main().catch((error: unknown) => {
  process.stderr.write(`DayZServer (simulated) failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
