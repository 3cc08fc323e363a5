/**
 * `@garrison/testkit`: what a plugin's tests need, the repository's own
 * and a community plugin's alike.
 *
 * - The controller in process, over a list of plugins: `testController`,
 *   and `call`/`request` as a named caller; the kernel without HTTP:
 *   `testKernel`, `startKernel`.
 * - The test authenticator (`Authorization: Bearer test:<user>:<perm,perm>`):
 *   `TestAuthPlugin`, `caller`, `testToken`, `testAuthorization`.
 * - Waiting: `eventually` (real time), `sleepingUntil` (the TestClock).
 * - Throw-away folders: `tempDir`, `scopedTempDir`; the run's check for
 *   leftovers is the vitest global setup `@garrison/testkit/globalSetup`.
 * - A fleet: `fakeFleet` (the real servers plugin over `fakeLauncher`'s
 *   processes, on `fakeInstall` folders) and, lighter, `StubFleet` /
 *   `stubServersPlugin` / `fakeActor` for plugins that only need servers
 *   to exist and answer.
 * - The controller as a process, loading plugins through `PLUGINS`:
 *   `spawnController`.
 */
export { auditRecorder, withAuditTrail } from "./AuditRecorder.js"
export { DefaultPermissionsPlugin } from "./DefaultPermissions.js"
export { type BytesReply, call, type CallOptions, callWithText, jsonBody, type RawReply, type Reply, request, requestBytes, type TextReply } from "./Call.js"
export { eventually, realSleep } from "./Eventually.js"
export { unzipEntries } from "./Zip.js"
export { type FakeFleet, fakeFleet } from "./fleet/FakeFleet.js"
export { fakeActor } from "./fleet/FakeActor.js"
export { type FakeInstallOptions, fakeInstall } from "./fleet/FakeInstall.js"
export { FAILING_EXECUTABLE, type FakeLauncher, fakeLauncher, type FakeLauncherOptions, type FakeProcess } from "./fleet/FakeLauncher.js"
export { identifiedPlayers, NO_PLAYERS, playersReply } from "./fleet/Players.js"
export { type ActorCall, type AddOptions, StubFleet, StubServer } from "./fleet/StubFleet.js"
export { type StubServersOptions, stubServersPlugin } from "./fleet/StubServers.js"
export { captureLogs, type LogLine, messageText } from "./Logs.js"
export type { SettingsOptions } from "./Settings.js"
export {
  clientFor,
  ControllerFailed,
  controllerEntry,
  type SpawnedController,
  spawnController,
  type SpawnOptions,
  testAuthPluginModule
} from "./SpawnController.js"
export { type RawRequest, rawRequest, type RawResponse } from "./RawHttp.js"
export { integrityCheck, type RawDatabase, type RawStatement, withDatabaseCopy, withReadOnlyDatabase } from "./SqliteFile.js"
export { removeTempDirs, scopedTempDir, tempDir } from "./TempDir.js"
export { caller, parseTestToken, TestAuthPlugin, testAuthorization, testToken } from "./TestAuthPlugin.js"
export { sleepingUntil, sleepsOnTestClock } from "./TestClockSleeps.js"
export { serverPort, testController, type TestControllerOptions } from "./TestController.js"
export { type RunningKernel, startKernel, testKernel, type TestKernelOptions } from "./TestKernel.js"
