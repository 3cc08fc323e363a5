/**
 * Game formats and ids: player id conversions, parsers of what a DayZ
 * server says over RCon (`players`, `bans`, server messages) and of its
 * logs (map, version, who each player is).
 */
export * as PlayerIds from "./PlayerIds.js"
export { InvalidPlayerId, PlatformId, Steam64, parsePlatformId } from "./PlayerIds.js"
export { OnlinePlayer, parsePlayerLine, parsePlayers, parsePlayerTotal, RconPlayer } from "./Players.js"
export { makePlayerDirectory, parsePlayerLogLine } from "./PlayerLog.js"
export type { LoggedPlayer, PlayerDirectory } from "./PlayerLog.js"
export { inLogFolder } from "./LogFolder.js"
export type { LogFolder } from "./LogFolder.js"
export { followLogs } from "./LogFollower.js"
export type { LogFollower, LogFollowerOptions } from "./LogFollower.js"
export { parseBans, RconBan } from "./Bans.js"
export type { RconBanList } from "./Bans.js"
export {
  ChatChannel,
  parseServerMessage,
  RconAdminLoggedIn,
  RconAdminSaid,
  RconChat,
  RconOtherMessage,
  RconPlayerConnected,
  RconPlayerDisconnected,
  RconPlayerGuid,
  RconPlayerGuidVerified,
  RconPlayerKicked,
  RconServerEvent
} from "./ServerMessages.js"
export { parseRptFacts, readRptFacts } from "./Rpt.js"
export type { RptFacts } from "./Rpt.js"
export { editServerConfig, findSetting, missionOf, parseServerConfig, readConfigValue, writeConfigValue } from "./ServerConfigFile.js"
export type { ConfigEdit, ConfigSetting, ConfigValue, MissionFolders, ParsedConfig } from "./ServerConfigFile.js"
export { maskSecrets, type MaskedText, SECRET_MASK, textOf, unmaskSecrets, type UnmaskProblem } from "./SecretMasks.js"
