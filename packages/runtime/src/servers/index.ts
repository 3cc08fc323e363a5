/**
 * Server actors: one fiber-backed actor per server entry (process, RCON,
 * status, watchdog), owned by the `Supervisor`.
 */
export { ActorError } from "./ActorError.js"
export { describePorts, GAME_PORT_SPAN, hostPortsOf, portsOf, rconPortOf } from "./EntryPorts.js"
export type { EntryPort, HostPort } from "./EntryPorts.js"
export * from "./events.js"
export { GameCapability, oneLine } from "./GameControl.js"
export type { GameBan, GameControl } from "./GameControl.js"
export * as RconGameControl from "./RconGameControl.js"
export { actorErrorToHttp, ServerFault, ServerNotFound, ServerUnreadable, serverActionErrors } from "./ServerErrors.js"
export type { ActorHttpError } from "./ServerErrors.js"
export { LaunchArgument, LaunchFields, LaunchPath, launchProblem, MANAGED_PARAMETERS, ModName } from "./LaunchParameters.js"
export type { LaunchProblem } from "./LaunchParameters.js"
export { gameServerUserSettings, launchUser, LaunchUserRefused, lookUpUser } from "./GameServerUser.js"
export type { GameServerUserSettings } from "./GameServerUser.js"
export { ATTACHED_POLL_INTERVAL, ProcessLauncher, SpawnFailed, readStartToken } from "./ProcessLauncher.js"
export type { ProcessExit, ProcessHandle, ProcessLauncherShape, ProcessUsage } from "./ProcessLauncher.js"
export { outputPath } from "./ProcessOutput.js"
export { ProcessRecords } from "./ProcessRecords.js"
export { profilesFolder, profilesInsideInstall } from "./ProfilesFolder.js"
export type { ProcessRecord, ProcessRecordsShape } from "./ProcessRecords.js"
export * as ServerActor from "./ServerActor.js"
export type { OperationKind } from "./actor/operation.js"
export {
  AgentSettings,
  RconSettings,
  ServerEntry,
  StopPolicy,
  defaultStopPolicy,
  executablePath,
  launchArguments,
  makeServerEntry,
  profilesPath,
  serverEntryDefaults
} from "./ServerEntry.js"
export { filesBusy, initialState, processUp, uptimeSeconds } from "./ServerState.js"
export type { ServerState, ServerStatus } from "./ServerState.js"
export { Supervisor } from "./Supervisor.js"
export type { SupervisorShape } from "./Supervisor.js"
