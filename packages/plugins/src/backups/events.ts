/** What backups tell other plugins (webhooks: `backup.created`, `backup.failed`; notifications). */
import * as Schema from "effect/Schema"
import { BackupType } from "./contract/Api.js"

export class BackupCreated extends Schema.TaggedClass<BackupCreated>()("BackupCreated", {
  serverId: Schema.String,
  name: Schema.String,
  filename: Schema.String,
  type: BackupType,
  sizeBytes: Schema.Number,
  files: Schema.Number,
  /** Backups removed by the retention after this one. */
  pruned: Schema.Array(Schema.String),
  by: Schema.String
}) {}

export class BackupFailed extends Schema.TaggedClass<BackupFailed>()("BackupFailed", {
  serverId: Schema.String,
  name: Schema.String,
  type: BackupType,
  error: Schema.String,
  by: Schema.String
}) {}

export class BackupRestored extends Schema.TaggedClass<BackupRestored>()("BackupRestored", {
  serverId: Schema.String,
  name: Schema.String,
  filename: Schema.String,
  /** The backup made of what the restore replaced. */
  preRestore: Schema.String,
  files: Schema.Number,
  by: Schema.String
}) {}
