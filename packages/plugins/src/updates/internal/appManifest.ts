/**
 * What SteamCMD left in a server folder: `steamapps/appmanifest_<app>.acf`
 * (Valve's KeyValues text) says which app is installed and at which build.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { SteamCmd } from "@garrison/runtime"

export interface InstalledApp {
  readonly appId: string
  readonly buildId: string | null
}

/** `"key"  "value"` pairs at any depth; the first of each key wins. */
export const keyValuesOf = (text: string): ReadonlyMap<string, string> => {
  const values = new Map<string, string>()
  for (const m of text.matchAll(/"([^"\\]*(?:\\.[^"\\]*)*)"[ \t]+"([^"\\]*(?:\\.[^"\\]*)*)"/g)) {
    const key = m[1]!.toLowerCase()
    if (!values.has(key)) values.set(key, m[2]!)
  }
  return values
}

/** The DayZ server app installed in `installDir` (stable before experimental), if SteamCMD put one there. */
export const installedApp = (installDir: string): InstalledApp | undefined => {
  for (const appId of [SteamCmd.DAYZ_SERVER_APP, SteamCmd.DAYZ_EXPERIMENTAL_SERVER_APP]) {
    try {
      const text = Fs.readFileSync(NodePath.join(installDir, "steamapps", `appmanifest_${appId}.acf`), "utf8")
      return { appId, buildId: keyValuesOf(text).get("buildid") ?? null }
    } catch {
      // Not this one.
    }
  }
  return undefined
}
