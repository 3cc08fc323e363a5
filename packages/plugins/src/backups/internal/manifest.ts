/**
 * The manifest inside every backup (`garrison-backup.json`, the zip's last
 * entry): which server, when, what kind, which paths were taken, and every
 * file with its size and SHA-256. A restore trusts nothing in a zip the
 * manifest does not vouch for, and checks every byte it unpacks against it.
 *
 * Entry names: files of the install folder under `install/`, files of a
 * profiles folder configured outside it under `profiles/`; each entry's
 * `root` and `path` say the same thing, and both are checked on restore.
 */
import * as Schema from "effect/Schema"
import { BACKUP_TYPES } from "./retention.js"

export const MANIFEST_NAME = "garrison-backup.json"
export const MANIFEST_FORMAT = "garrison-backup"
/** The largest manifest a restore reads (a server with 100 000 files stays far below). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

export const BackupRoot = Schema.Literal("install", "profiles")
export type BackupRoot = typeof BackupRoot.Type

export const entryName = (root: BackupRoot, path: string): string => `${root}/${path}`

export const ManifestFile = Schema.Struct({
  root: BackupRoot,
  /** Relative to its root, `/` between names. */
  path: Schema.String,
  size: Schema.Number,
  sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  modified: Schema.String
})
export type ManifestFile = typeof ManifestFile.Type

export const ManifestPath = Schema.Struct({
  root: BackupRoot,
  /** `""` for the root itself. */
  path: Schema.String,
  kind: Schema.Literal("file", "folder")
})
export type ManifestPath = typeof ManifestPath.Type

export const Manifest = Schema.Struct({
  format: Schema.Literal(MANIFEST_FORMAT),
  version: Schema.Literal(1),
  server: Schema.Struct({ id: Schema.String, name: Schema.String }),
  type: Schema.Literal(...BACKUP_TYPES),
  createdAt: Schema.String,
  /** Whether the server ran while it was taken (its SQLite databases were then copied through SQLite's online backup). */
  running: Schema.Boolean,
  /** The paths asked for, as they were found (a missing one is left out and named in `warnings`). */
  paths: Schema.Array(ManifestPath),
  /** What was left out of the folders: `logs` (engine, admin, script, crash and BattlEye logs). */
  excluded: Schema.Array(Schema.Literal("logs")),
  files: Schema.Array(ManifestFile),
  /** Every folder under a folder path, so empty ones come back too. */
  folders: Schema.Array(Schema.Struct({ root: BackupRoot, path: Schema.String })),
  totalBytes: Schema.Number,
  warnings: Schema.Array(Schema.String),
  /**
   * In a downloaded copy only: the files whose secrets were replaced by the
   * mask, with the keys (`password`, `RConPassword`, ...). Restoring the
   * copy keeps the server's current values there.
   */
  secretsMasked: Schema.optional(Schema.Array(Schema.Struct({ root: BackupRoot, path: Schema.String, keys: Schema.Array(Schema.String) })))
})
export type Manifest = typeof Manifest.Type

export const decodeManifest = Schema.decodeUnknownEither(Schema.parseJson(Manifest))
export const encodeManifest = (manifest: Manifest): string => JSON.stringify(manifest, null, 1)
