/**
 * Where backups are kept: `BACKUP_DIR` (default `<DATA_DIR>/server-backups`),
 * one folder per server. Put it on another disk than the servers' to survive
 * losing that one.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { GarrisonConfig } from "@garrison/runtime"

export const backupsConfig = Effect.gen(function* () {
  const config = yield* GarrisonConfig
  const set = yield* Config.option(Config.string("BACKUP_DIR"))
  return { backupDir: set._tag === "Some" && set.value.trim() !== "" ? NodePath.resolve(set.value) : NodePath.join(config.dataDir, "server-backups") }
})
