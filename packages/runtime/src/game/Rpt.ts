/**
 * What the engine log (.RPT) says about the running game: its version and
 * the map. Real servers word these lines differently across versions, so the
 * patterns are tolerant: `Version 1.26.159040` / `Exe version: ...`,
 * `Mission: dayzOffline.chernarusplus` / `World: chernarusplus`.
 */
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"

export interface RptFacts {
  readonly version: string | undefined
  readonly map: string | undefined
}

const VERSION = /\bversion\b[:\s]+(\d+(?:\.\d+)+)/i
const WORLD = /\bWorld[:\s]+([A-Za-z0-9_-]+)/
const MISSION = /\bMission[:\s]+[\w-]+\.([A-Za-z0-9_-]+)/

export const parseRptFacts = (text: string): RptFacts => ({
  version: VERSION.exec(text)?.[1],
  map: WORLD.exec(text)?.[1] ?? MISSION.exec(text)?.[1]
})

/** Reads the head of the newest .RPT in `profilesDir` modified at or after `since` (ms). */
export const readRptFacts = async (profilesDir: string, since: number): Promise<RptFacts | undefined> => {
  const names = await Fs.readdir(profilesDir).catch(() => [] as Array<string>)
  let newest: { path: string; mtime: number } | undefined
  for (const name of names) {
    if (!name.toUpperCase().endsWith(".RPT")) continue
    const path = NodePath.join(profilesDir, name)
    const stat = await Fs.stat(path).catch(() => undefined)
    if (stat?.isFile() && stat.mtimeMs >= since - 5_000 && (newest === undefined || stat.mtimeMs > newest.mtime)) {
      newest = { path, mtime: stat.mtimeMs }
    }
  }
  if (newest === undefined) return undefined
  const handle = await Fs.open(newest.path, "r")
  try {
    const buffer = Buffer.alloc(64 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return parseRptFacts(buffer.subarray(0, bytesRead).toString("utf8"))
  } finally {
    await handle.close()
  }
}
