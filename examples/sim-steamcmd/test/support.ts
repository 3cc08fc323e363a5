/** Shared by the unit tests: a stand-in folder with a fast catalogue, and runs in process (from the sources, no build). */
import { tempDir } from "@garrison/testkit"
import { install as layOutSimServer } from "../../sim-server/src/install.js"
import { type Catalogue, defaultCatalogue, writeCatalogue } from "../src/catalogue.js"
import { runSteamCmd } from "../src/steamcmd.js"

/** The default catalogue with downloads that take milliseconds and stalls of 50 ms. */
export const fastCatalogue = (): Catalogue => {
  const catalogue = defaultCatalogue()
  return { ...catalogue, behaviour: { ...catalogue.behaviour, bytesPerSecond: 200_000_000, progressIntervalMs: 5, stallMs: 50 } }
}

/** A fresh stand-in folder (catalogue.json only: in process there is no steamcmd.sh to run). */
export const steamHome = (catalogue: Catalogue = fastCatalogue()): string => {
  const dir = tempDir("garrison-steamcmd-")
  writeCatalogue(dir, catalogue)
  return dir
}

export interface Ran {
  readonly code: number
  readonly output: string
  readonly lines: ReadonlyArray<string>
}

/** One SteamCMD run in process, the server laid out by the simulated server's installer from its sources. */
export const run = async (home: string, argv: ReadonlyArray<string>, options: { signal?: AbortSignal; onWrite?: (text: string) => void } = {}): Promise<Ran> => {
  let output = ""
  const code = await runSteamCmd(argv, {
    home,
    write: (text) => {
      output += text
      options.onWrite?.(text)
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    layOutServer: (dir) => void layOutSimServer(dir, {})
  })
  return { code, output, lines: output.split("\n") }
}

/** Polls `check` every 5 ms until it holds; fails after `timeoutMs`. */
export const waitFor = async (check: () => boolean, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
