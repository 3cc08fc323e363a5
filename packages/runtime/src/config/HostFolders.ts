/**
 * The folders of the host that Garrison itself uses, read once from the
 * settings, so every plugin means the same folders and the servers plugin
 * can keep install folders out of them:
 * - `DATA_DIR` (the database, keys, caches);
 * - `DEPLOY_DIR` (default `<DATA_DIR>/servers`): where deploys make new
 *   install folders, the one place inside the data directory they may be;
 * - `BACKUP_DIR` (default `<DATA_DIR>/server-backups`);
 * - the SteamCMD download cache, `<DATA_DIR>/steam`;
 * - `SERVERS_ROOT` (unset by default): where a non-admin may add installs.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { GarrisonConfig } from "./GarrisonConfig.js"

export interface HostFolders {
  readonly dataDir: string
  readonly deployDir: string
  readonly backupDir: string
  readonly steamDir: string
  readonly serversRoot: string | undefined
}

/** A folder setting: unset or blank is the default (undefined when there is none). */
const folder = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map((set) => (set._tag === "Some" && set.value.trim() !== "" ? NodePath.resolve(set.value.trim()) : undefined)))

export const hostFolders = Effect.gen(function* () {
  const { dataDir } = yield* GarrisonConfig
  const data = NodePath.resolve(dataDir)
  return {
    dataDir: data,
    deployDir: (yield* folder("DEPLOY_DIR")) ?? NodePath.join(data, "servers"),
    backupDir: (yield* folder("BACKUP_DIR")) ?? NodePath.join(data, "server-backups"),
    steamDir: NodePath.join(data, "steam"),
    serversRoot: yield* folder("SERVERS_ROOT")
  } satisfies HostFolders
})
