/**
 * Bans: the global ban database behind `/api/bans` (`bans.manage`), the
 * in-game ban route, and the sync of active bans into every server's
 * `ban.txt` (before each start and restart, after every change, at each
 * expiry). See README.md.
 */
import { AuditTrail, Plugin } from "@garrison/runtime"
import * as Layer from "effect/Layer"
import { Bans } from "./Bans.js"
import { BanSync, type BanSyncOptions } from "./BanSync.js"
import { BansApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { Routes } from "./routes/index.js"
import { BANS_PERMISSIONS } from "./contract/Api.js"
import { BAN_EVENTS } from "./published.js"

export type BansPluginOptions = BanSyncOptions

export const makeBansPlugin = (options: BansPluginOptions = {}) =>
  Plugin.make({
    id: "bans",
    permissions: BANS_PERMISSIONS,
    // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
    requires: [AuditTrail],
    description: "Global ban database, synced into every server's ban.txt",
    dependsOn: ["servers", "players"],
    migrations,
    layer: BanSync.layer(options).pipe(Layer.provideMerge(Bans.layer)),
    http: Plugin.http(BansApi, Routes),
    publishes: BAN_EVENTS,
    // ban.txt is written by the servers plugin's ServerFileSync (BanSync registers it): before every start and
    // restart (a file that cannot be written refuses the start), at controller start, after changes, at expiries.
  })

export const BansPlugin = makeBansPlugin()

export {
  Ban,
  BanInput,
  BanListParams,
  BanPage,
  BANS_PERMISSION,
  BansApi,
  BansGroup,
  BanStatus,
  ImportError as BanImportError,
  ImportResult as BanImportResult,
  PLAYER_BAN_PERMISSION,
  PlayerBanBody,
  PlayerBanGroup,
  PlayerBanReply
} from "./contract/Api.js"
export { BanExists, BanFileError, BanNotFound, BanStoreError, InvalidBan } from "./errors.js"
export { BanAdded, BanRemoved, BansImported } from "./events.js"
export { Bans, EXPORT_CHUNK, INSERT_CHUNK as BAN_INSERT_CHUNK } from "./Bans.js"
export type { BansShape, NewBan } from "./Bans.js"
export { BAN_FILE, BanSync } from "./BanSync.js"
export type { BanSyncOptions, BanSyncShape, SyncReport as BanSyncReport } from "./BanSync.js"
export { banFileIdFormConfig } from "./config.js"
export {
  BEGIN_MARKER as BAN_BLOCK_BEGIN,
  blockIds as banBlockIds,
  encodeBlock as encodeBanBlock,
  END_MARKER as BAN_BLOCK_END,
  mergeBlock as mergeBanBlock,
  mergeBlockBytes as mergeBanBlockBytes,
  renderBlock as renderBanBlock
} from "./internal/banFile.js"
export type { BanFileIdForm, EncodedBlock as EncodedBanBlock } from "./internal/banFile.js"
export { BANS_PERMISSIONS } from "./contract/Api.js"
