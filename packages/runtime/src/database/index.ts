/** SQLite persistence: the database service, its backups and plugin migrations. */
export { Database, DatabaseError, type DatabaseShape, scheduledBackups, type StartupRecovery } from "./Database.js"
export {
  type AppliedMigration,
  type Migration,
  type MigrationReport,
  type MigrationSet,
  runMigrations
} from "./Migrations.js"
