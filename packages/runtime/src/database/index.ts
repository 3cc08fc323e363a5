/** SQLite persistence: the database service, its backups and plugin migrations. */
export {
  BULK_WRITE_BACKUP_ROWS,
  Database,
  DatabaseError,
  type DatabaseShape,
  type StartupRecovery
} from "./Database.js"
export { SHUTDOWN_BACKUP_TIMEOUT, scheduledBackups, shutdownBackup } from "./BackupJobs.js"
export {
  type AppliedMigration,
  type Migration,
  type MigrationReport,
  type MigrationSet,
  type MigrationStatements,
  migration,
  runMigrations
} from "./Migrations.js"
export { storeDefect, storeErrorFields, storeErrorMapper, storeFailureMessage, type StoreFailure } from "./StoreError.js"
export { makeWriteCount, type WriteCount } from "./WriteCount.js"
export { GroupCommit, type GroupCommitShape } from "./GroupCommit.js"
export { inSavepoint } from "./Savepoint.js"
