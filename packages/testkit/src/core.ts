/**
 * `@garrison/testkit/core`: the helpers that need nothing but
 * `@garrison/runtime`, `effect` and Node, for tests of the runtime itself
 * (and of anything below the plugins). Importing it loads neither the host
 * (`@garrison/http`) nor the built-in plugins (`@garrison/plugins`), which
 * the package's main entry brings for `testController`, `fakeFleet` and
 * `StubFleet`. The main entry re-exports all of this.
 *
 * A convention test (`packages/plugins/test/conventions/testkitCore.test.ts`)
 * walks this module's imports and fails if one reaches the host or the
 * plugins.
 *
 * - Waiting: `eventually`, `realSleep` (real time); `sleepingUntil`,
 *   `sleepsOnTestClock` (the TestClock).
 * - Throw-away folders: `tempDir`, `scopedTempDir`, `removeTempDirs`.
 * - Log lines kept for assertions: `captureLogs`, `LogLine`, `messageText`.
 * - The kernel without HTTP: `testKernel`, `startKernel` (`Runtime.layer`
 *   from the runtime), and `auditRecorder`/`withAuditTrail`.
 * - The test authenticator: `TestAuthPlugin`, `caller`, `testToken`, ...
 * - Processes and game servers without the servers plugin: `fakeLauncher`,
 *   `fakeActor`, `fakeInstall`, `playersReply`, `identifiedPlayers`.
 * - Database files read directly: `integrityCheck`, `withDatabaseCopy`,
 *   `withReadOnlyDatabase`; one raw HTTP request: `rawRequest`.
 * - What a request costs the database: `countingStatements` (statements
 *   and commits, counted at the driver).
 * - A real PostgreSQL 15: `startPostgres` (a server of the test's own);
 *   `testDatabaseEngine` (`GARRISON_TEST_DATABASE`), `postgresDatabase` and
 *   `scopedPostgresDatabase` (a fresh database on the run's server);
 *   one database per data directory on the PostgreSQL pass, as the
 *   kernel, the controller and the spawned controller take it:
 *   `testDatabaseFor`, `testDatabaseSettings`, `testGarrisonConfig` (for a
 *   test building `GarrisonConfig` itself), `acquireDataDirDatabase` /
 *   `releaseDataDirDatabase` / `dataDirDatabaseUrl` /
 *   `dropDataDirDatabases` (plain Node).
 */
export { auditRecorder, withAuditTrail } from "./AuditRecorder.js"
export { eventually, realSleep } from "./Eventually.js"
export { fakeActor } from "./fleet/FakeActor.js"
export { type FakeInstallOptions, fakeInstall } from "./fleet/FakeInstall.js"
export { FAILING_EXECUTABLE, type FakeLauncher, fakeLauncher, type FakeLauncherOptions, type FakeProcess } from "./fleet/FakeLauncher.js"
export { identifiedPlayers, NO_PLAYERS, playersReply } from "./fleet/Players.js"
export { captureLogs, type LogLine, messageText } from "./Logs.js"
export { type RawRequest, rawRequest, type RawResponse } from "./RawHttp.js"
export { type SettingsOptions, testDatabaseSettings, testGarrisonConfig } from "./Settings.js"
export {
  createPostgresDatabase,
  databaseUrl,
  dropPostgresDatabase,
  findPostgres,
  POSTGRES_INSTALL_COMMAND,
  POSTGRES_SUPERUSER,
  type PostgresInstallation,
  type PostgresOptions,
  postgresDumpRows,
  postgresDumpText,
  postgresQuery,
  postgresRestoreText,
  type PostgresServer,
  startPostgres,
  TEST_DATABASE_VARIABLE,
  TEST_POSTGRES_URL_VARIABLE,
  type TestDatabaseEngine,
  testDatabaseEngine,
  uniqueDatabaseName
} from "./Postgres.js"
export { integrityCheck, type RawDatabase, type RawStatement, withDatabaseCopy, withReadOnlyDatabase } from "./SqliteFile.js"
export { countingStatements, type StatementTally } from "./StatementCount.js"
export { removeTempDirs, scopedTempDir, tempDir } from "./TempDir.js"
export { caller, parseTestToken, TestAuthPlugin, testAuthorization, testToken } from "./TestAuthPlugin.js"
export { adjustInSteps, sleepingUntil, sleepsOnTestClock } from "./TestClockSleeps.js"
export {
  acquireDataDirDatabase,
  dataDirDatabaseUrl,
  dropDataDirDatabases,
  postgresDatabase,
  releaseDataDirDatabase,
  scopedPostgresDatabase,
  testDatabaseFor,
  testPostgresUrl
} from "./TestDatabase.js"
export { type RunningKernel, startKernel, testKernel, type TestKernelOptions } from "./TestKernel.js"
