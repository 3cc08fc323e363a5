/**
 * Shared fixtures: real temp data directories, the real layer, log capture and file vandalism. The layer is
 * SQLite on every pass (`GarrisonConfig.layerWith`), as these files test the SQLite store, unless `overrides`
 * names a `databaseUrl` (`Postgres.test.ts`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { Chunk, Effect, Layer, Logger, LogLevel, TestClock } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { eventually, tempDir } from "@garrison/testkit/core"
import { GarrisonConfig, type GarrisonSettings } from "../../src/config/GarrisonConfig.js"
import { DataDir, Secrets } from "../../src/config/DataDir.js"
import { Database } from "../../src/database/index.js"
import { SealedSecrets } from "../../src/secrets/SealedSecrets.js"

/** A data directory not made yet (as on a first start) in a throw-away folder, removed after the test file. */
export const tempDataDir = (): string => NodePath.join(tempDir("garrison-db-"), "data")

export const databaseLayer = (dataDir: string, overrides: Partial<GarrisonSettings> = {}) =>
  Database.layer.pipe(Layer.provideMerge(GarrisonConfig.layerWith({ dataDir, ...overrides })))

/** Opens the database for the duration of `effect`, then closes it (like one controller run). Migrations may seal values, so `SealedSecrets` is there too. */
export const withDatabase = <A, E>(
  dataDir: string,
  effect: Effect.Effect<A, E, Database | SqlClient.SqlClient | GarrisonConfig | SealedSecrets>,
  overrides: Partial<GarrisonSettings> = {}
) =>
  Effect.provide(
    effect,
    Layer.merge(
      databaseLayer(dataDir, overrides),
      SealedSecrets.layer.pipe(Layer.provide(Secrets.layer), Layer.provide(DataDir.layer), Layer.provide(GarrisonConfig.layerWith({ dataDir, ...overrides })))
    )
  )

export interface LogLine {
  readonly level: LogLevel.LogLevel
  readonly text: string
}

/** Replaces the default logger with one that records lines, so tests can assert what the operator sees. */
export const captureLogs = () => {
  const lines: Array<LogLine> = []
  const logger = Logger.make(({ logLevel, message }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    lines.push({ level: logLevel, text })
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}

export const linesAt = (lines: ReadonlyArray<LogLine>, level: LogLevel.LogLevel) =>
  lines.filter((line) => line.level === level).map((line) => line.text)

/** Overwrites `length` bytes at `offset` with garbage, as a bad disk or a stray write would. */
export const vandalise = (file: string, offset = 0, length = 8192): void => {
  const fd = NodeFs.openSync(file, "r+")
  try {
    NodeFs.writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset)
  } finally {
    NodeFs.closeSync(fd)
  }
}

export const backupNames = (dataDir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(dataDir, "backups")).filter((name) => name.endsWith(".db")).sort()

/** Waits in real time (the testkit's `eventually`) until `condition` holds: for work that finishes outside the fiber's (test) clock, such as a backup's promise. */
export const waitUntil = (condition: () => boolean) => Effect.asVoid(eventually(Effect.sync(condition), (holds) => holds))

/** Waits until some fiber is asleep on the TestClock, so an `adjust` is sure to wake it. */
export const waitForSleeper = Effect.asVoid(eventually(TestClock.sleeps(), Chunk.isNonEmpty))

/** Opens any SQLite file (e.g. a backup) with the Effect client for the duration of `effect`. */
export const withFile = <A, E>(filename: string, effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, SqliteClient.layer({ filename }))
