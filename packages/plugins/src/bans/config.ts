/**
 * Settings, read through Effect `Config`:
 * - `BAN_FILE_ID_FORM`: `steam64` (default) or `dayz`, the id form written
 *   into each server's `ban.txt`.
 */
import * as Config from "effect/Config"
import type { BanFileIdForm } from "./internal/banFile.js"

export const banFileIdFormConfig: Config.Config<BanFileIdForm> = Config.literal("steam64", "dayz")("BAN_FILE_ID_FORM").pipe(
  Config.withDefault("steam64" as const)
)
