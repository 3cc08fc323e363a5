/**
 * The schedule: on every tick, each server whose newest scheduled backup is
 * older than its interval gets one, one after another. Separate from making
 * a backup: this only decides which are due, on `Clock`.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { errorMessage, SCHEDULER_ACTOR } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import type { BackupConfigsStore } from "../BackupConfigs.js"
import type { ArchiveFolder } from "./archiveFolder.js"
import type { BackupRuns } from "./backupRuns.js"

/** How often the schedule looks for due backups. */
export const SCHEDULE_TICK = Duration.minutes(1)

export interface ScheduleDeps {
  readonly servers: ServersShape
  readonly configs: BackupConfigsStore
  readonly archive: ArchiveFolder
  readonly runBackup: BackupRuns["runBackup"]
}

export const makeScheduleDue = ({ servers, configs, archive, runBackup }: ScheduleDeps) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    for (const { serverId, config } of yield* configs.scheduled) {
      const exists = yield* Effect.either(servers.entry(serverId))
      if (exists._tag === "Left") continue
      const newest = (yield* archive.list(serverId)).find((b) => b.type === "scheduled")
      const due = newest === undefined ? true : newest.createdAt + config.intervalMinutes * 60_000 <= now + 1_000
      if (!due) continue
      // No principal behind the schedule: its rows keep the marker "scheduler" as actor, with no name.
      yield* runBackup(serverId, "scheduled", SCHEDULER_ACTOR, [], false).pipe(
        Effect.catchAll((error) => Effect.logWarning(`scheduled backup of ${serverId} did not run: ${errorMessage(error)}`))
      )
    }
  })
