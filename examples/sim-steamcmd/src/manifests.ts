/**
 * Steam's records of what is installed, in KeyValues text:
 *
 * - `<library>/steamapps/appmanifest_<appid>.acf`: an installed app and its build;
 * - `<root>/steamapps/workshop/appworkshop_221100.acf`: the installed
 *   workshop items, each with its `timeupdated` and `manifest`.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { writeFileAtomic } from "./catalogue.js"
import { kvBlock, kvString, type KeyValues, parseKeyValues, writeKeyValues } from "./keyValues.js"

export interface AppManifest {
  readonly appId: string
  readonly name: string
  readonly buildId: number
  /** The folder name of the install, as Steam records it. */
  readonly installDir: string
  readonly lastUpdated: number
  readonly sizeOnDisk: number
}

export const appManifestPath = (library: string, appId: string): string => NodePath.join(library, "steamapps", `appmanifest_${appId}.acf`)

export const appManifestText = (m: AppManifest): string =>
  writeKeyValues("AppState", [
    ["appid", m.appId],
    ["name", m.name],
    ["buildid", String(m.buildId)],
    ["installdir", m.installDir],
    ["LastUpdated", String(m.lastUpdated)],
    ["SizeOnDisk", String(m.sizeOnDisk)],
    // 4: fully installed.
    ["StateFlags", "4"]
  ])

export const writeAppManifest = (library: string, m: AppManifest): void => {
  const path = appManifestPath(library, m.appId)
  Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
  writeFileAtomic(path, appManifestText(m))
}

/** The build id an app manifest records, or undefined (no manifest, unreadable). */
export const installedBuildId = (library: string, appId: string): number | undefined => {
  try {
    const [, block] = parseKeyValues(Fs.readFileSync(appManifestPath(library, appId), "utf8"))
    const buildId = Number(kvString(block, "buildid"))
    return Number.isInteger(buildId) ? buildId : undefined
  } catch {
    return undefined
  }
}

export const workshopAcfPath = (root: string, appId: string): string => NodePath.join(root, "steamapps", "workshop", `appworkshop_${appId}.acf`)

export interface InstalledItem {
  readonly size: number
  readonly timeUpdated: number
  readonly manifest: string
}

/** The items `appworkshop_<appid>.acf` records as installed (none when there is no file). */
export const installedItems = (root: string, appId: string): ReadonlyMap<string, InstalledItem> => {
  let block: KeyValues
  try {
    block = parseKeyValues(Fs.readFileSync(workshopAcfPath(root, appId), "utf8"))[1]
  } catch {
    return new Map()
  }
  const items = new Map<string, InstalledItem>()
  for (const [id, entry] of kvBlock(block, "WorkshopItemsInstalled") ?? []) {
    if (typeof entry === "string") continue
    items.set(id, {
      size: Number(kvString(entry, "size") ?? 0),
      timeUpdated: Number(kvString(entry, "timeupdated") ?? 0),
      manifest: kvString(entry, "manifest") ?? ""
    })
  }
  return items
}

/** Records `id` as installed (keeping the other items), as Steam does after a download. */
export const recordInstalledItem = (root: string, appId: string, id: string, item: InstalledItem, now: number): void => {
  const items = new Map(installedItems(root, appId))
  items.set(id, item)
  const sorted = [...items].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
  const text = writeKeyValues("AppWorkshop", [
    ["appid", appId],
    ["SizeOnDisk", String(sorted.reduce((sum, [, i]) => sum + i.size, 0))],
    ["NeedsUpdate", "0"],
    ["NeedsDownload", "0"],
    ["TimeLastUpdated", String(now)],
    ["TimeLastAppRan", "0"],
    ["LastBuildID", "0"],
    [
      "WorkshopItemsInstalled",
      sorted.map(([itemId, i]) => [itemId, [["size", String(i.size)], ["timeupdated", String(i.timeUpdated)], ["manifest", i.manifest]]] as const)
    ],
    [
      "WorkshopItemDetails",
      sorted.map(
        ([itemId, i]) =>
          [
            itemId,
            [
              ["manifest", i.manifest],
              ["timeupdated", String(i.timeUpdated)],
              ["timetouched", String(now)],
              ["latest_timeupdated", String(i.timeUpdated)],
              ["latest_manifest", i.manifest]
            ]
          ] as const
      )
    ]
  ])
  const path = workshopAcfPath(root, appId)
  Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
  writeFileAtomic(path, text)
}
