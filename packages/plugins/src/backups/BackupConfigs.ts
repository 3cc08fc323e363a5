/**
 * Each server's backup config (schedule, paths, retention), one JSON row per
 * server; a server without a row has `defaultBackupConfig`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BackupConfig, type BackupConfigInput } from "./contract/Api.js"
import { storeError } from "./errors.js"

export const defaultBackupConfig = new BackupConfig({
  intervalMinutes: 0,
  paths: null,
  excludeLogs: true,
  keep: { manual: 10, scheduled: 24, "pre-restore": 5, "pre-wipe": 5, "pre-update": 5 },
  tiers: { hourly: 24, daily: 7, weekly: 4, monthly: 6 }
})

const decode = Schema.decodeUnknownOption(Schema.parseJson(BackupConfig))
const encode = Schema.encodeSync(Schema.parseJson(BackupConfig))

export const merged = (current: BackupConfig, input: typeof BackupConfigInput.Type): BackupConfig =>
  new BackupConfig({
    intervalMinutes: input.intervalMinutes ?? current.intervalMinutes,
    paths: input.paths === undefined ? current.paths : input.paths,
    excludeLogs: input.excludeLogs ?? current.excludeLogs,
    keep: { ...current.keep, ...input.keep },
    tiers: { ...current.tiers, ...input.tiers }
  })

export const makeBackupConfigs = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    get: (serverId: string) =>
      Effect.map(
        sql<{ readonly config: string }>`SELECT config FROM backup_configs WHERE server_id = ${serverId}`.pipe(Effect.mapError(storeError("read a backup config"))),
        (rows) => (rows[0] === undefined ? defaultBackupConfig : Option.getOrElse(decode(rows[0].config), () => defaultBackupConfig))
      ),
    /** Every server with a schedule. */
    scheduled: Effect.map(
      sql<{ readonly server_id: string; readonly config: string }>`SELECT server_id, config FROM backup_configs`.pipe(Effect.mapError(storeError("read the backup schedules"))),
      (rows) =>
        rows.flatMap((row) => {
          const config = decode(row.config)
          return Option.isSome(config) && config.value.intervalMinutes > 0 ? [{ serverId: row.server_id, config: config.value }] : []
        })
    ),
    put: (serverId: string, config: BackupConfig) =>
      Effect.gen(function* () {
        const at = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`INSERT INTO backup_configs (server_id, config, updated_at) VALUES (${serverId}, ${encode(config)}, ${at})
          ON CONFLICT (server_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`.pipe(Effect.mapError(storeError("save a backup config")))
      }),
    forget: (serverId: string) => sql`DELETE FROM backup_configs WHERE server_id = ${serverId}`.pipe(Effect.mapError(storeError("forget a server's backup config")), Effect.asVoid)
  }
})

export type BackupConfigsStore = Effect.Effect.Success<typeof makeBackupConfigs>
