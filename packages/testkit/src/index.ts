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
// Everything that needs only the runtime, `effect` and Node (waiters, folders, logs, the kernel, the fake launcher):
// also importable alone as `@garrison/testkit/core`, without the host and the plugins this entry brings.
export * from "./core.js"
export { DefaultPermissionsPlugin } from "./DefaultPermissions.js"
export { type BytesReply, call, type CallOptions, callWithText, jsonBody, type RawReply, type Reply, request, requestBytes, type TextReply } from "./Call.js"
export { unzipEntries } from "./Zip.js"
export { type FakeFleet, fakeFleet } from "./fleet/FakeFleet.js"
export { type ActorCall, type AddOptions, StubFleet, StubServer } from "./fleet/StubFleet.js"
export { type StubServersOptions, stubServersPlugin } from "./fleet/StubServers.js"
export {
  clientFor,
  ControllerFailed,
  controllerEntry,
  type SpawnedController,
  spawnController,
  type SpawnOptions,
  testAuthPluginModule
} from "./SpawnController.js"
export { serverPort, testController, type TestControllerOptions } from "./TestController.js"
