/**
 * A server's backup config as the routes show it (with the default paths and
 * the next scheduled time) and its change, each path checked. Separate from
 * the store of configs (`BackupConfigs.ts`), which knows no server.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { AuditActor } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import { type BackupConfigsStore, merged } from "../BackupConfigs.js"
import { type BackupConfigInput, BackupConfigView } from "../contract/Api.js"
import { BackupInputRefused } from "../errors.js"
import type { ArchiveFolder } from "./archiveFolder.js"
import type { RecordAudit } from "./auditRows.js"
import { pathProblem } from "./checkArchive.js"
import { defaultPaths, shownPath, storageOf } from "./serverPaths.js"

export interface ConfigViewDeps {
  readonly servers: ServersShape
  readonly configs: BackupConfigsStore
  readonly archive: ArchiveFolder
  readonly record: RecordAudit
}

export const makeConfigView = ({ servers, configs, archive, record }: ConfigViewDeps) => {
  const configView = (serverId: string) =>
    Effect.gen(function* () {
      const entry = yield* servers.entry(serverId)
      const config = yield* configs.get(serverId)
      const storage = yield* storageOf(entry)
      const newest = (yield* archive.list(serverId)).find((b) => b.type === "scheduled")
      const now = yield* Clock.currentTimeMillis
      const next = config.intervalMinutes === 0 ? null : Math.max(now, (newest?.createdAt ?? now) + config.intervalMinutes * 60_000)
      return new BackupConfigView({
        ...config,
        defaultPaths: defaultPaths(entry, storage).map(shownPath),
        nextScheduledAt: next === null ? null : new Date(Math.ceil(next / 60_000) * 60_000).toISOString()
      })
    })

  const setConfig = (serverId: string, input: typeof BackupConfigInput.Type, by: AuditActor) =>
    Effect.gen(function* () {
      yield* servers.entry(serverId)
      const next = merged(yield* configs.get(serverId), {
        ...input,
        ...(input.paths === undefined || input.paths === null ? {} : { paths: input.paths.map((p) => p.replace(/\\/g, "/").replace(/\/+$/, "")) })
      })
      if (next.paths !== null) {
        for (const [index, path] of next.paths.entries()) {
          const problem = pathProblem(path, false)
          if (problem !== undefined) return yield* Effect.fail(new BackupInputRefused({ field: `paths[${index}]`, message: `paths[${index}] "${path}" ${problem}` }))
        }
      }
      yield* configs.put(serverId, next)
      yield* record(by, "backup.config", serverId, { ...next })
      return yield* configView(serverId)
    })

  return { configView, setConfig }
}
