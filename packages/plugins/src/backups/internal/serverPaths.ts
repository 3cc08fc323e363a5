/**
 * A server's places as backups see them: its two roots (the install folder
 * and the profiles folder, which may lie outside it), its persistence folder
 * (from its configuration), and what a backup takes by default.
 */
import * as Effect from "effect/Effect"
import { missionOf, parseServerConfig, profilesInsideInstall, profilesPath, type ServerEntry, ServerFiles } from "@garrison/runtime"
import type { BackupConfig } from "../contract/Api.js"
import type { WantedPath } from "./gather.js"
import type { BackupRoot } from "./manifest.js"

/** The confined files of each root of the server. */
export const filesOf = (entry: ServerEntry) => {
  const install = ServerFiles.local(entry.installDir)
  const profiles = ServerFiles.local(profilesPath(entry))
  return (root: BackupRoot): ServerFiles.ServerFiles => (root === "install" ? install : profiles)
}

/** The persistence folder, from the server's configuration; undefined when it names none (or cannot be read). */
export const storageOf = (entry: ServerEntry): Effect.Effect<string | undefined> =>
  ServerFiles.local(entry.installDir)
    .read(entry.configFile, { maxBytes: 1024 * 1024 })
    .pipe(
      Effect.map((bytes) => missionOf(parseServerConfig(new TextDecoder().decode(bytes)))?.storage),
      Effect.orElseSucceed(() => undefined)
    )

/** What `paths: null` takes: the config file, the profiles folder, the persistence folder. */
export const defaultPaths = (entry: ServerEntry, storage: string | undefined): ReadonlyArray<WantedPath> => {
  const inside = profilesInsideInstall(entry)
  return [
    { root: "install", path: entry.configFile.replace(/\\/g, "/") },
    inside === undefined ? { root: "profiles", path: "" } : { root: "install", path: inside },
    ...(storage === undefined ? [] : [{ root: "install" as const, path: storage }])
  ]
}

/** The paths a backup of this server takes under `config`. */
export const wantedOf = (entry: ServerEntry, config: BackupConfig, storage: string | undefined): ReadonlyArray<WantedPath> =>
  config.paths === null ? defaultPaths(entry, storage) : config.paths.map((path) => ({ root: "install" as const, path }))

/** As the config view shows a path: `install/serverDZ.cfg`, `profiles/`. */
export const shownPath = (p: WantedPath): string => (p.path === "" ? `${p.root}/` : `${p.root}/${p.path}`)
